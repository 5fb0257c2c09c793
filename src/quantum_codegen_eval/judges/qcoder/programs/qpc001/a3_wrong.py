"""The wrong solution of QPC001_A3 and QPC001_A5. Its one mistake: H on both qubits and no CX: the
uniform product state, not the Bell state."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.h(1)
    return qc
