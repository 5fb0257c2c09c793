"""A codec extension for the classes a task itself defines (Quantum Katas's ``TruthTable``, its
``Pauli`` enum): an instance crosses as its class's name and its data, and is rebuilt from the
class of that name on the receiving side, each side's own (the check's class is the test's or
the prompt's, never the program's).

``{"$": "task", "cls": name, "member": m}`` for an ``Enum`` member; ``{"$": "task", "cls":
name, "state": [[attr, value], ...]}`` for another instance (its ``__dict__``: plain attribute
names, values in the codec's own kinds), rebuilt without calling the class's ``__init__``.
Only instances whose type is exactly a declared class cross; decoding a name the receiving side
does not declare is malformed.

This is a job module: standard library only, no effect on import.

>>> import enum
>>> class Pauli(enum.Enum):
...     X = "X"
>>> class Table:
...     def __init__(self, bits):
...         self.bits = bits
>>> from . import codec
>>> c = with_classes(codec.CODEC, {"Pauli": Pauli, "Table": Table})
>>> c.decode(c.encode([Pauli.X, Table(5)]))[1].bits
5
"""

import enum
import re

from ...jobs import wire

_ATTR = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")
MAX_ATTRS = 1000


class TaskClasses:
    """The extension for ``classes`` (name -> class)."""

    def __init__(self, classes):
        self.classes = {str(k): v for k, v in classes.items() if isinstance(v, type)}
        self.names = {v: k for k, v in self.classes.items()}
        self.DECODERS = {"task": self.decode}

    def encode(self, enc, value, depth):
        name = self.names.get(type(value))
        if name is None:
            return wire.SKIP
        if isinstance(value, enum.Enum):
            return {"$": "task", "cls": name, "member": value.name}
        state = getattr(value, "__dict__", None)
        if type(state) is not dict or len(state) > MAX_ATTRS or not all(
                type(k) is str and _ATTR.fullmatch(k) and not k.startswith("__") for k in state):
            raise wire.UnsupportedValue(f"{name} (its attributes cannot cross)")
        return {"$": "task", "cls": name,
                "state": [[k, enc.enc(v, depth + 1)] for k, v in state.items()]}

    def decode(self, data, d, depth):
        name = data.get("cls")
        cls = self.classes.get(name) if type(name) is str else None
        if cls is None:
            raise wire.WireError(f"task class {str(name)[:80]!r} is not declared here")
        if issubclass(cls, enum.Enum):
            member = data.get("member")
            if type(member) is not str or member not in cls.__members__:
                raise wire.WireError(f"{name}: no member {str(member)[:80]!r}")
            return cls.__members__[member]
        state = data.get("state")
        if type(state) is not list or len(state) > MAX_ATTRS:
            raise wire.WireError(f"{name}: expected a list of attributes")
        obj = object.__new__(cls)
        for pair in state:
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str \
                    or not _ATTR.fullmatch(pair[0]) or pair[0].startswith("__"):
                raise wire.WireError(f"{name}: malformed attribute")
            obj.__dict__[pair[0]] = d.dec(pair[1], depth + 1)
        return obj


def with_classes(codec, classes):
    """``codec`` with the extension for ``classes`` (``codec`` itself when there are none)."""
    ext = TaskClasses(classes)
    if not ext.classes:
        return codec
    return wire.Codec((*codec.extensions, ext), codec.limits, codec.opaque)
