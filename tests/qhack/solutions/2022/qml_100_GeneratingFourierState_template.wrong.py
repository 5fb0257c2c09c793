import pennylane as qml
from pennylane import numpy as np


def generating_fourier_state(n_qubits, m):
    dev = qml.device("default.qubit", wires=n_qubits)

    @qml.qnode(dev)
    def circuit(angles):
        """This is the quantum circuit that we will use."""

        # QFT|m> is a product state: qubit j is (|0> + e^{2 pi i m / 2^(j+1)} |1>) / sqrt(2),
        # an equal superposition followed by a z-rotation
        for i in range(n_qubits):
            qml.Hadamard(wires=i)
            qml.RZ(angles[i], wires=i)

        # We apply QFT^-1 to return to the computational basis.
        # This will help us to see how well we have done.
        qml.adjoint(qml.QFT)(wires=range(n_qubits))

        # We return the probabilities of seeing each basis state.
        return qml.probs(wires=range(n_qubits))

    def error(angles):
        """This function will determine, given a set of angles, how well it approximates
        the desired state. Here it will be necessary to call the circuit to work with these results.
        """

        probs = circuit(angles)
        # the probability of m should be 1
        return 1 - probs[m]

    # This subroutine will find the angles that minimize the error function.
    # Do not modify anything from here.

    opt = qml.AdamOptimizer(stepsize=0.8)
    epochs = 5000

    angles = np.zeros(n_qubits, requires_grad=True)

    for epoch in range(epochs):  # noqa: B007 (the template's loop, unchanged)
        angles = opt.step(error, angles)
        angles = np.clip(opt.step(error, angles), -2 * np.pi, 2 * np.pi)

    return circuit, angles
