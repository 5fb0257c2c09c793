"""The frames of a link between two linked jobs: ``kind (1 byte) + length (4 bytes) + payload``.

The function-test judges' live session between the check and the program: the check sends ``Q`` (one call: its arguments, JSON). The program answers with ``F`` (the
files it left in its working dir, JSON; only when they changed) and then ``L`` (its top-level
code ran; the payload is its entry point's constant report) or ``C`` (one call's result, JSON).
``L`` and ``C`` end a turn: a side writes only in its own turn, so neither ever blocks writing
while the other writes too. Every payload is parsed (bounded) in the trusted check process
only; the evaluator never sees the session.

The QCoder judge's link from the program's harness to its trusted check: ``H`` (which test, and
the transport of its output, JSON) then ``D`` (the output itself: QPY, a circuit tree, or a
classical answer's JSON), one pair per test. A ``D`` over what the check reads is received and
counted, not kept (:func:`receive`): the size is then what the check saw, not the program's word.

>>> import io
>>> stream = io.BytesIO(pack(b"L") + pack(b"C", b"{}"))
>>> read(stream, (b"L", b"C"), 10), read(stream, (b"C",), 10), read(stream, (b"C",), 10)
((b'L', b''), (b'C', b'{}'), None)
>>> try:
...     read(io.BytesIO(b"Cxx"), (b"C",), 10)
... except Truncated as exc:
...     print(exc)
truncated frame header
>>> receive(io.BytesIO(pack(b"D", b"x" * 20)), (b"D",), 10)
Frame(kind=b'D', size=20, payload=None)
"""

from __future__ import annotations

import os
import struct
import sys
from typing import NamedTuple

HEADER = struct.Struct(">cI")


class Truncated(ValueError):
    """The stream ended inside a frame (its writer ended mid-frame), not a malformed frame."""


class Frame(NamedTuple):
    """A received frame; ``payload`` is ``None`` when it was over the reader's bound (received
    and counted, not kept: ``size`` is what the reader saw, not the writer's word)."""

    kind: bytes
    size: int
    payload: bytes | None


def detach(*fds: int, keep: bool = True) -> list[int]:
    """Take ``fds`` (0: stdin, 1: stdout) away from the rest of the process for the link: each
    is replaced by /dev/null, so nothing else here (a program's print, a library reading
    stdin) reads or writes the link. Returns their duplicates, in order, with ``keep``;
    without, the link's ends are closed here. Flushes ``sys.stdout`` first."""
    sys.stdout.flush()
    kept = [os.dup(fd) for fd in fds] if keep else []
    null = os.open(os.devnull, os.O_RDWR)
    for fd in fds:
        os.dup2(null, fd)
    os.close(null)
    return kept


def pack(kind: bytes, payload: bytes = b"") -> bytes:
    return HEADER.pack(kind, len(payload)) + payload


def _exactly(stream, n: int) -> bytes:
    """``n`` bytes of ``stream`` (fewer only at its end)."""
    parts, got = [], 0
    while got < n:
        chunk = stream.read(n - got)
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def header(stream, kinds: tuple[bytes, ...]) -> tuple[bytes, int] | None:
    """The next frame's ``(kind, payload size)``; ``None`` at the stream's end;
    :class:`Truncated` for a header cut short, ``ValueError`` for a kind not in ``kinds``."""
    head = _exactly(stream, HEADER.size)
    if not head:
        return None
    if len(head) < HEADER.size:
        raise Truncated("truncated frame header")
    kind, size = HEADER.unpack(head)
    if kind not in kinds:
        raise ValueError(f"unexpected frame kind {kind!r}")
    return kind, size


def payload(stream, size: int) -> bytes:
    """The ``size`` bytes of a payload whose header was read; :class:`Truncated` when cut
    short."""
    data = _exactly(stream, size)
    if len(data) < size:
        raise Truncated("truncated frame payload")
    return data


def skip(stream, size: int, chunk: int = 1 << 20) -> None:
    """Receive a payload of ``size`` bytes without keeping it (:class:`Truncated` when cut
    short)."""
    left = size
    while left:
        got = len(_exactly(stream, min(chunk, left)))
        if not got:
            raise Truncated(f"truncated frame payload ({size - left} of {size} bytes)")
        left -= got


def read(stream, kinds: tuple[bytes, ...], max_size: int) -> tuple[bytes, bytes] | None:
    """The next frame of ``stream``; ``None`` at its end; :class:`Truncated` for a frame cut
    short, ``ValueError`` for one of a kind not in ``kinds`` or over ``max_size`` bytes (its
    payload is not read)."""
    head = header(stream, kinds)
    if head is None:
        return None
    kind, size = head
    if size > max_size:
        raise ValueError(f"a frame of {size} bytes, over {max_size}")
    return kind, payload(stream, size)


def receive(stream, kinds: tuple[bytes, ...], max_size: int) -> Frame | None:
    """The next frame of ``stream``, as :func:`read`, except that a payload over ``max_size``
    bytes is received and counted, not kept (:func:`skip`)."""
    head = header(stream, kinds)
    if head is None:
        return None
    kind, size = head
    if size > max_size:
        skip(stream, size)
        return Frame(kind, size, None)
    return Frame(kind, size, payload(stream, size))
