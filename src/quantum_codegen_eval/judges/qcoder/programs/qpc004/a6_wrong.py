"""The wrong solution of QPC004_A6. Its one mistake: the gate sequence with qubits 0 and 1
exchanged."""

from qiskit import QuantumCircuit


def solve():
    qc = QuantumCircuit(2)
    qc.u(1.1071487177940902, -1.5707963267948948, 0.0, 1)
    qc.u(1.5707963267948986, 0.0, 0.7853981633974496, 0)
    qc.cx(1, 0)
    qc.u(3.141592653589793, -3.141592653589793, -1.5707963267948966, 1)
    qc.u(1.738244406014586, 2.134738968155525, -2.134738968155525, 0)
    qc.cx(1, 0)
    qc.u(1.1071487177940909, 0.0, 0.0, 1)
    qc.u(0.7853981633974483, -1.5707963267948983, 1.5707963267948966, 0)
    return qc
