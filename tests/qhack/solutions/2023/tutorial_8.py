import pennylane as qml


@qml.qnode(dev)  # noqa: F821 (the template's device)
def circuit(angles):
    theta_0, theta_1, theta_2, theta_3 = angles
    for w in range(4):
        qml.Hadamard(wires=w)
    qml.RX(theta_0, wires=0)
    qml.CNOT(wires=[0, 1])
    qml.CNOT(wires=[2, 3])
    m_0 = qml.measure(0)
    m_2 = qml.measure(2)
    qml.cond(m_0 + m_2 >= 1, qml.U3)(theta_1, theta_2, theta_3, wires=3)
    qml.PauliZ(wires=3)
    return qml.probs(wires=3)
