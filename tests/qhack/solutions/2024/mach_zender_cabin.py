import pennylane as qml
import pennylane.numpy as np


def beam_splitter(r):
    t = np.sqrt(1 - r ** 2)
    return np.array([[r, t], [t, -r]])


@qml.qnode(dev)  # noqa: F821 (given by the template)
def mz_interferometer(r):
    B = beam_splitter(r)
    qml.QubitUnitary(B, wires=0)
    m_a = qml.measure(0)
    qml.cond(m_a == 1, qml.QubitUnitary)(B, wires=0)
    return qml.probs([0])
