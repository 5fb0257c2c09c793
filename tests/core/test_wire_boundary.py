"""Forged objects at the boundary: a value the program made crosses as the exact built-in value
it holds, never as what its own methods say. Every built-in type the codec accepts is
subclassed with its dunders bound to library callables (``functools.partial`` of builtins,
method descriptors of other types: no frame of the program when they run); what decodes is the
content, of exact built-in types, all the way down."""

from __future__ import annotations

import functools
import operator
import random

import pytest

from quantum_codegen_eval.judges.jobs import wire, wire_numpy
from quantum_codegen_eval.judges.qhack.jobs import payload

CODECS = {"opaque": payload.CODEC, "plain": wire.Codec((wire_numpy,))}
RIGHT = "the right answer"
# dunders as library callables: partials of builtins (not descriptors: called without self)
LIES = {
    "__str__": functools.partial(str, RIGHT), "__repr__": functools.partial(str, RIGHT),
    "__format__": functools.partial(format, RIGHT), "__int__": functools.partial(int, 7),
    "__index__": functools.partial(int, 7), "__float__": functools.partial(float, 7.0),
    "__complex__": functools.partial(complex, 7), "__iter__": functools.partial(iter, [RIGHT]),
    "__len__": functools.partial(len, [1]), "__getitem__": functools.partial(operator.itemgetter(0), [RIGHT]),
    "items": functools.partial(list, [(RIGHT, RIGHT)]), "keys": functools.partial(list, [RIGHT]),
    "values": functools.partial(list, [RIGHT]), "__eq__": operator.is_not,
    "__ne__": operator.is_, "__hash__": functools.partial(hash, 0), "__bool__": operator.not_,
    "copy": functools.partial(list, [RIGHT]),
}
BASES = {str: "wrong", int: 3, float: 2.5, complex: 1 + 2j, list: [1, "wrong"],
         tuple: (1, "wrong"), dict: {"k": "wrong"}}


def _liar(base: type) -> type:
    return type(f"Liar{base.__name__.title()}", (base,), dict(LIES))


def _exact(value) -> bool:
    """Every object in ``value`` is of an exact built-in (or the codec's own) type."""
    t = type(value)
    if t in (list, tuple, set, frozenset):
        return all(_exact(v) for v in value)
    if t is dict:
        return all(_exact(k) and _exact(v) for k, v in value.items())
    return t in (str, int, float, complex, bool, type(None), bytes, wire.Opaque)


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("base", list(BASES), ids=lambda b: b.__name__)
def test_a_subclass_crosses_as_what_it_holds(codec, base):
    content = BASES[base]
    liar = _liar(base)(content)
    back = CODECS[codec].decode(CODECS[codec].encode(liar))
    assert type(back) is base and _exact(back)
    assert base.__eq__(back, content) is True, back  # compared by the built-in type only


@pytest.mark.parametrize("codec", CODECS)
def test_liars_nested_in_every_container(codec):
    rng = random.Random(5)
    liars = {b: _liar(b) for b in BASES}

    def make(depth: int):
        b = rng.choice(list(BASES))
        if depth > 3 or b not in (list, tuple, dict):
            return liars[b](BASES[b])
        if b is dict:
            return liars[dict]({f"k{i}": make(depth + 1) for i in range(3)})
        return liars[b]([make(depth + 1) for _ in range(3)])

    for _ in range(20):
        back = CODECS[codec].decode(CODECS[codec].encode(make(0)))
        assert _exact(back), back
        assert RIGHT not in repr(back)  # nothing the liars' methods said got through


def test_the_qhack_answer_is_its_content():
    """A ``str`` whose ``__str__`` is the expected text crosses as its real content: the check
    compares ``"wrong"``, as the contest's ``check()`` would have."""
    class Answer(str):
        __str__ = functools.partial(str, "0.5")

    assert payload.decode(payload.encode(Answer("0.9"))) == "0.9"
    assert payload.decode(payload.encode([Answer("0.9")])) == ["0.9"]
