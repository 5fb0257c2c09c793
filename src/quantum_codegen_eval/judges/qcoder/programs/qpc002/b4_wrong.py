"""The wrong solution of QPC002_B4. Its one mistake: the QFT without the final reversal of the
qubits."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import qft_noswap


def solve(n):
    qc = QuantumCircuit(n)
    qft_noswap(qc, list(range(n)))
    return qc
