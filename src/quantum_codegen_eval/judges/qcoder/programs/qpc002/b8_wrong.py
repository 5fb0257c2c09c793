"""The wrong solution of QPC002_B8. Its one mistake: PhaseGate(-theta): the phase has the wrong
sign."""

from qiskit import QuantumCircuit
from qiskit.circuit.library.standard_gates import PhaseGate

from ...jobs.ref_adder import _phases, _qinv
from ...jobs.ref_lib import _ctrl


def solve(n, m, L, S, theta):
    c = QuantumCircuit(n + m)
    c.h(range(n, n + m))
    _phases(c, n, m, S)
    _qinv(c, n, m)
    qc = QuantumCircuit(n + m)
    qc.compose(c, inplace=True)
    zeros = [n + q for q in range(m) if not (L >> q) & 1]
    for q in zeros:
        qc.x(q)
    _ctrl(qc, PhaseGate(-theta), range(n, n + m - 1), [n + m - 1])
    for q in zeros:
        qc.x(q)
    qc.compose(c.inverse(), inplace=True)
    return qc
