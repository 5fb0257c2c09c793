"""The frames of the live session between the check and the program:
``kind (1 byte) + length (4 bytes) + payload``.

The check sends ``Q`` (one call: its arguments, JSON). The program answers with ``F`` (the
files it left in its working dir, JSON; only when they changed) and then ``L`` (its top-level
code ran; the payload is its entry point's constant report) or ``C`` (one call's result, JSON).
``L`` and ``C`` end a turn: a side writes only in its own turn, so neither ever blocks writing
while the other writes too. Every payload is parsed (bounded) in the trusted check process
only; the evaluator never sees the session.

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


def read(stream, kinds: tuple[bytes, ...], max_size: int) -> tuple[bytes, bytes] | None:
    """The next frame of ``stream``; ``None`` at its end; ``ValueError`` for a frame cut short,
    of a kind not in ``kinds`` or over ``max_size`` bytes (its payload is not read)."""
    head = _exactly(stream, HEADER.size)
    if not head:
        return None
    if len(head) < HEADER.size:
        raise ValueError("truncated frame header")
    kind, size = HEADER.unpack(head)
    if kind not in kinds:
        raise ValueError(f"unexpected frame kind {kind!r}")
    if size > max_size:
        raise ValueError(f"a frame of {size} bytes, over {max_size}")
    payload = _exactly(stream, size)
    if len(payload) < size:
        raise ValueError("truncated frame payload")
    return kind, payload
