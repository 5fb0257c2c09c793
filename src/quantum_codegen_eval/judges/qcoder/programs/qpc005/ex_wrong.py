"""The wrong solution of QPC005_Ex. Its one mistake: the parameters in the wrong order (after
before before)."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import add_const, increment


def solve(n, m_after, k_after, m_before, k_before):
    N = 2 ** n
    qc = QuantumCircuit(n + 1)
    ks = list(range(1, n + 1))
    ca = (k_after - m_after) % N
    cb = (k_before - m_before) % N
    add_const(qc, ks, [(ca, []), (-2 * ca - 1, [0])])
    if m_before:
        qc.x(ks)
        increment(qc, ks)
    if m_after ^ m_before:
        qc.x(0)
    add_const(qc, ks, [(cb, []), (1, [0])])
    return qc
