import pennylane as qml


@qml.qnode(dev)  # noqa: F821 (given by the template)
def noisy_BernsteinVazirani(lmbda):
    for w in range(5):
        noisy_Hadamard(lmbda, w)  # noqa: F821 (given by the template)
    qml.QubitUnitary(oracle_matrix, wires=range(5))  # noqa: F821 (given by the template)
    for w in range(5):
        noisy_Hadamard(lmbda, w)  # noqa: F821 (given by the template)
    return [qml.expval(qml.PauliZ(i)) for i in range(5)]
