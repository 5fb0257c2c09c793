"""The wrong solution of QPC005_A2. Its one mistake: H controlled on |1...1> (ctrl_state=2 ** n -
1) instead of |0...0>."""

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import HGate


def solve(n):
    qc = QuantumCircuit(n + 1)
    qc.append(HGate().control(n, ctrl_state=2 ** n - 1, annotated=False), list(range(1, n + 1)) + [0])
    return qc
