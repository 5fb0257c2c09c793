"""The reference solution of QPC005_A2."""

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import HGate


def solve(n):
    qc = QuantumCircuit(n + 1)
    qc.append(HGate().control(n, ctrl_state=0, annotated=False), list(range(1, n + 1)) + [0])
    return qc
