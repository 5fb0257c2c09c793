"""The wrong solution of QPC004_A7. Its one mistake: QPC004_A6's gates with the qubits of each pair
exchanged (n + i, i)."""

from qiskit import QuantumCircuit


def solve(n):
    qc = QuantumCircuit(2 * n)
    for i in range(n):
        qc.u(1.1071487177940902, -1.5707963267948948, 0.0, n + i)
        qc.u(1.5707963267948986, 0.0, 0.7853981633974496, i)
        qc.cx(n + i, i)
        qc.u(3.141592653589793, -3.141592653589793, -1.5707963267948966, n + i)
        qc.u(1.738244406014586, 2.134738968155525, -2.134738968155525, i)
        qc.cx(n + i, i)
        qc.u(1.1071487177940909, 0.0, 0.0, n + i)
        qc.u(0.7853981633974483, -1.5707963267948983, 1.5707963267948966, i)
    return qc
