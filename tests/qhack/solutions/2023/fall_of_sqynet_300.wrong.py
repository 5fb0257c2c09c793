import pennylane as qml

STEP = 0.05  # the time step dt of each channel


def half_life(gamma, p):
    num_wires = 1
    dev = qml.device("default.mixed", wires=num_wires)

    @qml.qnode(dev)
    def noise(gamma, n_steps):
        qml.Hadamard(wires=0)
        for _ in range(n_steps):
            qml.GeneralizedAmplitudeDamping(gamma * STEP, p, wires=0)
        return qml.probs(wires=0)

    def prob_one(n_steps):
        return noise(gamma, n_steps)[1]

    # P(1) falls monotonically from 1/2 towards 1 - p < 1/4: bisect on the number of steps
    lo, hi = 0, 1
    while prob_one(hi) > 0.25:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if prob_one(mid) > 0.25:
            lo = mid
        else:
            hi = mid
    return float(hi * STEP * gamma)
