"""The wrong solution of QPC005_A3. Its one mistake: no X on qubit 0 first: flips qubit 0 when the
controls are 0 instead of when they are not."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n + 1)
    qc.mcx(list(range(1, n + 1)), 0, ctrl_state=0)
    return qc
