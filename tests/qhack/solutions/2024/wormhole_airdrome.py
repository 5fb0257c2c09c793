# ruff: noqa: F821 - SQRTX, SQRTY, fSim, Wormhole and dev are the template's
import pennylane as qml
import pennylane.numpy as np

# Every rotation the circuit needs is a multiple of pi/2 (t/n = 1 and H has pi/4 weights), so
# everything is built from SQRTX = RX(pi/2), SQRTY = RY(pi/2) and fSim, up to global phases.


def rx_quarter(k, wire):
    """RX(k pi/2) as k SQRTX gates."""
    for _ in range(k % 4):
        SQRTX(wires=wire)


def ry_quarter(k, wire):
    """RY(k pi/2) as k SQRTY gates."""
    for _ in range(k % 4):
        SQRTY(wires=wire)


def rz_quarter(k, wire):
    """RZ(k pi/2) = RX(pi/2) RY(k pi/2) RX(-pi/2)."""
    rx_quarter(-1, wire)
    ry_quarter(k, wire)
    rx_quarter(1, wire)


def hadamard(wire):
    """H = X RY(pi/2) (up to phase)."""
    ry_quarter(1, wire)
    rx_quarter(2, wire)


def cz(a, b):
    """CZ = fSim(0, pi)."""
    fSim(0, np.pi, wires=[a, b])


def cnot(control, target):
    """CNOT = H_t CZ H_t."""
    hadamard(target)
    cz(control, target)
    hadamard(target)


def swap(a, b):
    """fSim(pi/2, pi) = SWAP (S^dagger x S^dagger), so SWAP = fSim(pi/2, pi) (S x S)."""
    rz_quarter(1, a)
    rz_quarter(1, b)
    fSim(np.pi / 2, np.pi, wires=[a, b])


def zz_quarter(sign, a, b):
    """exp(i sign pi/4 Z Z) = CZ (RZ(-sign pi/2) x RZ(-sign pi/2)) (up to phase)."""
    rz_quarter(-sign, a)
    rz_quarter(-sign, b)
    cz(a, b)


def evolution(sign, wires, n=3):
    """U(sign * 3) for H = -pi/4 (Z0 Z1 + Z1 Z2 + X0 + X1 + X2), Trotterized in n = 3 steps:
    each step is exp(i sign pi/4 ZZ) on both neighbour pairs, then RX(-sign pi/2) on each wire."""
    for _ in range(n):
        zz_quarter(sign, wires[0], wires[1])
        zz_quarter(sign, wires[1], wires[2])
        for w in wires:
            rx_quarter(-sign, w)


@qml.qnode(dev)
def wormhole_teleportation(g):
    """Bell pairs (0,5), (1,4), (2,3); U(-t) on 0-2; SWAP(0, 6) brings in |0>; U(t) on 0-2;
    the Wormhole gate on 1-4; U(t) on 3-5; <Z> on wire 5."""
    for a, b in [(0, 5), (1, 4), (2, 3)]:
        hadamard(a)
        cnot(a, b)
    evolution(-1, [0, 1, 2])
    swap(0, 6)
    evolution(1, [0, 1, 2])
    Wormhole(g, wires=[1, 2, 3, 4])
    evolution(1, [3, 4, 5])
    return qml.expval(qml.PauliZ(5))
