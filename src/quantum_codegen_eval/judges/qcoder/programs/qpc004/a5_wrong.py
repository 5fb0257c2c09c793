"""The wrong solution of QPC004_A5. Its one mistake: the MCXs controlled on |1...1> (no
ctrl_state=0): adds 1 instead of subtracting 1."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    for i in reversed(range(1, n)):
        qc.mcx(list(range(i)), i)
    qc.x(0)
    return qc
