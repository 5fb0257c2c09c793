import pennylane as qml
from pennylane import numpy as np

dev = qml.device("default.qubit", wires=[0, 1, "sol"], shots=1)


def find_the_car(oracle):
    """Wrong on purpose: reads the door qubits in the wrong order."""

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
        qml.Hadamard(wires=0)
        return qml.sample()

    sol1 = circuit1()
    circuit2()
    bits = np.array(sol1).flatten()
    return int(bits[0] + 2 * bits[1] + 1) % 4
