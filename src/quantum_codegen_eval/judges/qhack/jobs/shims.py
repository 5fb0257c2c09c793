"""The helpers a harness rewritten by ``judges/qhack/shims.py`` calls (``env="current"``): the
program's and the trusted job put :func:`helpers` into the harness's namespace after
:func:`install` (numpy 1's scalar printing; each QNode call's arguments recorded so that a harness
can still read ``qnode.tape``)."""


def install():
    """Patch this process for old harnesses (idempotent)."""
    import numpy as np
    import pennylane as qml

    if int(np.__version__.split(".")[0]) >= 2:  # str([np.float64(1.0)]) as numpy 1 printed it
        np.set_printoptions(legacy="1.25")
    if not hasattr(qml.QNode, "tape") and not getattr(qml.QNode, "_qce_recording", False):
        orig_call = qml.QNode.__call__

        def recording_call(self, *args, **kwargs):
            try:
                object.__setattr__(self, "_qce_last_call", (args, kwargs))
            except Exception:
                pass
            return orig_call(self, *args, **kwargs)

        qml.QNode.__call__ = recording_call
        qml.QNode._qce_recording = True


def helpers():
    """The names the rewritten harness calls (``_qce_tape`` and the others)."""
    return {"_qce_tape": tape, "_qce_num_wires": num_wires, "_qce_numpy": to_numpy,
            "_qce_inv": inv, "_qce_op_module": op_module, "_qce_hf": HF,
            "_qce_add_operation": add_operation, "_qce_broadcast": broadcast}


def tape(obj):
    import pennylane as qml

    if not isinstance(obj, qml.QNode):
        return obj.tape
    args, kwargs = getattr(obj, "_qce_last_call", ((), {}))
    return qml.workflow.construct_tape(obj)(*args, **kwargs)


def num_wires(obj):
    n = getattr(obj, "num_wires", None)
    return n if n is not None else len(obj.wires)


def to_numpy(x):
    import numpy as np

    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def inv(op):
    import pennylane as qml

    if not isinstance(op, qml.operation.Operator):
        return op.inv()
    qml.QueuingManager.remove(op)
    return qml.adjoint(op)


def op_module(obj):
    import pennylane as qml

    mod = obj.__module__
    if isinstance(obj, type) and issubclass(obj, qml.operation.Operator) and \
            mod.startswith("pennylane.ops."):
        # 0.2x kept parameter-free gates in ...non_parametric_ops; harnesses test for that name
        return ("pennylane.ops.qubit.non_parametric_ops" if obj.num_params == 0
                else "pennylane.ops.qubit.parametric_ops")
    return mod


class _Hf:
    """The removed ``pennylane.hf`` module, mapped onto ``qml.qchem``."""

    @staticmethod
    def generate_hamiltonian(mol, *a, **k):
        import pennylane as qml

        return qml.qchem.diff_hamiltonian(mol, *a, **k)

    def __getattr__(self, name):
        import pennylane as qml

        return getattr(qml.qchem, name)


HF = _Hf()


def add_operation(dev, name):
    ops = getattr(dev, "operations", None)
    if ops is not None and hasattr(ops, "add"):
        ops.add(name)


def broadcast(unitary, wires, pattern, parameters=None, kwargs=None):
    import pennylane as qml

    kwargs = kwargs or {}
    wires = qml.wires.Wires(wires)
    n = len(wires)
    if pattern == "single":
        groups = [[w] for w in wires]
    elif pattern == "double":
        groups = [[wires[i], wires[i + 1]] for i in range(0, n - 1, 2)]
    elif pattern == "double_odd":
        groups = [[wires[i], wires[i + 1]] for i in range(1, n - 1, 2)]
    elif pattern == "chain":
        groups = [[wires[i], wires[i + 1]] for i in range(n - 1)]
    elif pattern == "ring":
        groups = ([[wires[i], wires[(i + 1) % n]] for i in range(n)] if n > 2
                  else [[wires[0], wires[1]]] if n == 2 else [])
    elif pattern == "pyramid":
        groups = [[wires[i], wires[i + 1]] for layer in range(n // 2)
                  for i in range(layer, n - 1 - layer, 2)]
    elif pattern == "all_to_all":
        groups = [[wires[i], wires[j]] for i in range(n) for j in range(i + 1, n)]
    else:
        groups = [list(g) if isinstance(g, (list, tuple)) else [g] for g in pattern]
    for k, g in enumerate(groups):
        if parameters is None:
            unitary(wires=g, **kwargs)
        else:
            p = parameters[k]
            p = list(p) if isinstance(p, (list, tuple)) or getattr(p, "ndim", 0) else [p]
            unitary(*p, wires=g, **kwargs)
