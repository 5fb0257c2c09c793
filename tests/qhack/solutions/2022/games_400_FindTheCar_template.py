import pennylane as qml
from pennylane import numpy as np

dev = qml.device("default.qubit", wires=[0, 1, "sol"], shots=1)


def find_the_car(oracle):
    """One Grover iteration on the two door qubits finds the marked door with certainty."""

    def grover():
        qml.PauliX(wires="sol")
        qml.Hadamard(wires="sol")
        qml.Hadamard(wires=0)
        qml.Hadamard(wires=1)
        oracle()
        for wire in (0, 1):
            qml.Hadamard(wires=wire)
            qml.PauliX(wires=wire)
        qml.CZ(wires=[0, 1])
        for wire in (0, 1):
            qml.PauliX(wires=wire)
            qml.Hadamard(wires=wire)

    @qml.qnode(dev)
    def circuit1():
        grover()
        return qml.sample()

    @qml.qnode(dev)
    def circuit2():
        grover()
        return qml.sample()

    sol1 = circuit1()
    sol2 = circuit2()
    bits = np.array(sol1).flatten()
    assert list(bits[:2]) == list(np.array(sol2).flatten()[:2])
    return int(2 * bits[0] + bits[1])
