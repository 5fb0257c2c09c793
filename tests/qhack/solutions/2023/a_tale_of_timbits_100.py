import pennylane as qml


@qml.qnode(dev)
def noisy_BernsteinVazirani(lmbda):
    for w in range(5):
        noisy_Hadamard(lmbda, w)
    qml.QubitUnitary(oracle_matrix, wires=range(5))
    for w in range(5):
        noisy_Hadamard(lmbda, w)
    return [qml.expval(qml.PauliZ(i)) for i in range(5)]
