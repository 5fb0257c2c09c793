"""The JSON circuit tree a returned circuit travels as when QPY cannot carry it (read back, on
the trusted side, by ``judges/qcoder/transport.py``; the format is described there).

Runs in the untrusted job (the harness) and in the tests. A program that patches this module
only changes how its own circuit is written: the trusted stage checks whatever it receives.
"""

from qiskit.circuit import ControlledGate, Gate, Instruction
from qiskit.circuit.annotated_operation import AnnotatedOperation

#: deepest definition nesting written (``transport.MAX_NESTING`` reads as deep)
MAX_LEVEL = 64


def enc_circ(c, level=0):
    """The tree of circuit ``c`` (``level``: the nesting depth it sits at)."""
    if level > MAX_LEVEL:
        raise ValueError("definitions nested too deeply")
    ops = [[enc_op(inst.operation, level + 1), [c.find_bit(q).index for q in inst.qubits]]
           for inst in c.data]
    return {"n": c.num_qubits, "c": c.num_clbits, "phase": float(c.global_phase), "ops": ops}


def enc_op(op, level):
    """The tree node of one operation."""
    k = getattr(op, "base_class", type(op))
    for base in k.__mro__:  # a class of the program's own travels as its Qiskit ancestor
        if str(getattr(base, "__module__", "")).startswith("qiskit."):
            k = base
            break
    d = {"cls": k.__name__, "name": op.name, "n": op.num_qubits,
         "c": getattr(op, "num_clbits", 0)}
    try:
        d["params"] = [float(p) for p in op.params]
    except (TypeError, ValueError):
        d["params"] = []
    # what QPY drops (an MCXVChain's dirty_ancillas, relative_phase): the read-back differs
    flags = [f for f in ("dirty_ancillas", "relative_phase", "action_only")
             if getattr(op, "_" + f, False) is True]
    if flags:
        d["flags"] = flags
    if isinstance(op, AnnotatedOperation):
        d.update(base=enc_op(op.base_op, level + 1), mods=[_modifier(m) for m in op.modifiers])
    elif isinstance(op, ControlledGate):
        d.update(nc=op.num_ctrl_qubits, state=op.ctrl_state)
        if type(op) is ControlledGate:
            d["base"] = enc_op(op.base_gate, level + 1)
    elif k in (Gate, Instruction) and op.definition is not None:
        d["def"] = enc_circ(op.definition, level + 1)
    return d


def _modifier(m):
    k = type(m).__name__
    if k == "InverseModifier":
        return ["inv"]
    if k == "ControlModifier":
        return ["ctrl", m.num_ctrl_qubits, m.ctrl_state]
    if k == "PowerModifier":
        return ["pow", float(m.power)]
    return [k]
