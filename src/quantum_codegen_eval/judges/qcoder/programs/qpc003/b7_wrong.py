"""The wrong solution of QPC003_B7. Its one mistake: RY(2 T[i]) on both sides instead of RY(-2
T[i]) then RY(2 T[i])."""

from qiskit import QuantumCircuit

from ...jobs.ref_reflect import reflect0


def solve(n, T):
    qc = QuantumCircuit(n)
    for i in range(n):
        qc.ry(2 * T[i], i)
    reflect0(qc, list(range(n)))
    for i in range(n):
        qc.ry(2 * T[i], i)
    return qc
