"""The wire codec: how a value crosses from an untrusted sandbox job to the trusted side.

A value is encoded (in the job that computed it) to JSON-safe *tagged data*: ``None``, booleans,
ints under 2**53, finite floats, strings and lists are themselves; anything else is an object
``{"$": tag, ...}`` (``int`` beyond 2**53 as hexadecimal, non-finite ``float``, ``complex``,
``tuple``, ``set``, ``frozenset``, ``dict`` as pairs, ``bytes``, ``range``, ``deque``,
``Fraction``, ``Decimal``, dict views, iterators, ``graph`` for values nested deeper than the depth
limit or containing themselves, ``unsupported`` for what cannot cross). Extensions add tags:
:mod:`.wire_numpy` (arrays as ``.npy`` bytes, never pickles) and :mod:`.wire_qiskit` (circuits as
QPY, quantum-info objects, primitives results, ...). A :class:`Codec` is the core plus the
extensions a judge accepts, and one policy (``opaque``):

* ``opaque=False`` (Qiskit HumanEval: the check uses values as objects): a value of no known type
  is ``{"$": "unsupported"}`` and decoding it raises :class:`UnsupportedValue`.
* ``opaque=True`` (QHack: the check compares values): it decodes to an :class:`Opaque` stand-in
  that equals nothing; numpy scalars cross as Python numbers, object arrays item by item.

Decoding is total on hostile data: whatever the bytes, :meth:`Codec.decode` / :meth:`Codec.loads`
rebuild a value or raise :class:`WireError` (malformed, over a limit) or :class:`UnsupportedValue`
(the sender said it could not encode a value), never another exception, and all work is bounded
by one :class:`Limits` (bytes, depth, items, array elements and dimensions, string and integer
sizes, qubits, instructions, image pixels).

Other wire formats use the same error and limits: raise :class:`WireError` for malformed data and
read bounds from :data:`LIMITS` (e.g. ``LIMITS.depth``, ``LIMITS.items``, ``LIMITS.qubits``,
``LIMITS.instructions``), so that a judge catches one error type whatever the format; a job module
imports them with ``from ...jobs.wire import LIMITS, WireError``. For QCoder's circuit tree
(``judges/qcoder/transport.py``): ``TransportError`` becomes ``WireError`` (or a subclass of it),
``MAX_BYTES`` ``LIMITS.bytes``, ``MAX_NODES`` ``LIMITS.items``, ``MAX_NESTING`` ``LIMITS.depth``
(48; the tree allows 64 today: nested definitions deeper than 48 would become malformed).

This is a job module: standard library only (extensions import their framework lazily), no effect
on import, Python 3.9.

>>> codec = Codec()
>>> codec.decode(codec.encode({"a": (1, 2.5, None), "b": [True, "x", 1j]}))
{'a': (1, 2.5, None), 'b': [True, 'x', 1j]}
>>> codec.decode({"$": "tuple", "v": 3})
Traceback (most recent call last):
...
quantum_codegen_eval.judges.jobs.wire.WireError: tuple: expected a list
"""

from __future__ import annotations

import base64
import collections.abc
import json
import math
from dataclasses import dataclass
from typing import Any


class WireError(ValueError):
    """Data that is malformed or over a limit (the one error of every wire format)."""


class UnsupportedValue(ValueError):
    """A value of a type that cannot cross safely (its type name is the message)."""


class TransportLimit(UnsupportedValue):
    """A value of a supported kind that the codec cannot carry (too large, QPY cannot read it
    back): a limit of the judge, not the program's fault."""


class IteratorLimit(BaseException):
    """A returned iterator was read past the items carried (``Limits.iter_items``); a
    ``BaseException`` so that a check's ``except Exception`` cannot hide it."""


@dataclass(frozen=True)
class Limits:
    """The one set of bounds of every decode (and of what an encoder sends)."""

    bytes: int = 48 * 1024 * 1024
    depth: int = 48
    items: int = 1_000_000
    elements: int = 1 << 22
    dims: int = 32
    string: int = 1 << 21
    int_digits: int = 1 << 20  # hexadecimal digits (no decimal: str(int) is capped)
    iter_items: int = 500_000
    qubits: int = 1024
    clbits: int = 1 << 16
    #: a circuit's top-level instructions (a decoded instruction costs the reader ~0.7 KB: 800,000
    #: took a check's process to 700 MB); a correct answer must fit: Qiskit HumanEval's canonical
    #: solution of task 100 returns 562,092
    instructions: int = 600_000
    #: a circuit's QPY (43-61 bytes an instruction, nested definitions included: 280,000
    #: instructions in a custom gate's definition read back in 200 MB); task 100's canonical
    #: circuit is 27 MB of QPY
    qpy_bytes: int = 40 << 20
    image_pixels: int = 16_000_000


LIMITS = Limits()
#: an extension's ``encode`` returns this for a value that is not of its kinds
SKIP = object()
_END = object()
_VIEWS = {type({}.keys()): "keys", type({}.values()): "values", type({}.items()): "items"}
_GRAPH_KINDS = {"list": list, "tuple": tuple, "dict": dict, "set": set, "frozenset": frozenset}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: Any, limits: Limits = LIMITS) -> bytes:
    """Bytes of a bounded base64 field (:class:`WireError` otherwise)."""
    if not isinstance(text, str) or len(text) > limits.bytes * 4 // 3 + 4:
        raise WireError("binary field: expected a bounded base64 string")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as exc:
        raise WireError(f"binary field: bad base64 ({exc})") from None


def type_name(value: Any) -> str:
    t = type(value)
    return f"{t.__module__}.{t.__qualname__}"


def number(v: Any) -> float:
    """A float field: a JSON number or a tagged non-finite float."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if isinstance(v, dict) and v.get("$") == "float" and v.get("v") in ("nan", "inf", "-inf"):
            return float(v["v"])
        raise WireError("expected a number")
    return float(v)


class Opaque:
    """A value that has no data form (``opaque`` codecs): its type and text; equals nothing."""

    def __init__(self, type_name: str, text: str) -> None:
        self.type_name, self.text = type_name, text

    def __repr__(self) -> str:
        return f"<{self.type_name} {self.text[:200]}>"

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


class Items:
    """A returned iterator as the trusted side sees it: the items the program's iterator gave."""

    def __init__(self, items: list, more: bool, limit: int) -> None:
        self._it, self._more, self._limit = iter(items), more, limit

    def __iter__(self) -> Items:
        return self

    def __next__(self) -> Any:
        for item in self._it:
            return item
        if self._more:
            raise IteratorLimit(f"an iterator of more than {self._limit} items")
        raise StopIteration


class _TooDeep(UnsupportedValue):
    """A value nested deeper than ``Limits.depth`` (or containing itself): sent as a graph."""


# --------------------------------------------------------------------------- encoding

class Encoder:
    """One encoding (``fp``: a comparable fingerprint instead: circuits by their structure,
    arrays by their values, no iterator consumed)."""

    def __init__(self, codec: Codec, fp: bool) -> None:
        self.codec, self.limits, self.fp, self.opaque = codec, codec.limits, fp, codec.opaque

    def enc(self, value: Any, depth: int) -> Any:
        if depth > self.limits.depth:
            raise _TooDeep("a value nested deeper than the codec allows")
        t = type(value)
        if value is None or t in (bool, str):
            return value
        if t is int:
            return value if abs(value) < 2**53 else {"$": "int", "x": format(value, "x")}
        if t is float:
            return value if math.isfinite(value) else {"$": "float", "v": repr(value)}
        if t is complex:
            return {"$": "complex", "v": [self.enc(value.real, depth), self.enc(value.imag, depth)]}
        if t in (list, tuple, set, frozenset):
            items = [self.enc(v, depth + 1) for v in value]  # (the decoder bounds the count)
            if t is list:
                return items
            if t in (set, frozenset):
                items = sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
            return {"$": t.__name__, "v": items}
        if t in (bytes, bytearray):
            return {"$": t.__name__, "b64": b64(bytes(value))}
        if t is range:
            return {"$": "range", "v": [value.start, value.stop, value.step]}
        if t in _VIEWS:
            return {"$": _VIEWS[t], "v": [self.enc(v, depth + 1) for v in self.bounded(value)]}
        if t is dict:
            return self.pairs("dict", value, depth)
        if _builtin_iterator(value) and not self.fp:  # a generator, map, zip...: its items
            # (never in a fingerprint: that would consume the items before the value is sent)
            return self.iterator(value, depth)
        try:
            for ext in self.codec.extensions:
                out = ext.encode(self, value, depth)
                if out is not SKIP:
                    return out
            return self.fallback(value, depth)
        except (_TooDeep, TransportLimit):
            raise
        except UnsupportedValue as exc:
            if not self.opaque:
                raise
            return self.unsupported(value, exc)  # in place: the rest of the value still crosses

    def fallback(self, value: Any, depth: int) -> Any:
        """Subclasses of plain types as their plain value, read through the built-in type's own
        slots (never the subclass's ``__str__``, ``__iter__``, ``items``...: a ``str``
        subclass whose ``__str__`` returns the right text is the text it holds); other values
        as ``unsupported``."""
        plain = exact_builtin(value)
        if plain is not SKIP:
            return self.enc(plain, depth)
        name = type_name(value)
        if name == "collections.deque":
            return {"$": "deque", "v": [self.enc(v, depth + 1) for v in self.bounded(value)],
                    "maxlen": value.maxlen}
        if name == "fractions.Fraction":
            return {"$": "Fraction", "v": [self.enc(value.numerator, depth),
                                           self.enc(value.denominator, depth)]}
        if name == "decimal.Decimal":
            return {"$": "Decimal", "v": str(value)}
        if not self.fp and isinstance(value, collections.abc.Iterator):
            return self.iterator(value, depth)
        raise UnsupportedValue(name)

    def pairs(self, tag: str, value: Any, depth: int) -> dict:
        return {"$": tag, "v": [[self.enc(k, depth + 1), self.enc(v, depth + 1)]
                                for k, v in dict.items(value)]}

    def bounded(self, items: Any) -> list:
        out = []
        for v in items:
            if len(out) >= self.limits.items:
                raise TransportLimit(f"an iterable of more than {self.limits.items} items")
            out.append(v)
        return out

    def iterator(self, value: Any, depth: int) -> dict:
        import itertools

        n = self.limits.iter_items
        items = list(itertools.islice(value, n))
        more = len(items) == n and next(value, _END) is not _END
        return {"$": "iter", "v": [self.enc(v, depth + 1) for v in items], "more": more}

    def unsupported(self, value: Any, exc: UnsupportedValue) -> dict:
        out = {"$": "unsupported", "type": str(exc)[:300]}
        if isinstance(exc, TransportLimit):
            out["limit"] = True
        elif self.opaque:
            try:
                text = str(repr(value))[:2000]
            except BaseException:  # noqa: BLE001 - any object may reach here
                text = "?"
            out["repr"] = text
        return out

    def graph(self, value: Any) -> dict:
        """``value`` as a graph of its plain containers (lists, tuples, dicts, sets, at any
        depth, shared or containing themselves), without recursion: ``nodes[i] = [kind, items]``
        where an item is ``{"$": "ref", "i": j}`` or a leaf encoded as usual."""
        nodes: list[Any] = []
        index: dict[int, int] = {}
        keep: list[Any] = []  # every object seen stays alive: its id stays its own
        todo: list[Any] = []

        def ref(v: Any) -> Any:
            if type(v) not in (list, tuple) and issubclass(type(v), (list, tuple)):
                v = exact_builtin(v)  # a subclass: the items it holds
            if type(v) not in (list, tuple, dict, set, frozenset):
                return self.enc(v, 1)
            if id(v) not in index:
                if len(nodes) >= self.limits.items:
                    raise TransportLimit(f"a value of more than {self.limits.items} containers")
                index[id(v)] = len(nodes)
                nodes.append(None)
                keep.append(v)
                todo.append(v)
            return {"$": "ref", "i": index[id(v)]}

        root = ref(value)
        while todo:
            v = todo.pop()
            if type(v) is dict:
                items = [[ref(k), ref(x)] for k, x in v.items()]
            else:
                items = [ref(x) for x in v]
                if type(v) in (set, frozenset):
                    items.sort(key=lambda x: json.dumps(x, sort_keys=True))
            nodes[index[id(v)]] = [type(v).__name__, items]
        return {"$": "graph", "root": root, "nodes": nodes}


def exact_builtin(value: Any) -> Any:
    """A value of a subclass of ``str``, ``int``, ``float``, ``complex``, ``list``, ``tuple``
    or ``dict`` as the exact built-in value it holds (its items, shallowly), read through the
    built-in type's own slots so that no method of the subclass runs; :data:`SKIP` for any other
    value. ``bool`` cannot be subclassed; a ``dict`` keeps its keys' and values' own types."""
    t = type(value)
    if t is bool:
        return value
    for base, read in _EXACT:
        if issubclass(t, base):
            return read(value)
    return SKIP


_EXACT = (
    (str, str.__str__), (int, int.__int__), (float, float.__float__),
    (complex, lambda v: complex(complex.real.__get__(v), complex.imag.__get__(v))),
    (list, list.copy), (tuple, lambda v: tuple.__getnewargs__(v)[0]),
    (dict, lambda v: dict(list(dict.items(v)))),
)


def _builtin_iterator(value: Any) -> bool:
    import types

    return isinstance(value, (collections.abc.Iterator, types.GeneratorType)) and \
        type(value).__module__ in ("builtins", "itertools")


# --------------------------------------------------------------------------- decoding

class Decoder:
    """One decoding: its budget of items and array elements, and the tag table."""

    def __init__(self, codec: Codec) -> None:
        self.codec, self.limits, self.opaque = codec, codec.limits, codec.opaque
        self.items, self.elements = 0, 0

    # counted on what was received and parsed: past the bound, a value that is really there
    # (a limit of the judge's, :class:`TransportLimit`), not a claim

    def item(self) -> None:
        self.items += 1
        if self.items > self.limits.items:
            raise TransportLimit(f"value of more than {self.limits.items} items")

    def array(self, n: int) -> None:
        self.elements += n
        if self.elements > self.limits.elements:
            raise TransportLimit(f"value of more than {self.limits.elements} array elements "
                                 "in all")

    def dec(self, data: Any, depth: int) -> Any:
        if depth > self.limits.depth:  # parsed: the nesting is really there
            raise TransportLimit(f"value nested deeper than {self.limits.depth}")
        self.item()
        if data is None or type(data) in (bool, int, float):
            return data
        if type(data) is str:
            if len(data) > self.limits.string:
                raise TransportLimit(f"string of {len(data)} characters, over the "
                                     f"{self.limits.string} the judge's transport reads")
            return data
        if type(data) is list:
            return [self.dec(v, depth + 1) for v in data]
        if type(data) is not dict or not isinstance(data.get("$"), str):
            raise WireError(f"unexpected {type(data).__name__} in payload")
        tag = data["$"]
        handler = self.codec.decoders.get(tag)
        if handler is None:
            raise WireError(f"unknown tag {tag[:40]!r}")
        return handler(data, self, depth)

    def seq(self, data: dict, depth: int, kind: str) -> list:
        v = data.get("v")
        if type(v) is not list:
            raise WireError(f"{kind}: expected a list")
        return [self.dec(x, depth + 1) for x in v]

    def pairs(self, data: dict, depth: int) -> dict:
        out = {}
        for pair in self.seq(data, depth, data["$"]):
            if type(pair) is not list or len(pair) != 2:
                raise WireError("dict: expected [key, value] pairs")
            try:
                out[pair[0]] = pair[1]
            except TypeError:
                raise WireError("dict: unhashable key") from None
        return out


def hashable(items: list, kind: str) -> Any:
    try:
        return set(items) if kind == "set" else frozenset(items)
    except TypeError:
        raise WireError(f"{kind}: unhashable item") from None


def _int(data: dict, d: Decoder, depth: int) -> int:
    text = data.get("x")
    if not isinstance(text, str):
        raise WireError("int: expected a bounded hexadecimal string")
    if len(text) > d.limits.int_digits:
        raise TransportLimit(f"integer of {len(text)} hexadecimal digits, over the "
                             f"{d.limits.int_digits} the judge's transport reads")
    try:
        return int(text, 16)
    except ValueError:
        raise WireError("int: not hexadecimal") from None


def _complex(data: dict, d: Decoder, depth: int) -> complex:
    parts = d.seq(data, depth, "complex")
    if len(parts) != 2:
        raise WireError("complex: expected [real, imag]")
    return complex(number(parts[0]), number(parts[1]))


def _range(data: dict, d: Decoder, depth: int) -> range:
    v = data.get("v")
    if type(v) is not list or len(v) != 3 or not all(type(i) is int for i in v) or v[2] == 0:
        raise WireError("range: expected [start, stop, step]")
    return range(*v)


def _view(data: dict, d: Decoder, depth: int) -> Any:
    items = d.seq(data, depth, data["$"])
    if data["$"] == "values":
        return dict(enumerate(items)).values()
    if data["$"] == "items":
        if not all(type(p) is tuple and len(p) == 2 for p in items):
            raise WireError("items: expected pairs")
        return _dict(items).items()
    return _dict((k, None) for k in items).keys()


def _dict(pairs: Any) -> dict:
    try:
        return dict(pairs)
    except TypeError:
        raise WireError("dict view: unhashable key") from None


def _deque(data: dict, d: Decoder, depth: int) -> Any:
    maxlen = data.get("maxlen")
    if maxlen is not None and (type(maxlen) is not int or maxlen < 0):
        raise WireError("deque: bad maxlen")
    return collections.deque(d.seq(data, depth, "deque"), maxlen)


def _fraction(data: dict, d: Decoder, depth: int) -> Any:
    import fractions

    parts = d.seq(data, depth, "Fraction")
    if len(parts) != 2 or not all(type(p) is int for p in parts) or parts[1] == 0:
        raise WireError("Fraction: expected [numerator, denominator]")
    return fractions.Fraction(*parts)


def _decimal(data: dict, d: Decoder, depth: int) -> Any:
    import decimal

    text = data.get("v")
    if type(text) is not str or len(text) > d.limits.int_digits:
        raise WireError("Decimal: expected a bounded string")
    try:
        return decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise WireError("Decimal: not a number") from None


def _iter(data: dict, d: Decoder, depth: int) -> Items:
    return Items(d.seq(data, depth, "iter"), data.get("more") is True, d.limits.iter_items)


def _unsupported(data: dict, d: Decoder, depth: int) -> Any:
    text = str(data.get("type", "?"))[:300]
    if data.get("limit") is True:
        raise TransportLimit(text)
    if d.opaque:
        return Opaque(text[:200], str(data.get("repr", ""))[:2000])
    raise UnsupportedValue(text)


def _graph(data: dict, d: Decoder, depth: int) -> Any:
    nodes = data.get("nodes")
    if type(nodes) is not list or len(nodes) > d.limits.items:
        raise WireError("graph: bad nodes")
    for node in nodes:
        d.item()
        if (type(node) is not list or len(node) != 2 or node[0] not in _GRAPH_KINDS
                or type(node[1]) is not list):
            raise WireError("graph: bad node")
    objs: list[Any] = [_GRAPH_KINDS[k]() if k in ("list", "dict", "set") else None
                       for k, _ in nodes]
    built = [k in ("list", "dict", "set") for k, _ in nodes]

    def target(x: Any) -> int | None:
        if type(x) is dict and x.get("$") == "ref":
            i = x.get("i")
            if type(i) is not int or not 0 <= i < len(nodes):
                raise WireError("graph: bad reference")
            return i
        return None

    def value(x: Any) -> Any:
        i = target(x)
        if i is None:
            return d.dec(x, depth + 1)
        if not built[i]:
            raise WireError("graph: a cycle through immutable containers")
        return objs[i]

    def flat(node: list) -> list:
        return [y for x in node[1] for y in (x if node[0] == "dict" else [x])]

    for start in range(len(nodes)):  # immutables first, children before parents, no recursion
        stack, on_stack = [start], {start}
        while stack:
            i = stack[-1]
            if built[i]:
                on_stack.discard(stack.pop())
                continue
            waiting = {j for j in map(target, flat(nodes[i])) if j is not None and not built[j]}
            if waiting & on_stack:
                raise WireError("graph: a cycle through immutable containers")
            if waiting:
                stack.extend(waiting)
                on_stack |= waiting
                continue
            items = [value(x) for x in nodes[i][1]]
            objs[i] = tuple(items) if nodes[i][0] == "tuple" else hashable(items, "frozenset")
            built[i] = True
            on_stack.discard(stack.pop())
    for (kind, items), obj in zip(nodes, objs):
        if kind == "list":
            obj.extend(value(x) for x in items)
        elif kind == "set":
            obj.update(hashable([value(x) for x in items], "set"))
        elif kind == "dict":
            for pair in items:
                if type(pair) is not list or len(pair) != 2:
                    raise WireError("graph: bad dict item")
                try:
                    obj[value(pair[0])] = value(pair[1])
                except TypeError:
                    raise WireError("graph: unhashable key") from None
    root = target(data.get("root"))
    return objs[root] if root is not None else d.dec(data.get("root"), depth + 1)


DECODERS = {
    "int": _int,
    "float": lambda data, d, depth: number(data),
    "complex": _complex,
    "tuple": lambda data, d, depth: tuple(d.seq(data, depth, "tuple")),
    "set": lambda data, d, depth: hashable(d.seq(data, depth, "set"), "set"),
    "frozenset": lambda data, d, depth: hashable(d.seq(data, depth, "frozenset"), "frozenset"),
    "dict": lambda data, d, depth: d.pairs(data, depth),
    "bytes": lambda data, d, depth: unb64(data.get("b64"), d.limits),
    "bytearray": lambda data, d, depth: bytearray(unb64(data.get("b64"), d.limits)),
    "range": _range,
    "keys": _view, "values": _view, "items": _view,
    "deque": _deque,
    "Fraction": _fraction,
    "Decimal": _decimal,
    "iter": _iter,
    "graph": _graph,
    "unsupported": _unsupported,
}


# --------------------------------------------------------------------------- the codec

class Codec:
    """The core plus ``extensions`` (job modules with ``encode(encoder, value, depth)``, which
    returns :data:`SKIP` for a value not of its kinds, and a ``DECODERS`` table of tags)."""

    def __init__(self, extensions: tuple = (), limits: Limits = LIMITS,
                 opaque: bool = False) -> None:
        self.extensions, self.limits, self.opaque = tuple(extensions), limits, opaque
        self.decoders = dict(DECODERS)
        for ext in self.extensions:
            self.decoders.update(ext.DECODERS)

    def encode(self, value: Any, fingerprint: bool = False) -> Any:
        """Tagged data for ``value`` (never raises: what cannot cross is ``unsupported``)."""
        enc = Encoder(self, fingerprint)
        try:
            try:
                return enc.enc(value, 0)
            except (_TooDeep, RecursionError):
                return enc.graph(value)
        except UnsupportedValue as exc:
            return enc.unsupported(value, exc)
        except RecursionError:
            return enc.unsupported(value, UnsupportedValue("a value nested too deeply"))

    def fingerprint(self, value: Any) -> str:
        """A comparable text of ``value`` (equal for equal arguments across processes)."""
        return json.dumps(self.encode(value, fingerprint=True), sort_keys=True)

    def dumps(self, value: Any) -> str:
        return json.dumps(self.encode(value), allow_nan=False)

    def decode(self, data: Any) -> Any:
        """The value of tagged data: :class:`WireError` when malformed or over a limit,
        :class:`UnsupportedValue` for a value the sender could not encode."""
        try:
            return Decoder(self).dec(data, 0)
        except RecursionError:
            raise WireError("nested too deeply") from None
        except (WireError, UnsupportedValue):
            raise
        except Exception as exc:  # total: whatever the data, malformed, never a crash
            raise WireError(f"{type(exc).__name__}: {str(exc)[:200]}") from None

    def loads(self, text: Any) -> Any:
        """``decode(json.loads(text))`` with the byte limit applied first."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise WireError("expected JSON text")
        if len(text) > self.limits.bytes:
            raise WireError(f"payload of {len(text)} bytes is over {self.limits.bytes}")
        try:
            data = json.loads(text)
        except RecursionError:
            raise WireError("JSON nested too deeply") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise WireError(f"not JSON: {str(exc)[:120]}") from None
        return self.decode(data)
