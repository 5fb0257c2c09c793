"""Safe serialisation of the values that cross between ``check()`` and the candidate.

``encode(value)`` turns a value into tagged JSON data (``json.dumps``-able); ``decode(data)``
rebuilds real objects from it. Circuits travel as QPY, arrays as ``np.save`` bytes (read back
with ``allow_pickle=False``), quantum-info objects as their arrays, figures as PNG; plain
numbers, strings, lists, tuples, dicts and sets as JSON. Nothing is ever unpickled.

``decode`` is the defensive side: it runs in the trusted check process on bytes the candidate
produced, so every claim is bounded (:class:`Bounds`: bytes, nesting depth, items, array
elements, qubits, instructions) and anything malformed raises :class:`PayloadError`. A value the
encoder cannot carry becomes ``{"$": "unsupported", "type": ...}``; decoding it raises
:class:`UnsupportedValue`. ``fingerprint(value)`` is a comparable text of a value (circuits by
their structure, since QPY embeds random parameter UUIDs).

This module is self-contained (standard library, numpy and qiskit imported lazily): its source
text is sent into the sandbox jobs, which cannot import this package.

>>> decode(encode({"a": (1, 2.5, None), "b": [True, "x", 1j]}))
{'a': (1, 2.5, None), 'b': [True, 'x', 1j]}
>>> try:
...     decode({"$": "tuple", "v": 3})
... except PayloadError as exc:
...     print(exc)
tuple: expected a list
"""

from __future__ import annotations

import base64
import collections.abc
import io
import json
import math
import struct
from dataclasses import dataclass
from typing import Any


class PayloadError(ValueError):
    """A payload that is malformed or over a bound."""


class UnsupportedValue(ValueError):
    """A value of a type that cannot cross safely (its type name is the message)."""


@dataclass(frozen=True)
class Bounds:
    bytes: int = 48 * 1024 * 1024
    depth: int = 48
    items: int = 1_000_000
    elements: int = 1 << 22
    qubits: int = 1024
    clbits: int = 1 << 16
    instructions: int = 2_000_000
    string: int = 1 << 20
    int_digits: int = 1 << 20  # hexadecimal digits (no decimal: str(int) is capped)
    image_pixels: int = 16_000_000


BOUNDS = Bounds()
_PLAIN_DTYPES = set("biufc")
#: array dtypes that cross (npy without pickles): numbers, strings, bytes, dates, durations
_ARRAY_DTYPES = set("biufcUSMm")
#: items of a returned iterator carried (more: the check reading past them is a judge limit)
ITER_ITEMS = 500_000
_MAX_DIM = 32


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: Any, bounds: Bounds) -> bytes:
    if not isinstance(text, str) or len(text) > bounds.bytes * 4 // 3 + 4:
        raise PayloadError("binary field: expected a bounded base64 string")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as exc:
        raise PayloadError(f"binary field: bad base64 ({exc})") from None


def _type_name(value: Any) -> str:
    t = type(value)
    return f"{t.__module__}.{t.__qualname__}"


# --------------------------------------------------------------------------- encoding

def _npy(array: Any) -> str:
    import numpy as np

    buf = io.BytesIO()
    np.save(buf, np.asarray(array, order="C"), allow_pickle=False)  # a 0-d array stays 0-d
    return _b64(buf.getvalue())


class TransportLimit(UnsupportedValue):
    """A value of a supported kind that the transport cannot carry (e.g. QPY cannot read it
    back): a limit of the judge, not the program's fault."""


class _MetadataJSON(json.JSONEncoder):
    """Circuit metadata as QPY writes it, with numpy values as their Python values (what
    ``==`` in the check would see anyway) and anything else as its text."""

    def default(self, o: Any) -> Any:
        if hasattr(o, "tolist"):
            return o.tolist()
        return str(o)


#: definitions nested deeper than this are carried flattened (QPY reads nesting recursively:
#: about 100 levels exhaust the recursion limit of the check's process)
_NESTED_DEFINITIONS = 8


def _dump_load(circuit: Any) -> bytes:
    """QPY bytes of ``circuit``, checked to read back (what the check cannot read is not sent)."""
    from qiskit import qpy

    buf = io.BytesIO()
    qpy.dump(circuit, buf, metadata_serializer=_MetadataJSON)
    qpy.load(io.BytesIO(buf.getvalue()))
    return buf.getvalue()


class _Portable:
    """Makes a circuit QPY can carry with the same matrix: each instruction QPY cannot read back
    (or of the program's own class named like one of Qiskit's, which QPY would load as Qiskit's)
    becomes a plain gate/instruction with its name, parameters, label and definition, which is
    how QPY loads any custom class; definitions nested deeper than ``_NESTED_DEFINITIONS`` are
    flattened (inlined, global phases added) instead of nested."""

    def __init__(self) -> None:
        from qiskit import circuit as circuit_mod
        from qiskit.circuit import controlflow, library

        self.mods = (library, circuit_mod, controlflow)
        self.verdicts: dict[int, bool] = {}
        self.keep: list[Any] = []  # the ops judged, so that their ids stay theirs

    def _fine(self, op: Any) -> bool:
        """Whether QPY carries ``op`` as itself."""
        from qiskit import QuantumCircuit

        key = id(op)
        if key not in self.verdicts:
            self.keep.append(op)
            name = type(op).__name__
            qiskits = any(getattr(mod, name, None) is type(op) for mod in self.mods)
            ok = qiskits or not any(hasattr(mod, name) for mod in self.mods)
            if ok:
                holder = QuantumCircuit(op.num_qubits, op.num_clbits)
                try:
                    holder.append(op, range(op.num_qubits), range(op.num_clbits))
                    _dump_load(holder)
                except Exception:
                    ok = False
            self.verdicts[key] = ok
        return self.verdicts[key]

    def _leaf(self, op: Any) -> bool:
        """Whether ``op`` is carried as itself, shallow: one of Qiskit's own classes (not a
        generic gate, instruction or controlled/annotated wrapper around one) or undefined."""
        generic = {"Gate", "Instruction", "ControlledGate", "AnnotatedOperation"}
        if not self._fine(op):
            return False
        return type(op).__name__ not in generic or getattr(op, "definition", None) is None

    def circuit(self, circuit: Any, depth: int = 0, strict: bool = False) -> Any:
        """``strict``: keep only leaves; every other instruction gets a flattened definition."""
        out = circuit.copy_empty_like()
        for inst in circuit.data:
            op = inst.operation
            if not (self._leaf(op) if strict else self._fine(op)):
                op = self._plain(op, _NESTED_DEFINITIONS if strict else depth)
            out._append(inst.replace(operation=op))
        return out

    def _plain(self, op: Any, depth: int) -> Any:
        from qiskit import QuantumCircuit
        from qiskit.circuit import Gate, Instruction

        try:
            definition = op.definition
        except Exception:
            definition = None
        if definition is not None:
            definition = (self.circuit(definition, depth + 1) if depth < _NESTED_DEFINITIONS
                          else self.flat(definition))
        elif isinstance(op, Gate):
            try:
                from qiskit.circuit.library import UnitaryGate

                definition = QuantumCircuit(op.num_qubits)
                definition.append(UnitaryGate(op.to_matrix(), check_input=False),
                                  range(op.num_qubits))
            except Exception:
                definition = None
        label = op.label if isinstance(getattr(op, "label", None), str) else None
        plain = None
        for params in (list(op.params), []):
            try:
                plain = (Gate(op.name, op.num_qubits, params, label=label) if isinstance(op, Gate)
                         else Instruction(op.name, op.num_qubits, op.num_clbits, params,
                                          label=label))
                break
            except Exception:
                continue
        plain.definition = definition
        return plain

    def flat(self, circuit: Any) -> Any:
        """``circuit`` with every instruction QPY cannot carry replaced by its definition's, to
        any depth, without recursion."""
        out = circuit.copy_empty_like()
        stack = [(circuit, list(out.qubits), list(out.clbits), 0)]
        while stack:
            circ, qmap, cmap, pos = stack.pop()
            if pos == 0 and circ is not circuit:
                out.global_phase += circ.global_phase
            for k in range(pos, len(circ.data)):
                inst = circ.data[k]
                qs = [qmap[circ.find_bit(q).index] for q in inst.qubits]
                cs = [cmap[circ.find_bit(c).index] for c in inst.clbits]
                op = inst.operation
                try:
                    definition = None if self._leaf(op) else op.definition
                except Exception:
                    definition = None
                if definition is None:
                    if not self._fine(op):
                        op = self._plain(op, _NESTED_DEFINITIONS)
                    out._append(inst.replace(operation=op, qubits=qs, clbits=cs))
                    continue
                stack.append((circ, qmap, cmap, k + 1))
                stack.append((definition, qs, cs, 0))
                break
        return out


def _qpy(circuit: Any) -> str:
    try:
        return _b64(_dump_load(circuit))
    except Exception as exc:
        error = exc
    for strict in (False, True):
        try:
            return _b64(_dump_load(_Portable().circuit(circuit, strict=strict)))
        except Exception:
            pass
    raise TransportLimit(f"qiskit.circuit.QuantumCircuit that QPY cannot carry "
                         f"({type(error).__name__}: {str(error)[:200]})") from None


def _circuit_text(circuit: Any) -> str:
    """A structural description of a circuit (for fingerprints)."""
    rows = [f"{circuit.num_qubits}q{circuit.num_clbits}c {circuit.global_phase!s} "
            f"{[(r.name, r.size) for r in circuit.qregs]} {[(r.name, r.size) for r in circuit.cregs]}"]
    for inst in circuit.data:
        op = inst.operation
        params = []
        for p in getattr(op, "params", []):
            params.append(p.tolist() if hasattr(p, "tolist") else str(p))
        rows.append(f"{op.name} {params} {[circuit.find_bit(q).index for q in inst.qubits]} "
                    f"{[circuit.find_bit(c).index for c in inst.clbits]}")
    return "\n".join(rows)


def _qinfo(value: Any, fp: bool) -> dict | None:
    """Quantum-info objects by their arrays, or ``None`` when ``value`` is none of them."""
    try:
        from qiskit.quantum_info import (
            Choi,
            Clifford,
            DensityMatrix,
            Operator,
            Pauli,
            ScalarOp,
            SparsePauliOp,
            StabilizerState,
            Statevector,
            SuperOp,
        )
    except ImportError:  # pragma: no cover - qiskit is always installed where this runs
        return None
    if isinstance(value, (Statevector, DensityMatrix)):
        return {"$": type(value).__name__, "data": _enc(value.data, fp, 0),
                "dims": [int(d) for d in value.dims()]}
    if isinstance(value, (Operator, Choi, SuperOp)):
        return {"$": type(value).__name__, "data": _enc(value.data, fp, 0),
                "input_dims": [int(d) for d in value.input_dims()],
                "output_dims": [int(d) for d in value.output_dims()]}
    if isinstance(value, ScalarOp):
        return {"$": "ScalarOp", "dims": [int(d) for d in value.input_dims()],
                "coeff": _enc(complex(value.coeff), fp, 0)}
    if isinstance(value, SparsePauliOp):
        return {"$": "SparsePauliOp", "x": _enc(value.paulis.x, fp, 0),
                "z": _enc(value.paulis.z, fp, 0), "phase": _enc(value.paulis.phase, fp, 0),
                "coeffs": _enc(value.coeffs, fp, 0)}
    if isinstance(value, Pauli):
        return {"$": "Pauli", "label": value.to_label()}
    if isinstance(value, Clifford):
        return {"$": "Clifford", "tableau": _enc(value.tableau, fp, 0)}
    if isinstance(value, StabilizerState):
        return {"$": "StabilizerState", "tableau": _enc(value.clifford.tableau, fp, 0)}
    return None


_VIEWS = {type({}.keys()): "keys", type({}.values()): "values", type({}.items()): "items"}


_END = object()


class IteratorLimit(BaseException):
    """The check read a returned iterator past the items carried (``ITER_ITEMS``): a limit of
    the transport; a ``BaseException`` so that the check's ``except Exception`` cannot hide it."""


class _Items:
    """A returned iterator as the check sees it: the items the program's iterator yielded."""

    def __init__(self, items: list, more: bool) -> None:
        self._it, self._more = iter(items), more

    def __iter__(self) -> _Items:
        return self

    def __next__(self) -> Any:
        for item in self._it:
            return item
        if self._more:
            raise IteratorLimit(f"an iterator of more than {ITER_ITEMS} items")
        raise StopIteration


def _is_iterator(value: Any) -> bool:
    import collections.abc
    import types

    return isinstance(value, (collections.abc.Iterator, types.GeneratorType)) and \
        type(value).__module__ in ("builtins", "itertools")


def _bounded(items: Any) -> list:
    out = []
    for v in items:
        if len(out) >= BOUNDS.items:
            raise TransportLimit(f"an iterable of more than {BOUNDS.items} items")
        out.append(v)
    return out


def _enc_iter(value: Any, fp: bool, depth: int) -> dict:
    import itertools

    items = list(itertools.islice(value, ITER_ITEMS))
    more = len(items) == ITER_ITEMS and next(value, _END) is not _END
    return {"$": "iter", "v": [_enc(v, fp, depth + 1) for v in items], "more": more}


def _enc(value: Any, fp: bool, depth: int) -> Any:
    if depth > BOUNDS.depth:
        raise _TooDeep("a value nested deeper than the transport allows")
    if value is None or type(value) in (bool, str):
        return value
    if type(value) is int:
        return value if abs(value) < 2**53 else {"$": "int", "x": format(value, "x")}
    if type(value) is float:
        return value if math.isfinite(value) else {"$": "float", "v": repr(value)}
    if type(value) is complex:
        return {"$": "complex", "v": [_enc(value.real, fp, depth), _enc(value.imag, fp, depth)]}
    if isinstance(value, (list, tuple, set, frozenset)) and type(value).__module__ == "builtins":
        items = [_enc(v, fp, depth + 1) for v in value]
        if type(value) is list:
            return items
        if type(value) in (set, frozenset):
            items = sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
        return {"$": type(value).__name__, "v": items}
    if isinstance(value, (list, tuple)):  # a namedtuple or list subclass: its items
        return _enc(list(value) if isinstance(value, list) else tuple(value), fp, depth)
    if type(value) in (bytes, bytearray):
        return {"$": type(value).__name__, "b64": _b64(bytes(value))}
    if type(value) is range:
        return {"$": "range", "v": [value.start, value.stop, value.step]}
    if type(value) in _VIEWS:
        return {"$": _VIEWS[type(value)], "v": [_enc(v, fp, depth + 1)
                                               for v in _bounded(value)]}
    if _is_iterator(value) and not fp:  # a generator, map, zip...: its items, as an iterator
        # (never in a fingerprint: that would consume the items before the value is sent)
        return _enc_iter(value, fp, depth)
    if isinstance(value, dict):
        kind = type(value).__name__ if type(value).__name__ in ("Counts", "PropertySet") else "dict"
        pairs = [[_enc(k, fp, depth + 1), _enc(v, fp, depth + 1)] for k, v in value.items()]
        return {"$": kind, "v": pairs}
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if np is not None:
        if isinstance(value, np.generic) and value.dtype.kind in _ARRAY_DTYPES:
            item = value.item()
            if value.dtype.kind in _PLAIN_DTYPES and type(item) in (bool, int, float, complex):
                return {"$": "npscalar", "dtype": value.dtype.str, "v": _enc(item, fp, depth)}
            return {"$": "np0d", "npy": _npy(np.asarray(value))}  # a date, a long double...
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in _ARRAY_DTYPES or value.dtype.hasobject:
                raise UnsupportedValue(f"numpy array of dtype {value.dtype}")
            if fp and value.dtype.kind in _PLAIN_DTYPES:
                return {"$": "ndarray", "shape": list(value.shape), "dtype": value.dtype.str,
                        "v": _enc(value.tolist(), False, depth)}
            return {"$": "ndarray", "npy": _npy(value)}
    for base in (str, int, float, complex):  # subclasses travel as their plain value
        if isinstance(value, base) and not isinstance(value, bool):
            return _enc(base(value), fp, depth)
    return _enc_qiskit(value, fp, depth)


def _enc_qiskit(value: Any, fp: bool, depth: int) -> Any:
    from qiskit import QuantumCircuit
    from qiskit.circuit import Instruction

    if isinstance(value, QuantumCircuit):
        out = {"$": "circuit", "cls": _type_name(value)}
        out.update({"text": _circuit_text(value)} if fp else {"qpy": _qpy(value)})
        return out
    if isinstance(value, Instruction):
        holder = QuantumCircuit(value.num_qubits, value.num_clbits)
        holder.append(value, range(value.num_qubits), range(value.num_clbits))
        out = {"$": "instruction"}
        out.update({"text": _circuit_text(holder)} if fp else {"qpy": _qpy(holder)})
        return out
    q = _qinfo(value, fp)
    if q is not None:
        return q
    name = _type_name(value)
    if name == "qiskit._accelerate.circuit.DAGCircuit" or name.endswith("DAGCircuit"):
        from qiskit.converters import dag_to_circuit

        return {"$": "dag", "circuit": _enc(dag_to_circuit(value), fp, depth + 1)}
    if name == "qiskit.primitives.containers.bit_array.BitArray":
        return {"$": "BitArray", "array": _enc(value.array, fp, depth + 1),
                "num_bits": int(value.num_bits)}
    if name == "qiskit.transpiler.coupling.CouplingMap":
        return {"$": "CouplingMap", "edges": [[int(a), int(b)] for a, b in value.get_edges()],
                "nodes": [int(n) for n in value.physical_qubits]}
    if type(value).__name__.startswith("Fake") and ".fake_provider." in name:
        return {"$": "fake_backend", "name": type(value).__name__}
    if name == "qiskit.transpiler.target.Target":
        return _enc_target(value, fp, depth)
    if name == "qiskit.quantum_info.operators.dihedral.dihedral.CNOTDihedral":
        return {"$": "CNOTDihedral", "circuit": _enc(value.to_circuit(), fp, depth + 1)}
    if name == "qiskit_aer.noise.noise_model.NoiseModel":
        return _enc_noise(value, fp, depth)
    if name == "qiskit.primitives.containers.primitive_result.PrimitiveResult":
        return {"$": "PrimitiveResult", "pubs": [_enc_pub(p, fp, depth + 1) for p in value],
                "metadata": _lenient(value.metadata, fp, depth + 1)}
    if name.endswith(("PubResult", ".SamplerPubResult")):
        return _enc_pub(value, fp, depth)
    if _is_job(value):
        return {"$": "job", "result": _enc(value.result(), fp, depth + 1)}
    if name == "matplotlib.figure.Figure":
        buf = io.BytesIO()
        value.savefig(buf, format="png", dpi=50)
        return {"$": "figure", "png": "" if fp else _b64(buf.getvalue())}
    if name == "collections.deque":
        return {"$": "deque", "v": [_enc(v, fp, depth + 1) for v in _bounded(value)],
                "maxlen": value.maxlen}
    if name == "fractions.Fraction":
        return {"$": "Fraction", "v": [_enc(value.numerator, fp, depth),
                                       _enc(value.denominator, fp, depth)]}
    if name == "decimal.Decimal":
        return {"$": "Decimal", "v": str(value)}
    if not fp and isinstance(value, collections.abc.Iterator):  # any other iterator: its items
        return _enc_iter(value, fp, depth)
    raise UnsupportedValue(name)


def _lenient(value: Any, fp: bool, depth: int) -> Any:
    """Metadata: carried when it can be, else dropped (``{}``)."""
    try:
        return _enc(value, fp, depth)
    except UnsupportedValue:
        return {"$": "dict", "v": []}


def _enc_noise(value: Any, fp: bool, depth: int) -> dict:
    """A noise model by its parts: basis gates, each quantum error as its circuits (QPY) and
    probabilities, readout errors as their matrices, relaxation passes on delays by their
    parameters, its target by its presence: on delays the pass reads durations from the
    instructions (``to_dict()`` does not read back for relaxation errors)."""
    from qiskit.circuit import Delay
    from qiskit_aer.noise.passes import RelaxationNoisePass

    def error(e: Any) -> dict:
        return {"circuits": [_enc(c, fp, depth + 2) for c in e.circuits],
                "probs": [float(p) for p in e.probabilities]}

    passes = []
    for p in value._custom_noise_passes:
        if type(p) is not RelaxationNoisePass or tuple(p._ops) != (Delay,):
            raise TransportLimit(f"a NoiseModel with a custom pass {type(p).__name__}")
        passes.append({"t1s": _enc(p._t1s, fp, depth + 1), "t2s": _enc(p._t2s, fp, depth + 1),
                       "p1s": _enc(p._p1s, fp, depth + 1), "dt": _enc(p._dt, fp, depth + 1),
                       "target": p._target is not None})
    readout = value._default_readout_error
    return {"$": "NoiseModel", "basis": [str(b) for b in value.basis_gates],
            "default": [[str(n), error(e)] for n, e in value._default_quantum_errors.items()],
            "local": [[str(n), [[[int(q) for q in qs], error(e)] for qs, e in errs.items()]]
                      for n, errs in value._local_quantum_errors.items()],
            "readout": None if readout is None else _enc(readout.probabilities, fp, depth + 1),
            "readout_local": [[[int(q) for q in qs], _enc(e.probabilities, fp, depth + 1)]
                              for qs, e in value._local_readout_errors.items()],
            "passes": passes}


def _enc_pub(pub: Any, fp: bool, depth: int) -> dict:
    data = pub.data
    fields = [[k, _enc(v, fp, depth + 1)] for k, v in data.items()]
    return {"$": "PubResult", "cls": type(pub).__name__, "shape": [int(d) for d in data.shape],
            "fields": fields, "metadata": _lenient(pub.metadata, fp, depth + 1)}


def _enc_target(target: Any, fp: bool, depth: int) -> dict:
    """A target by its instructions and their properties (duration, error) per qargs."""
    entries = []
    for name in target.operation_names:
        op = target.operation_from_name(name)
        if isinstance(op, type) and op.__module__.startswith("qiskit.circuit.controlflow"):
            op_data = {"$": "controlflow", "name": op.__name__}
        elif isinstance(op, type):
            raise UnsupportedValue("a Target with a variadic (class) instruction")
        else:
            op_data = _enc(op, fp, depth + 1)
        props = []
        for qargs, p in target[name].items():
            props.append([None if qargs is None else [int(q) for q in qargs],
                          None if p is None else [_enc(p.duration, fp, depth + 1),
                                                  _enc(p.error, fp, depth + 1)]])
        entries.append([name, op_data, props])
    return {"$": "Target", "num_qubits": target.num_qubits, "dt": _enc(target.dt, fp, depth + 1),
            "entries": entries}


def _is_job(value: Any) -> bool:
    try:
        from qiskit.primitives.base.base_primitive_job import BasePrimitiveJob
    except ImportError:  # pragma: no cover
        return False
    return isinstance(value, BasePrimitiveJob)


class _TooDeep(UnsupportedValue):
    """A value nested deeper than ``Bounds.depth`` (or containing itself): sent as a graph."""


_GRAPH_KINDS = {"list": list, "tuple": tuple, "dict": dict, "set": set, "frozenset": frozenset}


def _graph(value: Any, fp: bool) -> dict:
    """``value`` as a graph of its plain containers (lists, tuples, dicts, sets, at any depth,
    shared or containing themselves), without recursion: ``nodes[i] = [kind, items]`` where an
    item is ``{"$": "ref", "i": j}`` or a leaf encoded as usual."""
    nodes: list[Any] = []
    index: dict[int, int] = {}
    keep: list[Any] = []  # every object seen stays alive: its id stays its own
    todo: list[Any] = []

    def ref(v: Any) -> Any:
        if isinstance(v, (list, tuple)) and type(v) not in (list, tuple):
            v = list(v) if isinstance(v, list) else tuple(v)  # a subclass: its items
        if type(v) not in (list, tuple, dict, set, frozenset):
            return _enc(v, fp, 1)
        if id(v) not in index:
            if len(nodes) >= BOUNDS.items:
                raise TransportLimit(f"a value of more than {BOUNDS.items} containers")
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


def _graph_dec(data: dict, budget: _Budget, depth: int) -> Any:
    nodes = data.get("nodes")
    if type(nodes) is not list or len(nodes) > budget.bounds.items:
        raise PayloadError("graph: bad nodes")
    for node in nodes:
        budget.item()
        if (type(node) is not list or len(node) != 2 or node[0] not in _GRAPH_KINDS
                or type(node[1]) is not list):
            raise PayloadError("graph: bad node")
    objs: list[Any] = [_GRAPH_KINDS[k]() if k in ("list", "dict", "set") else None
                       for k, _ in nodes]
    built = [k in ("list", "dict", "set") for k, _ in nodes]

    def target(x: Any) -> int | None:
        if type(x) is dict and x.get("$") == "ref":
            i = x.get("i")
            if type(i) is not int or not 0 <= i < len(nodes):
                raise PayloadError("graph: bad reference")
            return i
        return None

    def value(x: Any) -> Any:
        i = target(x)
        if i is None:
            return _dec(x, budget, depth + 1)
        if not built[i]:
            raise PayloadError("graph: a cycle through immutable containers")
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
                raise PayloadError("graph: a cycle through immutable containers")
            if waiting:
                stack.extend(waiting)
                on_stack |= waiting
                continue
            items = [value(x) for x in nodes[i][1]]
            objs[i] = tuple(items) if nodes[i][0] == "tuple" else _hashable(items, "frozenset")
            built[i] = True
            on_stack.discard(stack.pop())
    for (kind, items), obj in zip(nodes, objs, strict=True):
        if kind == "list":
            obj.extend(value(x) for x in items)
        elif kind == "set":
            obj.update(_hashable([value(x) for x in items], "set"))
        elif kind == "dict":
            for pair in items:
                if type(pair) is not list or len(pair) != 2:
                    raise PayloadError("graph: bad dict item")
                try:
                    obj[value(pair[0])] = value(pair[1])
                except TypeError:
                    raise PayloadError("graph: unhashable key") from None
    root = target(data.get("root"))
    return objs[root] if root is not None else _dec(data.get("root"), budget, depth + 1)


def encode(value: Any, *, fingerprint_mode: bool = False) -> Any:
    """Tagged JSON data for ``value``; unsupported types become an ``unsupported`` tag."""
    try:
        try:
            return _enc(value, fingerprint_mode, 0)
        except (_TooDeep, RecursionError):
            return _graph(value, fingerprint_mode)
    except TransportLimit as exc:
        return {"$": "unsupported", "type": str(exc), "limit": True}
    except UnsupportedValue as exc:
        return {"$": "unsupported", "type": str(exc)}
    except RecursionError:
        return {"$": "unsupported", "type": "a value nested too deeply"}


def fingerprint(value: Any) -> str:
    """A comparable text of ``value`` (equal for equal arguments across processes)."""
    return json.dumps(encode(value, fingerprint_mode=True), sort_keys=True)


def dumps(value: Any) -> str:
    return json.dumps(encode(value), allow_nan=False)


# --------------------------------------------------------------------------- decoding

class _Budget:
    def __init__(self, bounds: Bounds):
        self.bounds, self.items, self.elements = bounds, 0, 0

    def item(self) -> None:
        self.items += 1
        if self.items > self.bounds.items:
            raise PayloadError(f"more than {self.bounds.items} items")

    def array(self, n: int) -> None:
        self.elements += n
        if self.elements > self.bounds.elements:
            raise PayloadError(f"more than {self.bounds.elements} array elements in all")


def _check_npy_header(data: bytes, bounds: Bounds) -> None:
    import numpy as np
    from numpy.lib import format as npf

    buf = io.BytesIO(data)
    try:
        version = npf.read_magic(buf)
        if version == (1, 0):
            shape, _order, dtype = npf.read_array_header_1_0(buf)
        elif version == (2, 0):
            shape, _order, dtype = npf.read_array_header_2_0(buf)
        else:
            raise PayloadError(f"array: npy version {version} not accepted")
    except PayloadError:
        raise
    except Exception as exc:
        raise PayloadError(f"array: bad npy header ({type(exc).__name__}: {exc})") from None
    if dtype.kind not in _ARRAY_DTYPES or dtype.hasobject:
        raise PayloadError(f"array: dtype {dtype} not accepted")
    if len(shape) > _MAX_DIM or any(d < 0 for d in shape):
        raise PayloadError("array: bad shape")
    n = int(np.prod(shape, dtype=object)) if shape else 1
    if n > bounds.elements:
        raise PayloadError(f"array: {n} elements, over {bounds.elements}")


def _ndarray(data: Any, budget: _Budget) -> Any:
    import numpy as np

    if not isinstance(data, dict) or data.get("$") != "ndarray" or "npy" not in data:
        raise PayloadError("expected an array")
    raw = _unb64(data["npy"], budget.bounds)
    _check_npy_header(raw, budget.bounds)
    try:
        arr = np.load(io.BytesIO(raw), allow_pickle=False)
    except Exception as exc:
        raise PayloadError(f"array: {type(exc).__name__}: {exc}") from None
    if not isinstance(arr, np.ndarray) or arr.dtype.kind not in _ARRAY_DTYPES:
        raise PayloadError("array: not a plain array")
    budget.array(arr.size)
    return arr


_QPY_FILE = "!6sBBBBQc"
_QPY_CIRCUIT = "!H1cHIIQIQI"


def _check_qpy_header(raw: bytes, bounds: Bounds) -> None:
    from qiskit.qpy import QPY_VERSION

    head = struct.calcsize(_QPY_FILE)
    if len(raw) < head + 9:
        raise PayloadError("circuit: QPY data too short")
    preface, version, _ma, _mi, _pa, programs, _sym = struct.unpack_from(_QPY_FILE, raw, 0)
    if preface != b"QISKIT" or version != QPY_VERSION or programs != 1 or version < 16:
        raise PayloadError(f"circuit: QPY header not accepted (version {version}, "
                           f"{programs} programs; expected version {QPY_VERSION}, 1 program)")
    if raw[head:head + 1] != b"q":
        raise PayloadError("circuit: QPY program is not a circuit")
    (offset,) = struct.unpack_from("!Q", raw, head + 1)
    if offset < head + 9 or offset + struct.calcsize(_QPY_CIRCUIT) > len(raw):
        raise PayloadError("circuit: QPY program offset out of range")
    (name_size, _gt, phase_size, nq, nc, meta, nreg, ninst, nvars) = struct.unpack_from(
        _QPY_CIRCUIT, raw, offset)
    if nq > bounds.qubits or nc > bounds.clbits or ninst > bounds.instructions:
        raise PayloadError(f"circuit: claims {nq} qubits, {nc} clbits, {ninst} instructions "
                           f"(bounds {bounds.qubits}, {bounds.clbits}, {bounds.instructions})")
    if max(name_size, phase_size, meta) > len(raw) or nreg > nq + nc + 64 or nvars > 1 << 16:
        raise PayloadError("circuit: QPY header claims more than the data holds")


def _circuit(data: dict, budget: _Budget) -> Any:
    from qiskit import QuantumCircuit, qpy

    raw = _unb64(data.get("qpy"), budget.bounds)
    _check_qpy_header(raw, budget.bounds)
    try:
        circuits = qpy.load(io.BytesIO(raw))
    except Exception as exc:
        raise PayloadError(f"circuit: QPY not readable ({type(exc).__name__}: {exc})") from None
    if len(circuits) != 1 or type(circuits[0]) is not QuantumCircuit:
        raise PayloadError("circuit: expected exactly one circuit")
    qc = circuits[0]
    if qc.num_qubits > budget.bounds.qubits or len(qc.data) > budget.bounds.instructions:
        raise PayloadError("circuit: over the bounds")
    budget.item()
    return qc


def _int(text: Any, bounds: Bounds) -> int:
    if not isinstance(text, str) or len(text) > bounds.int_digits:
        raise PayloadError("int: expected a bounded hexadecimal string")
    try:
        return int(text, 16)
    except ValueError:
        raise PayloadError("int: not hexadecimal") from None


def _float(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if isinstance(v, dict) and v.get("$") == "float" and v.get("v") in ("nan", "inf", "-inf"):
            return float(v["v"])
        raise PayloadError("expected a number")
    return float(v)


def _dims(v: Any) -> tuple[int, ...]:
    if not isinstance(v, list) or len(v) > 64 or not all(
            type(d) is int and 0 < d <= 1 << 16 for d in v):
        raise PayloadError("bad dims")
    return tuple(v)


def _png_figure(raw: bytes, bounds: Bounds) -> Any:
    if raw[:8] != b"\x89PNG\r\n\x1a\n" or len(raw) < 24 or raw[12:16] != b"IHDR":
        raise PayloadError("figure: not a PNG image")
    width, height = struct.unpack(">II", raw[16:24])
    if width * height > bounds.image_pixels or not width or not height:
        raise PayloadError(f"figure: {width}x{height} pixels is over the bound")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import matplotlib.pyplot as plt

    try:
        image = mpimg.imread(io.BytesIO(raw), format="png")
    except Exception as exc:
        raise PayloadError(f"figure: PNG not readable ({type(exc).__name__})") from None
    fig = plt.figure(figsize=(width / 50, height / 50), dpi=50)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.imshow(image)
    ax.set_axis_off()
    return fig


def _dec(data: Any, budget: _Budget, depth: int) -> Any:
    if depth > budget.bounds.depth:
        raise PayloadError(f"nested deeper than {budget.bounds.depth}")
    budget.item()
    if data is None or type(data) in (bool, int, float):
        return data
    if type(data) is str:
        if len(data) > budget.bounds.string:
            raise PayloadError("string over the bound")
        return data
    if type(data) is list:
        return [_dec(v, budget, depth + 1) for v in data]
    if type(data) is not dict or not isinstance(data.get("$"), str):
        raise PayloadError(f"unexpected {type(data).__name__} in payload")
    tag = data["$"]
    handler = _DECODERS.get(tag)
    if handler is None:
        if tag == "unsupported":
            cls = TransportLimit if data.get("limit") is True else UnsupportedValue
            raise cls(str(data.get("type", "?"))[:300])
        raise PayloadError(f"unknown tag {tag[:40]!r}")
    return handler(data, budget, depth)


def _seq(data: dict, budget: _Budget, depth: int, kind: str) -> list:
    v = data.get("v")
    if type(v) is not list:
        raise PayloadError(f"{kind}: expected a list")
    return [_dec(x, budget, depth + 1) for x in v]


def _dec_dict(data: dict, budget: _Budget, depth: int) -> dict:
    out = {}
    for pair in _seq(data, budget, depth, data["$"]):
        if type(pair) is not list or len(pair) != 2:
            raise PayloadError("dict: expected [key, value] pairs")
        try:
            out[pair[0]] = pair[1]
        except TypeError:
            raise PayloadError("dict: unhashable key") from None
    if data["$"] == "Counts":
        from qiskit.result import Counts

        try:
            return Counts(out)
        except Exception as exc:
            raise PayloadError(f"Counts: {type(exc).__name__}") from None
    if data["$"] == "PropertySet":
        from qiskit.passmanager.compilation_status import PropertySet

        ps = PropertySet()
        ps.update(out)
        return ps
    return out


def _hashable(items: list, kind: str) -> Any:
    try:
        return set(items) if kind == "set" else frozenset(items)
    except TypeError:
        raise PayloadError(f"{kind}: unhashable item") from None


def _qinfo_dec(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit import quantum_info as qi

    tag = data["$"]
    try:
        if tag in ("Statevector", "DensityMatrix"):
            arr = _ndarray(data.get("data"), budget)
            return getattr(qi, tag)(arr, dims=_dims(data.get("dims")))
        if tag in ("Operator", "Choi", "SuperOp"):
            arr = _ndarray(data.get("data"), budget)
            return getattr(qi, tag)(arr, input_dims=_dims(data.get("input_dims")),
                                    output_dims=_dims(data.get("output_dims")))
        if tag == "ScalarOp":
            c = _dec(data.get("coeff"), budget, depth + 1)
            if not isinstance(c, (int, float, complex)) or isinstance(c, bool):
                raise PayloadError("ScalarOp: bad coefficient")
            return qi.ScalarOp(_dims(data.get("dims")), coeff=c)
        if tag == "SparsePauliOp":
            x, z = _ndarray(data.get("x"), budget), _ndarray(data.get("z"), budget)
            phase, coeffs = _ndarray(data.get("phase"), budget), _ndarray(data.get("coeffs"), budget)
            if x.dtype.kind != "b" or z.dtype.kind != "b" or x.shape != z.shape or x.ndim != 2:
                raise PayloadError("SparsePauliOp: bad x/z tables")
            paulis = qi.PauliList.from_symplectic(z, x, phase.astype(int))
            return qi.SparsePauliOp(paulis, coeffs)
        if tag == "Pauli":
            label = data.get("label")
            if type(label) is not str or len(label) > budget.bounds.qubits + 4:
                raise PayloadError("Pauli: bad label")
            return qi.Pauli(label)
        if tag in ("Clifford", "StabilizerState"):
            tab = _ndarray(data.get("tableau"), budget)
            if tab.dtype.kind != "b" or tab.ndim != 2 or tab.shape[0] > 2 * budget.bounds.qubits:
                raise PayloadError(f"{tag}: bad tableau")
            cliff = qi.Clifford(tab, validate=True)
            return cliff if tag == "Clifford" else qi.StabilizerState(cliff)
    except PayloadError:
        raise
    except Exception as exc:
        raise PayloadError(f"{tag}: {type(exc).__name__}: {str(exc)[:200]}") from None
    raise PayloadError(f"unknown tag {tag!r}")  # pragma: no cover


def _npscalar(data: dict, budget: _Budget, depth: int) -> Any:
    import numpy as np

    dtype = data.get("dtype")
    if type(dtype) is not str or len(dtype) > 8:
        raise PayloadError("npscalar: bad dtype")
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise PayloadError("npscalar: bad dtype") from None
    if dt.kind not in _PLAIN_DTYPES:
        raise PayloadError("npscalar: dtype not accepted")
    v = _dec(data.get("v"), budget, depth + 1)
    if not isinstance(v, (bool, int, float, complex)):
        raise PayloadError("npscalar: not a number")
    try:
        return dt.type(v)
    except (OverflowError, ValueError, TypeError):
        raise PayloadError("npscalar: value does not fit its dtype") from None


def _instruction(data: dict, budget: _Budget, depth: int) -> Any:
    qc = _circuit(data, budget)
    if len(qc.data) != 1:
        raise PayloadError("instruction: expected one instruction")
    return qc.data[0].operation


def _dag(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit.converters import circuit_to_dag

    inner = data.get("circuit")
    if type(inner) is not dict or inner.get("$") != "circuit":
        raise PayloadError("dag: expected a circuit")
    return circuit_to_dag(_circuit(inner, budget))


def _bit_array(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit.primitives.containers.bit_array import BitArray

    arr, n = _ndarray(data.get("array"), budget), data.get("num_bits")
    if type(n) is not int or n < 0 or arr.dtype != "uint8":
        raise PayloadError("BitArray: bad fields")
    try:
        return BitArray(arr, n)
    except Exception as exc:
        raise PayloadError(f"BitArray: {type(exc).__name__}") from None


def _coupling_map(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit.transpiler import CouplingMap

    edges, nodes = data.get("edges"), data.get("nodes")
    if type(edges) is not list or type(nodes) is not list or len(edges) > 1 << 20:
        raise PayloadError("CouplingMap: bad fields")
    ok = all(type(e) is list and len(e) == 2 and all(type(i) is int and 0 <= i < 1 << 20
                                                     for i in e) for e in edges)
    if not ok or not all(type(i) is int and 0 <= i < 1 << 20 for i in nodes):
        raise PayloadError("CouplingMap: bad edges")
    budget.array(len(edges) + len(nodes))
    cmap = CouplingMap([tuple(e) for e in edges])
    for n in nodes:
        if n not in cmap.physical_qubits:
            cmap.add_physical_qubit(n)
    return cmap


def _fake_backend(data: dict, budget: _Budget, depth: int) -> Any:
    import re

    name = data.get("name")
    if type(name) is not str or not re.fullmatch(r"Fake[A-Za-z0-9_]{1,40}", name):
        raise PayloadError("fake_backend: bad name")
    from qiskit_ibm_runtime import fake_provider

    cls = getattr(fake_provider, name, None)
    if not isinstance(cls, type):
        raise PayloadError(f"fake_backend: no {name} in qiskit_ibm_runtime.fake_provider")
    return cls()


def _figure(data: dict, budget: _Budget, depth: int) -> Any:
    return _png_figure(_unb64(data.get("png"), budget.bounds), budget.bounds)


def _cnot_dihedral(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit.quantum_info import CNOTDihedral

    inner = data.get("circuit")
    if type(inner) is not dict or inner.get("$") != "circuit":
        raise PayloadError("CNOTDihedral: expected a circuit")
    qc = _circuit(inner, budget)
    if qc.num_qubits > 64:
        raise PayloadError("CNOTDihedral: more than 64 qubits")
    try:
        return CNOTDihedral(qc)
    except Exception as exc:
        raise PayloadError(f"CNOTDihedral: {type(exc).__name__}: {str(exc)[:200]}") from None


def _noise_model(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit.circuit import Delay
    from qiskit.transpiler import Target
    from qiskit_aer.noise import NoiseModel, QuantumError, ReadoutError
    from qiskit_aer.noise.passes import RelaxationNoisePass

    def error(d: Any) -> Any:
        if type(d) is not dict or type(d.get("circuits")) is not list:
            raise PayloadError("NoiseModel: bad error")
        circuits = [_circuit(c, budget) if type(c) is dict else None for c in d["circuits"]]
        probs = [_float(p) for p in d.get("probs") or []]
        if None in circuits or len(probs) != len(circuits):
            raise PayloadError("NoiseModel: bad error")
        return QuantumError(list(zip(circuits, probs, strict=True)))

    def qubits(v: Any) -> list:
        if type(v) is not list or not all(type(q) is int and 0 <= q < 1 << 16 for q in v):
            raise PayloadError("NoiseModel: bad qubits")
        return v

    basis = data.get("basis")
    if type(basis) is not list or not all(type(b) is str for b in basis):
        raise PayloadError("NoiseModel: bad basis gates")
    nm = NoiseModel(basis_gates=basis)
    for pair in data.get("default") or []:
        nm.add_all_qubit_quantum_error(error(pair[1]), str(pair[0]), warnings=False)
    for name, errs in data.get("local") or []:
        for qs, e in errs:
            nm.add_quantum_error(error(e), str(name), qubits(qs), warnings=False)
    if data.get("readout") is not None:
        nm.add_all_qubit_readout_error(ReadoutError(_ndarray(data["readout"], budget)),
                                       warnings=False)
    for qs, probs in data.get("readout_local") or []:
        nm.add_readout_error(ReadoutError(_ndarray(probs, budget)), qubits(qs), warnings=False)
    for p in data.get("passes") or []:
        # on delays only, the pass reads a target for nothing but being there
        target = Target() if p.get("target") is True else None
        dt = _dec(p.get("dt"), budget, depth + 1)
        nm._custom_noise_passes.append(RelaxationNoisePass(
            _ndarray(p.get("t1s"), budget).tolist(), _ndarray(p.get("t2s"), budget).tolist(),
            dt=None if dt is None else _float(dt), op_types=Delay,
            excited_state_populations=_ndarray(p.get("p1s"), budget).tolist(), target=target))
    return nm


def _pub(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit.primitives.containers import DataBin, PubResult, SamplerPubResult

    shape, fields = data.get("shape"), data.get("fields")
    if type(fields) is not list or type(shape) is not list or len(shape) > _MAX_DIM or not all(
            type(d) is int and 0 <= d < 1 << 30 for d in shape):
        raise PayloadError("PubResult: bad fields")
    kw = {}
    for pair in fields:
        if (type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str
                or not pair[0].isidentifier() or pair[0].startswith("_")):
            raise PayloadError("PubResult: bad field")
        kw[pair[0]] = _dec(pair[1], budget, depth + 1)
    meta = _dec(data.get("metadata"), budget, depth + 1)
    if type(meta) is not dict:
        raise PayloadError("PubResult: bad metadata")
    cls = SamplerPubResult if data.get("cls") == "SamplerPubResult" else PubResult
    try:
        return cls(DataBin(**kw, shape=tuple(shape)), meta)
    except Exception as exc:
        raise PayloadError(f"PubResult: {type(exc).__name__}: {str(exc)[:200]}") from None


def _primitive_result(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit.primitives.containers import PrimitiveResult

    pubs, meta = data.get("pubs"), _dec(data.get("metadata"), budget, depth + 1)
    if type(pubs) is not list or type(meta) is not dict:
        raise PayloadError("PrimitiveResult: bad fields")
    items = [_dec(p, budget, depth + 1) for p in pubs]
    if not all(type(p).__name__ in ("PubResult", "SamplerPubResult") for p in items):
        raise PayloadError("PrimitiveResult: expected pub results")
    return PrimitiveResult(items, meta)


def _job(data: dict, budget: _Budget, depth: int) -> Any:
    """A finished job whose result is the candidate's (rebuilt) job result."""
    from qiskit.primitives.primitive_job import PrimitiveJob

    result = _dec(data.get("result"), budget, depth + 1)
    job = PrimitiveJob(lambda: result)
    job._submit()
    job.result()
    return job


def _opt_float(v: Any) -> float | None:
    return None if v is None else _float(v)


def _target(data: dict, budget: _Budget, depth: int) -> Any:
    from qiskit.circuit import Instruction
    from qiskit.transpiler import InstructionProperties, Target

    n, entries = data.get("num_qubits"), data.get("entries")
    if (n is not None and (type(n) is not int or not 0 <= n <= budget.bounds.qubits)
            or type(entries) is not list or len(entries) > 10_000):
        raise PayloadError("Target: bad fields")
    dt = _dec(data.get("dt"), budget, depth + 1)
    try:
        target = Target(num_qubits=n, dt=None if dt is None else _float(dt))
        for entry in entries:
            if type(entry) is not list or len(entry) != 3 or type(entry[0]) is not str:
                raise PayloadError("Target: bad entry")
            name, op, props = entry[0], entry[1], entry[2]
            if type(op) is dict and op.get("$") == "controlflow":
                from qiskit.circuit import ControlFlowOp, controlflow

                op = getattr(controlflow, str(op.get("name")), None)
                if not (isinstance(op, type) and issubclass(op, ControlFlowOp)):
                    raise PayloadError("Target: bad control-flow instruction")
            else:
                op = _dec(op, budget, depth + 1)
                if not isinstance(op, Instruction):
                    raise PayloadError("Target: bad instruction")
            if type(props) is not list:
                raise PayloadError("Target: bad instruction")
            table = {}
            for pair in props:
                budget.item()
                if type(pair) is not list or len(pair) != 2:
                    raise PayloadError("Target: bad properties")
                qargs, p = pair
                if qargs is not None and (type(qargs) is not list or not all(
                        type(q) is int and 0 <= q < (n or 0) for q in qargs)):
                    raise PayloadError("Target: bad qargs")
                key = None if qargs is None else tuple(qargs)
                table[key] = None if p is None else InstructionProperties(
                    duration=_opt_float(p[0]), error=_opt_float(p[1]))
            if isinstance(op, type):
                target.add_instruction(op, name=name)
            else:
                target.add_instruction(op, table or None, name=name)
        return target
    except PayloadError:
        raise
    except Exception as exc:
        raise PayloadError(f"Target: {type(exc).__name__}: {str(exc)[:200]}") from None


def _range(data: dict, budget: _Budget, depth: int) -> range:
    v = data.get("v")
    if type(v) is not list or len(v) != 3 or not all(type(i) is int for i in v) or v[2] == 0:
        raise PayloadError("range: expected [start, stop, step]")
    return range(*v)


def _view(data: dict, budget: _Budget, depth: int) -> Any:
    items = _seq(data, budget, depth, data["$"])
    if data["$"] == "values":
        return dict(enumerate(items)).values()
    if data["$"] == "items":
        if not all(type(p) is tuple and len(p) == 2 for p in items):
            raise PayloadError("items: expected pairs")
        return _hashable_dict(items).items()
    return _hashable_dict((k, None) for k in items).keys()


def _hashable_dict(pairs: Any) -> dict:
    try:
        return dict(pairs)
    except TypeError:
        raise PayloadError("dict view: unhashable key") from None


def _deque(data: dict, budget: _Budget, depth: int) -> Any:
    import collections

    maxlen = data.get("maxlen")
    if maxlen is not None and (type(maxlen) is not int or maxlen < 0):
        raise PayloadError("deque: bad maxlen")
    return collections.deque(_seq(data, budget, depth, "deque"), maxlen)


def _fraction(data: dict, budget: _Budget, depth: int) -> Any:
    import fractions

    parts = _seq(data, budget, depth, "Fraction")
    if len(parts) != 2 or not all(type(p) is int for p in parts) or parts[1] == 0:
        raise PayloadError("Fraction: expected [numerator, denominator]")
    return fractions.Fraction(*parts)


def _decimal(data: dict, budget: _Budget, depth: int) -> Any:
    import decimal

    text = data.get("v")
    if type(text) is not str or len(text) > budget.bounds.int_digits:
        raise PayloadError("Decimal: expected a bounded string")
    try:
        return decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise PayloadError("Decimal: not a number") from None


_DECODERS = {
    "range": _range,
    "graph": _graph_dec,
    "bytes": lambda d, b, _: _unb64(d.get("b64"), b.bounds),
    "bytearray": lambda d, b, _: bytearray(_unb64(d.get("b64"), b.bounds)),
    "deque": _deque,
    "Fraction": _fraction,
    "Decimal": _decimal,
    "keys": _view, "values": _view, "items": _view,
    "iter": lambda d, b, depth: _Items(_seq(d, b, depth, "iter"), d.get("more") is True),
    "np0d": lambda d, b, _: _ndarray({"$": "ndarray", "npy": d.get("npy")}, b)[()],
    "Target": _target,
    "CNOTDihedral": _cnot_dihedral,
    "NoiseModel": _noise_model,
    "PubResult": _pub,
    "PrimitiveResult": _primitive_result,
    "job": _job,
    "int": lambda d, b, _: _int(d.get("x"), b.bounds),
    "float": lambda d, b, _: _float(d),
    "complex": lambda d, b, depth: complex(*map(_float, _seq(d, b, depth, "complex")[:2])),
    "tuple": lambda d, b, depth: tuple(_seq(d, b, depth, "tuple")),
    "set": lambda d, b, depth: _hashable(_seq(d, b, depth, "set"), "set"),
    "frozenset": lambda d, b, depth: _hashable(_seq(d, b, depth, "frozenset"), "frozenset"),
    "dict": _dec_dict, "Counts": _dec_dict, "PropertySet": _dec_dict,
    "npscalar": _npscalar,
    "ndarray": lambda d, b, _: _ndarray(d, b),
    "circuit": lambda d, b, _: _circuit(d, b),
    "instruction": _instruction,
    "dag": _dag,
    "BitArray": _bit_array,
    "CouplingMap": _coupling_map,
    "fake_backend": _fake_backend,
    "figure": _figure,
    **{k: _qinfo_dec for k in ("Statevector", "DensityMatrix", "Operator", "Choi", "SuperOp",
                               "ScalarOp", "SparsePauliOp", "Pauli", "Clifford",
                               "StabilizerState")},
}


def decode(data: Any, bounds: Bounds = BOUNDS) -> Any:
    """Rebuild a value from tagged JSON data; :class:`PayloadError` when malformed or too big,
    :class:`UnsupportedValue` for a value the candidate's side could not encode."""
    try:
        return _dec(data, _Budget(bounds), 0)
    except RecursionError:
        raise PayloadError("nested too deeply") from None
    except (PayloadError, UnsupportedValue):
        raise
    except Exception as exc:  # total: whatever the bytes, a malformed payload and no crash
        raise PayloadError(f"{type(exc).__name__}: {str(exc)[:200]}") from None


def loads(text: str | bytes, bounds: Bounds = BOUNDS) -> Any:
    """``decode(json.loads(text))`` with the byte bound applied first."""
    if len(text) > bounds.bytes:
        raise PayloadError(f"payload of {len(text)} bytes is over {bounds.bytes}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise PayloadError("JSON nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise PayloadError(f"not JSON: {str(exc)[:120]}") from None
    return decode(data, bounds)
