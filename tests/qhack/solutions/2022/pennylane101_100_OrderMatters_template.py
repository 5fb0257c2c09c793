import pennylane as qml
from pennylane import numpy as np


def compare_circuits(angles):
    """|<X> after RX(a0) then RY(a1)  -  <X> after RY(a1) then RX(a0)|."""
    dev = qml.device("default.qubit", wires=1)

    @qml.qnode(dev)
    def rx_then_ry(a, b):
        qml.RX(a, wires=0)
        qml.RY(b, wires=0)
        return qml.expval(qml.PauliX(0))

    @qml.qnode(dev)
    def ry_then_rx(a, b):
        qml.RY(b, wires=0)
        qml.RX(a, wires=0)
        return qml.expval(qml.PauliX(0))

    theta1, theta2 = angles[0], angles[1]
    return np.abs(rx_then_ry(theta1, theta2) - ry_then_rx(theta1, theta2))
