"""The wrong solution of QPC004_C5. Its one mistake: no X on the work register: it starts at 0, not
1."""

from qiskit import QuantumCircuit

from ...jobs.ref_lib import mod_mul


def solve(n, m, a, L):
    qc = QuantumCircuit(n + 2 * m + 1)
    xs = list(range(n, n + m))
    low = list(range(n + m, n + 2 * m))
    top = n + 2 * m
    qc.h(range(n))
    for j in range(n):
        mod_mul(qc, xs, low, top, pow(a, 2 ** j, L), L, [j])
    return qc
