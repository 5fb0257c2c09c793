# Weak upstream check (wrong on purpose): cloning_machine, whose gates check() reads, is one
# RX; the fidelities come from another circuit (the known-good one, renamed).
import pennylane as qml
import pennylane.numpy as np

# the template's device (it sits in the template's helper section)
dev = qml.device('default.qubit', wires=[0,1,2])


@qml.qnode(dev)
def _real(coefficients, wire):
    """Prepare |psi> = (c0+c1)/sqrt2 |00> + c1/sqrt2 |01> + c0/sqrt2 |11> on wires 1, 2 with
    RY on wire 2 and a controlled-RY (two RYs around two CNOTs) on wire 1, then apply the
    cloner CNOT(0,1), CNOT(0,2), CNOT(1,0), CNOT(2,0); return wire's reduced density matrix."""
    c0, c1 = coefficients
    a00, a01, a11 = (c0 + c1) / np.sqrt(2), c1 / np.sqrt(2), c0 / np.sqrt(2)
    theta = 2 * np.arctan2(np.sqrt(a01**2 + a11**2), a00)
    phi = 2 * np.arctan2(a11, a01)
    qml.Hadamard(wires=0)
    qml.Hadamard(wires=0)
    qml.RY(theta, wires=2)
    qml.RY(phi / 2, wires=1)
    qml.CNOT(wires=[2, 1])
    qml.RY(-phi / 2, wires=1)
    qml.CNOT(wires=[2, 1])

    qml.CNOT(wires=[0, 1])
    qml.CNOT(wires=[0, 2])
    qml.CNOT(wires=[1, 0])
    qml.CNOT(wires=[2, 0])
    return qml.density_matrix(wires=wire)


def fidelity(coefficients):
    """Fidelity with |0> of each output wire is the <0|rho|0> entry of its reduced state."""
    return np.array([np.real(_real(coefficients, w)[0, 0]) for w in (0, 1)])


@qml.qnode(dev)
def cloning_machine(coefficients, wire):
    qml.RX(0.1, wires=0)
    return qml.density_matrix(wires=wire)
