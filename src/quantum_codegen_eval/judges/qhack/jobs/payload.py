"""The wire codec of QHack: the core with numpy, values compared by the check (numpy scalars
cross as Python numbers; an object with no data form is an ``Opaque`` stand-in equal to nothing).
Decoding raises only ``PayloadError`` (the codec's ``WireError``).

>>> decode(encode([1, (2.5, "x"), None, 1j]))
[1, (2.5, 'x'), None, 1j]
"""

from ...jobs import wire, wire_numpy

CODEC = wire.Codec((wire_numpy,), opaque=True)
PayloadError = wire.WireError
Opaque = wire.Opaque
encode = CODEC.encode


def decode(data):
    """The value of ``data`` (:class:`PayloadError` on anything malformed or over a limit)."""
    try:
        return CODEC.decode(data)
    except wire.UnsupportedValue as exc:  # a value the program's side could not carry
        raise PayloadError(str(exc)) from None
