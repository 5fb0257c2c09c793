import pennylane as qml
from pennylane import numpy as np

dev = qml.device("default.qubit", wires=["hour", "minute"])


@qml.qnode(dev)
def time(hour, minute):
    """Wrong on purpose: the hour hand ignores the minutes (at 1:30 it points at 1, not 1.5)."""
    qml.RY(2 * np.pi * hour / 12, wires="hour")
    qml.RY(2 * np.pi * minute / 60, wires="minute")
    return qml.probs(wires=["hour", "minute"])
