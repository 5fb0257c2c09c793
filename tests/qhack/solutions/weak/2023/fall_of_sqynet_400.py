# Weak upstream check (wrong on purpose): the depolarizing noise is dropped (probability
# 0 * p); the fidelity is then 1, which check() accepts as >= every expected value.
import pennylane as qml
from pennylane import numpy as np


def _cnot(control, target, p):
    """CNOT followed by depolarizing noise of probability p on its target."""
    qml.CNOT(wires=[control, target])
    qml.DepolarizingChannel(0 * p, wires=target)


def _zz(theta, a, b, p):
    """exp(-i theta/2 Z_a Z_b) with two CNOTs: the parity of a and b is rotated by RZ on b."""
    _cnot(a, b, p)
    qml.RZ(theta, wires=b)
    _cnot(a, b, p)


def _xx(theta, a, b, p):
    """exp(-i theta/2 X_a X_b): RY(pi/2) Z RY(-pi/2) = X, so the ZZ rotation in the rotated basis."""
    for w in (a, b):
        qml.RY(-np.pi / 2, wires=w)
    _zz(theta, a, b, p)
    for w in (a, b):
        qml.RY(np.pi / 2, wires=w)


def _yy(theta, a, b, p):
    """exp(-i theta/2 Y_a Y_b): RX(-pi/2) Z RX(pi/2) = Y, so the ZZ rotation in the rotated basis."""
    for w in (a, b):
        qml.RX(np.pi / 2, wires=w)
    _zz(theta, a, b, p)
    for w in (a, b):
        qml.RX(-np.pi / 2, wires=w)


@qml.qnode(dev)  # noqa: F821 (dev is the template's)
def heisenberg_trotter(couplings, p, time, depth):
    """First-order Trotterization of H = -sum_i (Jx XX + Jy YY + Jz ZZ)_{i,i+1} - h sum_i X_i on
    the ring of 4 wires. Each step applies exp(-i c dt P) for every term in the same order as
    qml.ApproxTimeEvolution does for this Hamiltonian (all XX, all YY, all ZZ, then the field),
    so the noiseless circuit is the same product; every two-qubit term costs two CNOTs, each
    followed by a depolarizing channel on its target."""
    jx, jy, jz, h = couplings
    dt = time / depth
    for _ in range(depth):
        for i in range(4):
            _xx(-2 * jx * dt, i, (i + 1) % 4, p)
        for i in range(4):
            _yy(-2 * jy * dt, i, (i + 1) % 4, p)
        for i in range(4):
            _zz(-2 * jz * dt, i, (i + 1) % 4, p)
        for i in range(4):
            qml.RX(-2 * h * dt, wires=i)
    return qml.state()
