"""The program's side of a circuit check: the solution's quantum function called once inside a
``QuantumTape`` (an opaque placeholder for any oracle) and its operations emitted as data (name,
wires, parameters)."""

from . import payload
from .gates import ORACLE, STANDARD_GATES

STANDARD = set(STANDARD_GATES)
_ORACLE_CLASS = []


def oracle_class():
    """The placeholder operation the judge hands to the solution instead of a real oracle."""
    if not _ORACLE_CLASS:
        import pennylane as qml

        class QCEOracle(qml.operation.Operation):
            num_wires = getattr(qml.operation, "AnyWires", None)  # None on PennyLane >= 0.39
            grad_method = None
            num_params = 0

        _ORACLE_CLASS.append(QCEOracle)
    return _ORACLE_CLASS[0]


def placeholder_oracle(wires):
    return oracle_class()(wires=wires)


def _param(op, p):
    import pennylane as qml

    # a QubitUnitary keeps its matrix as given (the contest simulated it as written, unitary
    # or not); every other parameter is a real number
    return payload.encode(qml.math.to_numpy(p)) if op.name == "QubitUnitary" else float(p)


def tape_ops(fn, args=(), keep=None, limit=5000):
    import pennylane as qml

    fn = getattr(fn, "func", fn)
    with qml.tape.QuantumTape() as tape:
        fn(*args)
    names = [str(op.name) for op in tape.operations][:limit]
    if keep is not None:
        keep = set(keep) | {"QubitUnitary"}
        tape = tape.expand(depth=20, stop_at=lambda op: op.name in keep)
    ops = []
    for op in tape.operations:
        if len(ops) >= limit:
            raise ValueError(f"more than {limit} operations")
        ops.append([str(op.name), [w if isinstance(w, str) else int(w) for w in op.wires.tolist()],
                    [_param(op, p) for p in op.parameters]])
    return {"names": names, "ops": ops}


def emit(g, spec):
    """The data the trusted check reads (``g``: the program's globals). ``spec`` (the judge's):
    ``{"function": name}`` (its circuit as written), with ``"oracle": true`` (called with the
    placeholder, expanded to the standard gates), or ``{"calls": {name: [[args, {}], ...]}}`` (one
    expanded circuit per call, for a replay)."""
    if "calls" in spec:
        return {name: [tape_ops(g[name], tuple(args), STANDARD) for args, _ in todo]
                for name, todo in spec["calls"].items()}
    if spec.get("oracle"):
        return tape_ops(g[spec["function"]], (placeholder_oracle,), STANDARD | {ORACLE})
    return tape_ops(g[spec["function"]])
