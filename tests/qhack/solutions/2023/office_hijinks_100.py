import pennylane as qml
from pennylane import numpy as np


@qml.qnode(dev)  # noqa: F821 (the template's device)
def time(hour, minute):
    """A hand at clock angle phi (clockwise from 12h) is the real state RY(phi)|0>: 12h is |0>,
    6h is |1> and 9h (phi = 3 pi / 2) is |+> up to a sign. The hour hand moves on with the
    minutes, so it sits at 2 pi (hour + minute / 60) / 12; the minute hand at 2 pi minute / 60."""
    qml.RY(2 * np.pi * (hour + minute / 60) / 12, wires="hour")
    qml.RY(2 * np.pi * minute / 60, wires="minute")
    return qml.probs(wires=["hour", "minute"])
