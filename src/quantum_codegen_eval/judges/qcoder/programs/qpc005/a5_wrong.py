"""The wrong solution of QPC005_A5. Its one mistake: no increment after the X's: 2^n - 1 - k, not
-k mod 2^n."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(n)
    qc.x(range(n))
    return qc
