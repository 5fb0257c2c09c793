import pennylane as qml
from pennylane import numpy as np


def qfunc_adder(m, wires):
    qml.QFT(wires=wires)
    for j, w in enumerate(wires):
        qml.PhaseShift(2 * np.pi * m / 2 ** (j + 1), wires=w)
    qml.QFT(wires=wires).inv()
