"""The wrong solution of QPC002_A2. Its one mistake: no X before the H: (|00> + |11>)/sqrt 2, not
(|00> - |11>)/sqrt 2."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.cx(0, 1)
    return qc
