"""The wire codec's Qiskit extension: circuits as QPY (checked to read back; what QPY cannot read
is made portable or is a :class:`TransportLimit`), instructions, DAGs, quantum-info objects by
their arrays, ``Counts``, ``PropertySet``, ``BitArray``, primitives' results and jobs, targets,
coupling maps, Aer noise models, fake backends by name, Matplotlib figures as PNG.

Decoding checks every header before Qiskit reads it (QPY: one circuit of the running Qiskit's
QPY version, qubits/clbits/instructions within :class:`Limits`; PNG: pixels within the limit). A
job module: Qiskit (and Aer, Matplotlib, qiskit_ibm_runtime) is imported only when a value needs
it.
"""

from __future__ import annotations

import io
import json
import struct
import sys
from typing import Any

from .wire import (
    SKIP,
    Decoder,
    Encoder,
    Limits,
    TransportLimit,
    UnsupportedValue,
    WireError,
    b64,
    number,
    type_name,
    unb64,
)
from .wire_numpy import ndarray


def encode(enc: Encoder, value: Any, depth: int) -> Any:
    if isinstance(value, dict) and type(value).__name__ in ("Counts", "PropertySet"):
        return enc.pairs(type(value).__name__, value, depth)
    if "qiskit" not in sys.modules and type_name(value) != "matplotlib.figure.Figure":
        return SKIP  # nothing is a Qiskit value before Qiskit is imported
    return _enc_qiskit(value, enc, depth)


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


def _sendable(circuit: Any, bounds: Limits) -> Any:
    """``circuit`` if the decoder will read it (qubits and top-level instructions within
    ``bounds``), else a :class:`TransportLimit` before any QPY is written: the decoder refuses
    it anyway, and writing it would cost the sender about 60 bytes an instruction."""
    n = len(circuit.data)
    if n > bounds.instructions or circuit.num_qubits > bounds.qubits:
        raise TransportLimit(f"qiskit.circuit.QuantumCircuit of {circuit.num_qubits} qubits and "
                             f"{n} instructions, over the {bounds.qubits} qubits and "
                             f"{bounds.instructions} instructions the check reads")
    return circuit


def _qpy(circuit: Any, bounds: Limits) -> str:
    """Base64 of the QPY of ``circuit`` (or of its portable copy), within ``bounds.qpy_bytes``."""
    data = None
    try:
        data = _dump_load(circuit)
    except Exception as exc:
        error = exc
    for strict in (False, True):
        if data is not None:
            break
        try:
            data = _dump_load(_Portable().circuit(circuit, strict=strict))
        except Exception:
            pass
    if data is None:
        raise TransportLimit(f"qiskit.circuit.QuantumCircuit that QPY cannot carry "
                             f"({type(error).__name__}: {str(error)[:200]})") from None
    if len(data) > bounds.qpy_bytes:  # nested definitions: the top-level count says little
        raise TransportLimit(f"qiskit.circuit.QuantumCircuit of {len(data):,} bytes of QPY, over "
                             f"the {bounds.qpy_bytes:,} the check reads")
    return b64(data)


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


def _qinfo(value: Any, enc: Encoder) -> dict | None:
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
        return {"$": type(value).__name__, "data": enc.enc(value.data, 0),
                "dims": [int(d) for d in value.dims()]}
    if isinstance(value, (Operator, Choi, SuperOp)):
        return {"$": type(value).__name__, "data": enc.enc(value.data, 0),
                "input_dims": [int(d) for d in value.input_dims()],
                "output_dims": [int(d) for d in value.output_dims()]}
    if isinstance(value, ScalarOp):
        return {"$": "ScalarOp", "dims": [int(d) for d in value.input_dims()],
                "coeff": enc.enc(complex(value.coeff), 0)}
    if isinstance(value, SparsePauliOp):
        return {"$": "SparsePauliOp", "x": enc.enc(value.paulis.x, 0),
                "z": enc.enc(value.paulis.z, 0), "phase": enc.enc(value.paulis.phase, 0),
                "coeffs": enc.enc(value.coeffs, 0)}
    if isinstance(value, Pauli):
        return {"$": "Pauli", "label": value.to_label()}
    if isinstance(value, Clifford):
        return {"$": "Clifford", "tableau": enc.enc(value.tableau, 0)}
    if isinstance(value, StabilizerState):
        return {"$": "StabilizerState", "tableau": enc.enc(value.clifford.tableau, 0)}
    return None


def _enc_qiskit(value: Any, enc: Encoder, depth: int) -> Any:
    from qiskit import QuantumCircuit
    from qiskit.circuit import Instruction

    if isinstance(value, QuantumCircuit):
        out = {"$": "circuit", "cls": type_name(value)}
        if enc.fp:
            out["text"] = _circuit_text(value)
        else:
            out["qpy"] = _qpy(_sendable(value, enc.limits), enc.limits)
        return out
    if isinstance(value, Instruction):
        holder = QuantumCircuit(value.num_qubits, value.num_clbits)
        holder.append(value, range(value.num_qubits), range(value.num_clbits))
        out = {"$": "instruction"}
        out.update({"text": _circuit_text(holder)} if enc.fp else {"qpy": _qpy(holder, enc.limits)})
        return out
    q = _qinfo(value, enc)
    if q is not None:
        return q
    name = type_name(value)
    if name == "qiskit._accelerate.circuit.DAGCircuit" or name.endswith("DAGCircuit"):
        from qiskit.converters import dag_to_circuit

        return {"$": "dag", "circuit": enc.enc(dag_to_circuit(value), depth + 1)}
    if name == "qiskit.primitives.containers.bit_array.BitArray":
        return {"$": "BitArray", "array": enc.enc(value.array, depth + 1),
                "num_bits": int(value.num_bits)}
    if name == "qiskit.transpiler.coupling.CouplingMap":
        return {"$": "CouplingMap", "edges": [[int(a), int(b)] for a, b in value.get_edges()],
                "nodes": [int(n) for n in value.physical_qubits]}
    if type(value).__name__.startswith("Fake") and ".fake_provider." in name:
        return {"$": "fake_backend", "name": type(value).__name__}
    if name == "qiskit.transpiler.target.Target":
        return _enc_target(value, enc, depth)
    if name == "qiskit.quantum_info.operators.dihedral.dihedral.CNOTDihedral":
        return {"$": "CNOTDihedral", "circuit": enc.enc(value.to_circuit(), depth + 1)}
    if name == "qiskit_aer.noise.noise_model.NoiseModel":
        return _enc_noise(value, enc, depth)
    if name == "qiskit.primitives.containers.primitive_result.PrimitiveResult":
        return {"$": "PrimitiveResult", "pubs": [_enc_pub(p, enc, depth + 1) for p in value],
                "metadata": _lenient(value.metadata, enc, depth + 1)}
    if name.endswith(("PubResult", ".SamplerPubResult")):
        return _enc_pub(value, enc, depth)
    if _is_job(value):
        return {"$": "job", "result": enc.enc(value.result(), depth + 1)}
    if name == "matplotlib.figure.Figure":
        buf = io.BytesIO()
        value.savefig(buf, format="png", dpi=50)
        return {"$": "figure", "png": "" if enc.fp else b64(buf.getvalue())}
    return SKIP


def _lenient(value: Any, enc: Encoder, depth: int) -> Any:
    """Metadata: carried when it can be, else dropped (``{}``)."""
    try:
        return enc.enc(value, depth)
    except UnsupportedValue:
        return {"$": "dict", "v": []}


def _enc_noise(value: Any, enc: Encoder, depth: int) -> dict:
    """A noise model by its parts: basis gates, each quantum error as its circuits (QPY) and
    probabilities, readout errors as their matrices, relaxation passes on delays by their
    parameters, its target by its presence: on delays the pass reads durations from the
    instructions (``to_dict()`` does not read back for relaxation errors)."""
    from qiskit.circuit import Delay
    from qiskit_aer.noise.passes import RelaxationNoisePass

    def error(e: Any) -> dict:
        return {"circuits": [enc.enc(c, depth + 2) for c in e.circuits],
                "probs": [float(p) for p in e.probabilities]}

    passes = []
    for p in value._custom_noise_passes:
        if type(p) is not RelaxationNoisePass or tuple(p._ops) != (Delay,):
            raise TransportLimit(f"a NoiseModel with a custom pass {type(p).__name__}")
        passes.append({"t1s": enc.enc(p._t1s, depth + 1), "t2s": enc.enc(p._t2s, depth + 1),
                       "p1s": enc.enc(p._p1s, depth + 1), "dt": enc.enc(p._dt, depth + 1),
                       "target": p._target is not None})
    readout = value._default_readout_error
    return {"$": "NoiseModel", "basis": [str(b) for b in value.basis_gates],
            "default": [[str(n), error(e)] for n, e in value._default_quantum_errors.items()],
            "local": [[str(n), [[[int(q) for q in qs], error(e)] for qs, e in errs.items()]]
                      for n, errs in value._local_quantum_errors.items()],
            "readout": None if readout is None else enc.enc(readout.probabilities, depth + 1),
            "readout_local": [[[int(q) for q in qs], enc.enc(e.probabilities, depth + 1)]
                              for qs, e in value._local_readout_errors.items()],
            "passes": passes}


def _enc_pub(pub: Any, enc: Encoder, depth: int) -> dict:
    data = pub.data
    fields = [[k, enc.enc(v, depth + 1)] for k, v in data.items()]
    return {"$": "PubResult", "cls": type(pub).__name__, "shape": [int(d) for d in data.shape],
            "fields": fields, "metadata": _lenient(pub.metadata, enc, depth + 1)}


def _enc_target(target: Any, enc: Encoder, depth: int) -> dict:
    """A target by its instructions and their properties (duration, error) per qargs."""
    entries = []
    for name in target.operation_names:
        op = target.operation_from_name(name)
        if isinstance(op, type) and op.__module__.startswith("qiskit.circuit.controlflow"):
            op_data = {"$": "controlflow", "name": op.__name__}
        elif isinstance(op, type):
            raise UnsupportedValue("a Target with a variadic (class) instruction")
        else:
            op_data = enc.enc(op, depth + 1)
        props = []
        for qargs, p in target[name].items():
            props.append([None if qargs is None else [int(q) for q in qargs],
                          None if p is None else [enc.enc(p.duration, depth + 1),
                                                  enc.enc(p.error, depth + 1)]])
        entries.append([name, op_data, props])
    return {"$": "Target", "num_qubits": target.num_qubits, "dt": enc.enc(target.dt, depth + 1),
            "entries": entries}


def _is_job(value: Any) -> bool:
    try:
        from qiskit.primitives.base.base_primitive_job import BasePrimitiveJob
    except ImportError:  # pragma: no cover
        return False
    return isinstance(value, BasePrimitiveJob)


_QPY_FILE = "!6sBBBBQc"
_QPY_CIRCUIT = "!H1cHIIQIQI"


def check_qpy_header(raw: bytes, bounds: Limits) -> None:
    from qiskit.qpy import QPY_VERSION

    head = struct.calcsize(_QPY_FILE)
    if len(raw) > bounds.qpy_bytes:  # what QPY nests (definitions) is bounded by its bytes
        raise WireError(f"circuit: {len(raw)} bytes of QPY, over {bounds.qpy_bytes}")
    if len(raw) < head + 9:
        raise WireError("circuit: QPY data too short")
    preface, version, _ma, _mi, _pa, programs, _sym = struct.unpack_from(_QPY_FILE, raw, 0)
    if preface != b"QISKIT" or version != QPY_VERSION or programs != 1 or version < 16:
        raise WireError(f"circuit: QPY header not accepted (version {version}, "
                           f"{programs} programs; expected version {QPY_VERSION}, 1 program)")
    if raw[head:head + 1] != b"q":
        raise WireError("circuit: QPY program is not a circuit")
    (offset,) = struct.unpack_from("!Q", raw, head + 1)
    if offset < head + 9 or offset + struct.calcsize(_QPY_CIRCUIT) > len(raw):
        raise WireError("circuit: QPY program offset out of range")
    (name_size, _gt, phase_size, nq, nc, meta, nreg, ninst, nvars) = struct.unpack_from(
        _QPY_CIRCUIT, raw, offset)
    if nq > bounds.qubits or nc > bounds.clbits or ninst > bounds.instructions:
        raise WireError(f"circuit: claims {nq} qubits, {nc} clbits, {ninst} instructions "
                           f"(bounds {bounds.qubits}, {bounds.clbits}, {bounds.instructions})")
    if max(name_size, phase_size, meta) > len(raw) or nreg > nq + nc + 64 or nvars > 1 << 16:
        raise WireError("circuit: QPY header claims more than the data holds")


#: QPY bytes this process decoded so far: every circuit a check reads, over all its calls,
#: shares ``Limits.qpy_bytes`` (three calls' 190,000 instructions each took it to 490 MB)
_DECODED = [0]


def _circuit(data: dict, budget: Decoder) -> Any:
    from qiskit import QuantumCircuit, qpy

    raw = unb64(data.get("qpy"), budget.limits)
    check_qpy_header(raw, budget.limits)
    if _DECODED[0] + len(raw) > budget.limits.qpy_bytes:
        raise TransportLimit(f"qiskit.circuit.QuantumCircuit: the circuits returned so far "
                             f"have {_DECODED[0] + len(raw):,} bytes of QPY, over the "
                             f"{budget.limits.qpy_bytes:,} the check reads")
    _DECODED[0] += len(raw)
    try:
        circuits = qpy.load(io.BytesIO(raw))
    except Exception as exc:
        raise WireError(f"circuit: QPY not readable ({type(exc).__name__}: {exc})") from None
    if len(circuits) != 1 or type(circuits[0]) is not QuantumCircuit:
        raise WireError("circuit: expected exactly one circuit")
    qc = circuits[0]
    if qc.num_qubits > budget.limits.qubits or len(qc.data) > budget.limits.instructions:
        raise WireError("circuit: over the bounds")
    budget.item()
    return qc


def _dims(v: Any) -> tuple[int, ...]:
    if not isinstance(v, list) or len(v) > 64 or not all(
            type(d) is int and 0 < d <= 1 << 16 for d in v):
        raise WireError("bad dims")
    return tuple(v)


def _png_figure(raw: bytes, bounds: Limits) -> Any:
    if raw[:8] != b"\x89PNG\r\n\x1a\n" or len(raw) < 24 or raw[12:16] != b"IHDR":
        raise WireError("figure: not a PNG image")
    width, height = struct.unpack(">II", raw[16:24])
    if width * height > bounds.image_pixels or not width or not height:
        raise WireError(f"figure: {width}x{height} pixels is over the bound")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import matplotlib.pyplot as plt

    try:
        image = mpimg.imread(io.BytesIO(raw), format="png")
    except Exception as exc:
        raise WireError(f"figure: PNG not readable ({type(exc).__name__})") from None
    fig = plt.figure(figsize=(width / 50, height / 50), dpi=50)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.imshow(image)
    ax.set_axis_off()
    return fig


def _dec_dict(data: dict, budget: Decoder, depth: int) -> dict:
    out = budget.pairs(data, depth)
    if data["$"] == "Counts":
        from qiskit.result import Counts

        try:
            return Counts(out)
        except Exception as exc:
            raise WireError(f"Counts: {type(exc).__name__}") from None
    from qiskit.passmanager.compilation_status import PropertySet

    ps = PropertySet()
    ps.update(out)
    return ps


def _qinfo_dec(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit import quantum_info as qi

    tag = data["$"]
    try:
        if tag in ("Statevector", "DensityMatrix"):
            arr = ndarray(data.get("data"), budget)
            return getattr(qi, tag)(arr, dims=_dims(data.get("dims")))
        if tag in ("Operator", "Choi", "SuperOp"):
            arr = ndarray(data.get("data"), budget)
            return getattr(qi, tag)(arr, input_dims=_dims(data.get("input_dims")),
                                    output_dims=_dims(data.get("output_dims")))
        if tag == "ScalarOp":
            c = budget.dec(data.get("coeff"), depth + 1)
            if not isinstance(c, (int, float, complex)) or isinstance(c, bool):
                raise WireError("ScalarOp: bad coefficient")
            return qi.ScalarOp(_dims(data.get("dims")), coeff=c)
        if tag == "SparsePauliOp":
            x, z = ndarray(data.get("x"), budget), ndarray(data.get("z"), budget)
            phase, coeffs = ndarray(data.get("phase"), budget), ndarray(data.get("coeffs"), budget)
            if x.dtype.kind != "b" or z.dtype.kind != "b" or x.shape != z.shape or x.ndim != 2:
                raise WireError("SparsePauliOp: bad x/z tables")
            paulis = qi.PauliList.from_symplectic(z, x, phase.astype(int))
            return qi.SparsePauliOp(paulis, coeffs)
        if tag == "Pauli":
            label = data.get("label")
            if type(label) is not str or len(label) > budget.limits.qubits + 4:
                raise WireError("Pauli: bad label")
            return qi.Pauli(label)
        if tag in ("Clifford", "StabilizerState"):
            tab = ndarray(data.get("tableau"), budget)
            if tab.dtype.kind != "b" or tab.ndim != 2 or tab.shape[0] > 2 * budget.limits.qubits:
                raise WireError(f"{tag}: bad tableau")
            cliff = qi.Clifford(tab, validate=True)
            return cliff if tag == "Clifford" else qi.StabilizerState(cliff)
    except WireError:
        raise
    except Exception as exc:
        raise WireError(f"{tag}: {type(exc).__name__}: {str(exc)[:200]}") from None
    raise WireError(f"unknown tag {tag!r}")  # pragma: no cover


def _instruction(data: dict, budget: Decoder, depth: int) -> Any:
    qc = _circuit(data, budget)
    if len(qc.data) != 1:
        raise WireError("instruction: expected one instruction")
    return qc.data[0].operation


def _dag(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit.converters import circuit_to_dag

    inner = data.get("circuit")
    if type(inner) is not dict or inner.get("$") != "circuit":
        raise WireError("dag: expected a circuit")
    return circuit_to_dag(_circuit(inner, budget))


def _bit_array(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit.primitives.containers.bit_array import BitArray

    arr, n = ndarray(data.get("array"), budget), data.get("num_bits")
    if type(n) is not int or n < 0 or arr.dtype != "uint8":
        raise WireError("BitArray: bad fields")
    try:
        return BitArray(arr, n)
    except Exception as exc:
        raise WireError(f"BitArray: {type(exc).__name__}") from None


def _coupling_map(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit.transpiler import CouplingMap

    edges, nodes = data.get("edges"), data.get("nodes")
    if type(edges) is not list or type(nodes) is not list or len(edges) > 1 << 20:
        raise WireError("CouplingMap: bad fields")
    ok = all(type(e) is list and len(e) == 2 and all(type(i) is int and 0 <= i < 1 << 20
                                                     for i in e) for e in edges)
    if not ok or not all(type(i) is int and 0 <= i < 1 << 20 for i in nodes):
        raise WireError("CouplingMap: bad edges")
    budget.array(len(edges) + len(nodes))
    cmap = CouplingMap([tuple(e) for e in edges])
    for n in nodes:
        if n not in cmap.physical_qubits:
            cmap.add_physical_qubit(n)
    return cmap


def _fake_backend(data: dict, budget: Decoder, depth: int) -> Any:
    import re

    name = data.get("name")
    if type(name) is not str or not re.fullmatch(r"Fake[A-Za-z0-9_]{1,40}", name):
        raise WireError("fake_backend: bad name")
    from qiskit_ibm_runtime import fake_provider

    cls = getattr(fake_provider, name, None)
    if not isinstance(cls, type):
        raise WireError(f"fake_backend: no {name} in qiskit_ibm_runtime.fake_provider")
    return cls()


def _figure(data: dict, budget: Decoder, depth: int) -> Any:
    return _png_figure(unb64(data.get("png"), budget.limits), budget.limits)


def _cnot_dihedral(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit.quantum_info import CNOTDihedral

    inner = data.get("circuit")
    if type(inner) is not dict or inner.get("$") != "circuit":
        raise WireError("CNOTDihedral: expected a circuit")
    qc = _circuit(inner, budget)
    if qc.num_qubits > 64:
        raise WireError("CNOTDihedral: more than 64 qubits")
    try:
        return CNOTDihedral(qc)
    except Exception as exc:
        raise WireError(f"CNOTDihedral: {type(exc).__name__}: {str(exc)[:200]}") from None


def _noise_model(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit.circuit import Delay
    from qiskit.transpiler import Target
    from qiskit_aer.noise import NoiseModel, QuantumError, ReadoutError
    from qiskit_aer.noise.passes import RelaxationNoisePass

    def error(d: Any) -> Any:
        if type(d) is not dict or type(d.get("circuits")) is not list:
            raise WireError("NoiseModel: bad error")
        circuits = [_circuit(c, budget) if type(c) is dict else None for c in d["circuits"]]
        probs = [number(p) for p in d.get("probs") or []]
        if None in circuits or len(probs) != len(circuits):
            raise WireError("NoiseModel: bad error")
        return QuantumError(list(zip(circuits, probs)))

    def qubits(v: Any) -> list:
        if type(v) is not list or not all(type(q) is int and 0 <= q < 1 << 16 for q in v):
            raise WireError("NoiseModel: bad qubits")
        return v

    basis = data.get("basis")
    if type(basis) is not list or not all(type(b) is str for b in basis):
        raise WireError("NoiseModel: bad basis gates")
    nm = NoiseModel(basis_gates=basis)
    for pair in data.get("default") or []:
        nm.add_all_qubit_quantum_error(error(pair[1]), str(pair[0]), warnings=False)
    for name, errs in data.get("local") or []:
        for qs, e in errs:
            nm.add_quantum_error(error(e), str(name), qubits(qs), warnings=False)
    if data.get("readout") is not None:
        nm.add_all_qubit_readout_error(ReadoutError(ndarray(data["readout"], budget)),
                                       warnings=False)
    for qs, probs in data.get("readout_local") or []:
        nm.add_readout_error(ReadoutError(ndarray(probs, budget)), qubits(qs), warnings=False)
    for p in data.get("passes") or []:
        # on delays only, the pass reads a target for nothing but being there
        target = Target() if p.get("target") is True else None
        dt = budget.dec(p.get("dt"), depth + 1)
        nm._custom_noise_passes.append(RelaxationNoisePass(
            ndarray(p.get("t1s"), budget).tolist(), ndarray(p.get("t2s"), budget).tolist(),
            dt=None if dt is None else number(dt), op_types=Delay,
            excited_state_populations=ndarray(p.get("p1s"), budget).tolist(), target=target))
    return nm


def _pub(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit.primitives.containers import DataBin, PubResult, SamplerPubResult

    shape, fields = data.get("shape"), data.get("fields")
    if type(fields) is not list or type(shape) is not list or len(shape) > budget.limits.dims or not all(
            type(d) is int and 0 <= d < 1 << 30 for d in shape):
        raise WireError("PubResult: bad fields")
    kw = {}
    for pair in fields:
        if (type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str
                or not pair[0].isidentifier() or pair[0].startswith("_")):
            raise WireError("PubResult: bad field")
        kw[pair[0]] = budget.dec(pair[1], depth + 1)
    meta = budget.dec(data.get("metadata"), depth + 1)
    if type(meta) is not dict:
        raise WireError("PubResult: bad metadata")
    cls = SamplerPubResult if data.get("cls") == "SamplerPubResult" else PubResult
    try:
        return cls(DataBin(**kw, shape=tuple(shape)), meta)
    except Exception as exc:
        raise WireError(f"PubResult: {type(exc).__name__}: {str(exc)[:200]}") from None


def _primitive_result(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit.primitives.containers import PrimitiveResult

    pubs, meta = data.get("pubs"), budget.dec(data.get("metadata"), depth + 1)
    if type(pubs) is not list or type(meta) is not dict:
        raise WireError("PrimitiveResult: bad fields")
    items = [budget.dec(p, depth + 1) for p in pubs]
    if not all(type(p).__name__ in ("PubResult", "SamplerPubResult") for p in items):
        raise WireError("PrimitiveResult: expected pub results")
    return PrimitiveResult(items, meta)


def _job(data: dict, budget: Decoder, depth: int) -> Any:
    """A finished job whose result is the candidate's (rebuilt) job result."""
    from qiskit.primitives.primitive_job import PrimitiveJob

    result = budget.dec(data.get("result"), depth + 1)
    job = PrimitiveJob(lambda: result)
    job._submit()
    job.result()
    return job


def _opt_number(v: Any) -> float | None:
    return None if v is None else number(v)


def _target(data: dict, budget: Decoder, depth: int) -> Any:
    from qiskit.circuit import Instruction
    from qiskit.transpiler import InstructionProperties, Target

    n, entries = data.get("num_qubits"), data.get("entries")
    if (n is not None and (type(n) is not int or not 0 <= n <= budget.limits.qubits)
            or type(entries) is not list or len(entries) > 10_000):
        raise WireError("Target: bad fields")
    dt = budget.dec(data.get("dt"), depth + 1)
    try:
        target = Target(num_qubits=n, dt=None if dt is None else number(dt))
        for entry in entries:
            if type(entry) is not list or len(entry) != 3 or type(entry[0]) is not str:
                raise WireError("Target: bad entry")
            name, op, props = entry[0], entry[1], entry[2]
            if type(op) is dict and op.get("$") == "controlflow":
                from qiskit.circuit import ControlFlowOp, controlflow

                op = getattr(controlflow, str(op.get("name")), None)
                if not (isinstance(op, type) and issubclass(op, ControlFlowOp)):
                    raise WireError("Target: bad control-flow instruction")
            else:
                op = budget.dec(op, depth + 1)
                if not isinstance(op, Instruction):
                    raise WireError("Target: bad instruction")
            if type(props) is not list:
                raise WireError("Target: bad instruction")
            table = {}
            for pair in props:
                budget.item()
                if type(pair) is not list or len(pair) != 2:
                    raise WireError("Target: bad properties")
                qargs, p = pair
                if qargs is not None and (type(qargs) is not list or not all(
                        type(q) is int and 0 <= q < (n or 0) for q in qargs)):
                    raise WireError("Target: bad qargs")
                key = None if qargs is None else tuple(qargs)
                table[key] = None if p is None else InstructionProperties(
                    duration=_opt_number(p[0]), error=_opt_number(p[1]))
            if isinstance(op, type):
                target.add_instruction(op, name=name)
            else:
                target.add_instruction(op, table or None, name=name)
        return target
    except WireError:
        raise
    except Exception as exc:
        raise WireError(f"Target: {type(exc).__name__}: {str(exc)[:200]}") from None


DECODERS = {
    "Counts": _dec_dict, "PropertySet": _dec_dict,
    "circuit": lambda d, b, _: _circuit(d, b),
    "instruction": _instruction,
    "dag": _dag,
    "BitArray": _bit_array,
    "CouplingMap": _coupling_map,
    "fake_backend": _fake_backend,
    "figure": _figure,
    "Target": _target,
    "CNOTDihedral": _cnot_dihedral,
    "NoiseModel": _noise_model,
    "PubResult": _pub,
    "PrimitiveResult": _primitive_result,
    "job": _job,
    **{k: _qinfo_dec for k in ("Statevector", "DensityMatrix", "Operator", "Choi", "SuperOp",
                               "ScalarOp", "SparsePauliOp", "Pauli", "Clifford",
                               "StabilizerState")},
}
