"""The wrong solution of QPC003_B8. Its one mistake: one Grover iteration instead of the best
number k."""

from qiskit import QuantumCircuit

from ...jobs.ref_reflect import reflect0


def solve(n, o):
    qc = QuantumCircuit(n + 1)
    qc.x(n)
    qc.h(n)
    qc.h(range(n))
    for _ in range(1):
        qc.compose(o, inplace=True)
        qc.h(range(n))
        reflect0(qc, list(range(n)))
        qc.h(range(n))
    return qc
