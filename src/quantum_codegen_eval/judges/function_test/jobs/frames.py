"""The framing of the candidate's output file: ``kind (1 byte) + length (4 bytes) + payload``.

Kinds: ``L`` the program's top-level code ran (empty payload), ``C`` one call's result (JSON,
opaque to the evaluator), ``F`` the files the program left in its working dir (JSON), ``E`` the
end. The evaluator only splits frames (bounded); it never parses a call payload: that happens in
the trusted check process. ``D`` (the program died during this call) is made by the evaluator
only; a ``D`` in the program's own output is malformed.

>>> split(pack(b"L") + pack(b"C", b"{}"))
[(b'L', b''), (b'C', b'{}')]
>>> split(b"Cxx")
Traceback (most recent call last):
...
ValueError: frame 0: truncated header
"""

from __future__ import annotations

import struct

HEADER = struct.Struct(">cI")
KINDS = (b"L", b"C", b"F", b"E", b"D")
MAX_FRAMES = 100_000


def pack(kind: bytes, payload: bytes = b"") -> bytes:
    return HEADER.pack(kind, len(payload)) + payload


def split(data: bytes, kinds: tuple[bytes, ...] = KINDS) -> list[tuple[bytes, bytes]]:
    """The frames of ``data``; ``ValueError`` naming the first bad frame."""
    out, pos = [], 0
    while pos < len(data):
        if len(out) >= MAX_FRAMES:
            raise ValueError(f"more than {MAX_FRAMES} frames")
        if pos + HEADER.size > len(data):
            raise ValueError(f"frame {len(out)}: truncated header")
        kind, size = HEADER.unpack_from(data, pos)
        pos += HEADER.size
        if kind not in kinds:
            raise ValueError(f"frame {len(out)}: unknown kind {kind!r}")
        if pos + size > len(data):
            raise ValueError(f"frame {len(out)}: truncated payload")
        out.append((kind, data[pos:pos + size]))
        pos += size
    return out
