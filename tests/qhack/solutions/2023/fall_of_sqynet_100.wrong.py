import pennylane as qml


@qml.qnode(dev)  # noqa: F821 (dev is the template's)
def trotterize(alpha, beta, time, depth):
    """Trotterized exp(-i t (alpha X0X1 + beta Z0Z1)): `depth` steps, each
    exp(-i alpha dt XX) exp(-i beta dt ZZ) with dt = time / depth; IsingXX(phi) = exp(-i phi/2 XX),
    so each step's angles are 2 alpha dt and 2 beta dt.

    Wrong on purpose: every step evolves for the whole time instead of time / depth."""
    dt = time
    for _ in range(depth):
        qml.IsingXX(2 * alpha * dt, wires=[0, 1])
        qml.IsingZZ(2 * beta * dt, wires=[0, 1])
    return qml.probs(wires=[0, 1])
