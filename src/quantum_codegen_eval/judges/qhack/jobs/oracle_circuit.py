"""A circuit that applies a hidden oracle, as data: what the program's job sends out and the
trusted oracle job runs (:mod:`.oracle_program`, :mod:`.oracle_answer`).

The program is handed placeholders (:func:`placeholders`): each queues a ``QCEOracle`` operation
that has no matrix and no decomposition, tagged only with the oracle's position. A QNode execution
whose tape holds one becomes a *query* (:func:`query_of`): the device (name, wires, shots), the
operations expanded to :data:`STANDARD` gates (a ``QubitUnitary`` with its matrix, the placeholder
with its position) and the measurements. The trusted job validates a query (:func:`circuit_of`:
it is untrusted data), rebuilds it with the real oracles and returns what the QNode returned
(:func:`encode_result`), which the program's job hands back (:func:`decode_result`).
"""

import math
import numbers

ORACLE = "QCEOracle"
#: operations a query is expanded to (besides the placeholder)
STANDARD = ("Identity", "Hadamard", "PauliX", "PauliY", "PauliZ", "S", "T", "SX", "CNOT", "CZ",
            "CY", "SWAP", "Toffoli", "CSWAP", "RX", "RY", "RZ", "PhaseShift",
            "ControlledPhaseShift", "CRX", "CRY", "CRZ", "Rot", "U1", "U2", "U3", "IsingXX",
            "IsingYY", "IsingZZ", "MultiRZ", "QubitUnitary")
PARAMS = {"RX": 1, "RY": 1, "RZ": 1, "PhaseShift": 1, "ControlledPhaseShift": 1, "CRX": 1,
          "CRY": 1, "CRZ": 1, "Rot": 3, "U1": 1, "U2": 2, "U3": 3, "IsingXX": 1, "IsingYY": 1,
          "IsingZZ": 1, "MultiRZ": 1, "QubitUnitary": 1}
OBSERVABLES = ("PauliX", "PauliY", "PauliZ", "Hadamard", "Identity")
#: measurement kinds (PennyLane <= 0.3x ``return_type`` names; newer class names less "MP")
MEASUREMENTS = {"Sample": "sample", "Probability": "probs", "Expectation": "expval",
                "Variance": "var", "State": "state"}
DEVICES = {"default.qubit": 16, "default.qubit.autograd": 16, "lightning.qubit": 16,
           "default.mixed": 8}
MAX_OPS = 5000
MAX_SHOTS = 100_000


class QueryError(ValueError):
    """A query the trusted job refuses (the program's circuit, not the judge, is at fault)."""


# ---------------------------------------------------------------- the program's side

_CLASS = []


def placeholder_class():
    """The ``QCEOracle`` operation class (made once, after PennyLane is imported)."""
    if not _CLASS:
        import pennylane as qml

        class QCEOracle(qml.operation.Operation):
            """Stands for a hidden oracle: no matrix, no decomposition, no data."""

            num_wires = getattr(qml.operation, "AnyWires", None)
            num_params = 0
            grad_method = None

            def adjoint(self, *args, **kwargs):
                """The oracle itself: every hidden oracle of the four challenges is its own
                inverse (a permutation of order 2; ``qml.adjoint`` on PennyLane 0.2x)."""
                op = type(self)(wires=self.wires)
                op.qce_oracle = getattr(self, "qce_oracle", -1)
                return op

        _CLASS.append(QCEOracle)
    return _CLASS[0]


def placeholders(count, wires):
    """``count`` stand-ins for the harness's oracles: with ``wires`` (a list) each takes no
    argument and acts on those wires; with ``None`` each takes the ``wires`` it acts on."""
    cls = placeholder_class()

    def make(index):
        def queue(on):
            op = cls(wires=on)
            op.qce_oracle = index

        if wires is None:
            def oracle(wires):
                queue(list(wires))
        else:
            def oracle():
                queue(list(wires))
        return oracle

    return [make(k) for k in range(count)]


def _label(w):
    if isinstance(w, str):
        return w
    if isinstance(w, numbers.Integral) and not isinstance(w, bool):
        return int(w)
    raise ValueError(f"wire label {w!r}: only integers and strings can be sent to the oracle's "
                     "simulation")


def _oracle_in(op):
    """``(placeholder, control wires, control values)`` when ``op`` is a placeholder or a
    placeholder under ``qml.ctrl`` (nested or not), else ``None``."""
    if op.name == ORACLE:
        return op, [], []
    if type(op).__name__.startswith("Adjoint") and getattr(op, "base", None) is not None:
        return _oracle_in(op.base)  # newer PennyLane's lazy ``qml.adjoint``: self-inverse
    sub = getattr(op, "subtape", None)  # PennyLane <= 0.2x: ControlledOperation
    inner = sub.operations if sub is not None else None
    if inner is None and getattr(op, "base", None) is not None and hasattr(op, "control_wires"):
        inner = [op.base]  # newer PennyLane: Controlled
    if not inner or not hasattr(op, "control_wires"):
        return None
    found = [_oracle_in(o) for o in inner]
    if not any(found):
        return None
    if len(inner) > 1:
        import pennylane as qml

        raise qml.QuantumFunctionError("a controlled block may hold the oracle only on its own")
    cw = [_label(w) for w in op.control_wires.tolist()]
    cv = getattr(op, "control_values", None)
    cv = [True] * len(cw) if cv is None else [bool(int(v)) for v in cv]
    return found[0][0], cw + found[0][1], cv + found[0][2]


def _op_data(op):
    name = str(op.name)
    oracle = _oracle_in(op)
    if oracle is not None:
        ph, cw, cv = oracle
        ps = [int(getattr(ph, "qce_oracle", -1))] + ([cw, cv] if cw else [])
        return [ORACLE, [_label(w) for w in ph.wires.tolist()], ps]
    ws = [_label(w) for w in op.wires.tolist()]
    if name == "QubitUnitary":
        import pennylane as qml

        return [name, ws, [encode_result(qml.math.to_numpy(op.parameters[0]))]]
    return [name, ws, [float(p) for p in op.parameters]]


def _kind(m):
    rt = getattr(m, "return_type", None)
    name = getattr(rt, "name", None) or type(m).__name__
    if name.endswith("MP"):
        name = name[:-2]
    return name


def _obs_data(obs):
    if obs is None:
        return None
    parts = getattr(obs, "obs", None) or getattr(obs, "operands", None)
    if parts and str(obs.name) not in OBSERVABLES:
        return [item for p in parts for item in _obs_data(p)]
    return [[str(obs.name), [_label(w) for w in obs.wires.tolist()]]]


def _device_data(dev):
    name = getattr(dev, "short_name", None) or getattr(dev, "name", None)
    wires = getattr(dev, "wires", None)
    shots = getattr(dev, "shots", None)
    if shots is not None and not isinstance(shots, int):  # a Shots object (newer PennyLane)
        shots = getattr(shots, "total_shots", shots)
    return {"name": str(name), "wires": None if wires is None else
            [_label(w) for w in wires.tolist()], "shots": shots}


def query_of(qnode, args, kwargs):
    """The query of executing ``qnode(*args, **kwargs)``, or ``None`` when its circuit applies
    no oracle (it then runs as usual)."""
    import pennylane as qml

    with qml.tape.QuantumTape() as tape:
        qnode.func(*args, **kwargs)
    if not any(_oracle_in(op) for op in tape.operations):
        return None  # (a placeholder inside another operation fails on the device: no query)
    keep = set(STANDARD) | {ORACLE}

    def stop(op):
        return op.name in keep or _oracle_in(op) is not None

    tape = tape.expand(depth=20, stop_at=stop)
    bad = [op.name for op in tape.operations if not stop(op)]
    if bad:
        raise qml.QuantumFunctionError(f"{bad[0]} cannot be applied together with the oracle")
    return {"device": _device_data(qnode.device),
            "ops": [_op_data(op) for op in tape.operations],
            "measurements": [[_kind(m), [_label(w) for w in m.wires.tolist()],
                              _obs_data(m.obs)] for m in tape.measurements]}


# ---------------------------------------------------------------- results

def encode_result(value):
    """A QNode's result as JSON data: nested tuples/lists of numeric arrays."""
    import numpy

    if isinstance(value, (tuple, list)):
        return {"seq": [encode_result(v) for v in value], "tuple": isinstance(value, tuple)}
    tensor = hasattr(value, "requires_grad")
    arr = numpy.asarray(value)
    if arr.dtype.kind not in "biufc":
        raise QueryError(f"result of dtype {arr.dtype} cannot be returned")
    flat = arr.ravel()
    return {"dtype": arr.dtype.str, "shape": list(arr.shape),
            "re": [_num(x) for x in flat.real.tolist()],
            "im": [_num(x) for x in flat.imag.tolist()] if arr.dtype.kind == "c" else None,
            "tensor": tensor, "grad": bool(getattr(value, "requires_grad", False))}


def _num(x):
    return x if math.isfinite(x) else repr(x)


def decode_result(data, tensors=True):
    """The value :func:`encode_result` encoded (arrays rebuilt with their dtype and shape)."""
    import numpy

    if "seq" in data:
        items = [decode_result(d, tensors) for d in data["seq"]]
        return tuple(items) if data.get("tuple") else items
    dtype = numpy.dtype(data["dtype"])
    if dtype.kind not in "biufc" or dtype.shape or dtype.fields:
        raise QueryError(f"arrays of dtype {dtype} are not results")
    re = numpy.array([float(x) for x in data["re"]], dtype=float)
    arr = re if data["im"] is None else re + 1j * numpy.array([float(x) for x in data["im"]])
    arr = arr.astype(dtype).reshape(data["shape"])
    if tensors and data.get("tensor"):
        from pennylane import numpy as pnp

        return pnp.tensor(arr, requires_grad=bool(data.get("grad")))
    return arr


# ---------------------------------------------------------------- the trusted side

def _labels(ws, allowed, what):
    if not isinstance(ws, list) or len(set(map(repr, ws))) != len(ws) or not all(
            type(w) in (int, str) for w in ws):
        raise QueryError(f"{what}: bad wires")
    if allowed is not None and not all(w in allowed for w in ws):
        raise QueryError(f"{what}: wires {ws!r} are not on the device")
    return ws


def circuit_of(query, oracle_count):
    """The validated parts of a query: (device name, wires, shots, ops, measurements); raises
    :class:`QueryError` for anything that is not a circuit of known gates."""
    if not isinstance(query, dict):
        raise QueryError("malformed query")
    dev = query.get("device")
    if not isinstance(dev, dict) or dev.get("name") not in DEVICES:
        raise QueryError("the oracle can only be run on " + ", ".join(sorted(DEVICES)))
    wires, shots = dev.get("wires"), dev.get("shots")
    if wires is not None:
        _labels(wires, None, "device")
        if len(wires) > DEVICES[dev["name"]]:
            raise QueryError(f"{len(wires)} wires: more than this judge simulates "
                             f"({DEVICES[dev['name']]})")
    if shots is not None and not (type(shots) is int and 0 < shots <= MAX_SHOTS):
        raise QueryError(f"shots must be None or an integer in 1..{MAX_SHOTS}")
    ops_in, ms_in = query.get("ops"), query.get("measurements")
    if not isinstance(ops_in, list) or len(ops_in) > MAX_OPS or not isinstance(ms_in, list) \
            or not 0 < len(ms_in) <= 16:
        raise QueryError("malformed circuit")
    ops = []
    for item in ops_in:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[2], list)):
            raise QueryError("malformed operation")
        name, ws, ps = item
        if name != ORACLE and name not in STANDARD:
            raise QueryError(f"operation {str(name)[:60]} is not allowed")
        _labels(ws, wires, str(name))
        if name == ORACLE:
            if not (len(ps) in (1, 3) and type(ps[0]) is int and 0 <= ps[0] < oracle_count):
                raise QueryError("malformed oracle")
            if len(ps) == 3:
                cw, cv = ps[1], ps[2]
                _labels(cw, wires, "oracle controls")
                if not (0 < len(cw) <= 8 and isinstance(cv, list) and len(cv) == len(cw)
                        and all(type(v) is bool for v in cv)
                        and not set(map(repr, cw)) & set(map(repr, ws))):
                    raise QueryError("malformed controls of the oracle")
        elif name == "QubitUnitary":
            ps = [_matrix(ps, len(ws))]
        elif len(ps) != PARAMS.get(name, 0) or not all(
                type(p) in (int, float) and math.isfinite(p) for p in ps):
            raise QueryError(f"{name}: bad parameters")
        ops.append((name, ws, ps))
    ms = []
    for item in ms_in:
        if not (isinstance(item, list) and len(item) == 3 and item[0] in MEASUREMENTS):
            raise QueryError("malformed measurement")
        kind, ws, obs = item
        _labels(ws, wires, kind)
        if obs is not None:
            if not isinstance(obs, list) or not 0 < len(obs) <= 16:
                raise QueryError("malformed observable")
            for o in obs:
                if not (isinstance(o, list) and len(o) == 2 and o[0] in OBSERVABLES):
                    raise QueryError("observable not supported")
                _labels(o[1], wires, o[0])
        ms.append((MEASUREMENTS[kind], ws, obs))
    return dev["name"], wires, shots, ops, ms


def _matrix(ps, n_wires):
    import numpy

    if not (len(ps) == 1 and isinstance(ps[0], dict) and 0 < n_wires <= 8):
        raise QueryError("QubitUnitary: bad matrix")
    try:
        m = decode_result(ps[0], tensors=False)
    except Exception:  # noqa: BLE001 - untrusted data
        raise QueryError("QubitUnitary: malformed matrix") from None
    dim = 2 ** n_wires
    if not (isinstance(m, numpy.ndarray) and m.shape == (dim, dim)
            and bool(numpy.all(numpy.isfinite(m)))):
        raise QueryError("QubitUnitary: the matrix does not match its wires")
    return m


def run_circuit(circuit, oracles, takes_wires, seed):
    """Execute a validated circuit (:func:`circuit_of`) with the real ``oracles`` (called with
    the placeholder's wires when ``takes_wires``) on a fresh device; the QNode's result.
    ``seed`` fixes the device's samples."""
    import numpy
    import pennylane as qml

    name, wires, shots, ops, ms = circuit
    numpy.random.seed(seed)
    try:
        dev = qml.device(name, wires=wires, shots=shots, seed=seed)
    except TypeError:  # older devices take no seed: they draw from numpy's global state
        dev = qml.device(name, wires=wires, shots=shots)

    def observable(obs):
        parts = [getattr(qml, n)(wires=ws) for n, ws in obs]
        out = parts[0]
        for p in parts[1:]:
            out = out @ p
        return out

    def apply_oracle(k, ws):
        if takes_wires:
            oracles[k](ws)
        else:
            oracles[k]()

    def qfunc():
        for op, ws, ps in ops:
            if op == ORACLE and len(ps) == 1:
                apply_oracle(ps[0], ws)
            elif op == ORACLE:  # under qml.ctrl: controls set to 0 are flipped around it
                flips = [w for w, v in zip(ps[1], ps[2]) if not v]
                for w in flips:
                    qml.PauliX(wires=w)
                qml.ctrl(apply_oracle, control=ps[1])(ps[0], ws)
                for w in flips:
                    qml.PauliX(wires=w)
            else:
                getattr(qml, op)(*ps, wires=ws)
        out = []
        for kind, ws, obs in ms:
            fn = getattr(qml, kind)
            if kind == "state":
                out.append(fn())
            elif obs is not None:
                out.append(fn(op=observable(obs)) if kind == "probs" else fn(observable(obs)))
            else:
                out.append(fn(wires=ws) if ws else fn())
        return out[0] if len(out) == 1 else tuple(out)

    return qml.QNode(qfunc, dev)()
