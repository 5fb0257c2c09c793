import pennylane as qml
from pennylane import numpy as np


@qml.qnode(dev)  # noqa: F821 (the template's device)
def time(hour, minute):
    """Wrong on purpose: the clock angle is taken as the angle of the amplitudes
    (cos phi |0> + sin phi |1>), forgetting that RY(t) turns the amplitudes by t / 2; every hand
    goes twice as far round the Bloch circumference."""
    qml.RY(4 * np.pi * (hour + minute / 60) / 12, wires="hour")
    qml.RY(4 * np.pi * minute / 60, wires="minute")
    return qml.probs(wires=["hour", "minute"])
