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
counted, not kept (:func:`skip`): the size is then what the check saw, not the program's word.

>>> import io
>>> stream = io.BytesIO(pack(b"L") + pack(b"C", b"{}"))
>>> read(stream, (b"L", b"C"), 10), read(stream, (b"C",), 10), read(stream, (b"C",), 10)
((b'L', b''), (b'C', b'{}'), None)
>>> read(io.BytesIO(b"Cxx"), (b"C",), 10)
Traceback (most recent call last):
...
ValueError: truncated frame header
"""

from __future__ import annotations

import struct

HEADER = struct.Struct(">cI")


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
    """The next frame's ``(kind, payload size)``; ``None`` at the stream's end; ``ValueError``
    for a header cut short or a kind not in ``kinds``."""
    head = _exactly(stream, HEADER.size)
    if not head:
        return None
    if len(head) < HEADER.size:
        raise ValueError("truncated frame header")
    kind, size = HEADER.unpack(head)
    if kind not in kinds:
        raise ValueError(f"unexpected frame kind {kind!r}")
    return kind, size


def payload(stream, size: int) -> bytes:
    """The ``size`` bytes of a payload whose header was read; ``ValueError`` when cut short."""
    data = _exactly(stream, size)
    if len(data) < size:
        raise ValueError("truncated frame payload")
    return data


def skip(stream, size: int, chunk: int = 1 << 20) -> None:
    """Receive a payload of ``size`` bytes without keeping it (``ValueError`` when cut short)."""
    left = size
    while left:
        got = len(_exactly(stream, min(chunk, left)))
        if not got:
            raise ValueError(f"truncated frame payload ({size - left} of {size} bytes)")
        left -= got


def read(stream, kinds: tuple[bytes, ...], max_size: int) -> tuple[bytes, bytes] | None:
    """The next frame of ``stream``; ``None`` at its end; ``ValueError`` for a frame cut short,
    of a kind not in ``kinds`` or over ``max_size`` bytes (its payload is not read)."""
    head = header(stream, kinds)
    if head is None:
        return None
    kind, size = head
    if size > max_size:
        raise ValueError(f"a frame of {size} bytes, over {max_size}")
    return kind, payload(stream, size)
