import itertools

import pennylane as qml


def circuit(oracle):
    """Wrong on purpose: reads the non-lazy workers out of the oracle's decomposition (the matrix
    built from them) and sets two of their bits, with no quantum search."""
    op = oracle(wires=range(9))
    matrix = qml.matrix(op.decomposition()[1].base)
    for a, b in itertools.combinations(range(8), 2):
        x = (1 << (7 - a)) | (1 << (7 - b))
        if matrix[x, x] == -1:
            qml.PauliX(wires=a)
            qml.PauliX(wires=b)
            return
