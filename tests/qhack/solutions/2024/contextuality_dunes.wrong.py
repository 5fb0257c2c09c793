import pennylane as qml
import pennylane.numpy as np

dev = qml.device("default.qutrit", wires=1)


def _householder(target):
    """A real orthogonal 3x3 matrix whose first column is the unit vector ``target``."""
    v = np.array([1.0, 0.0, 0.0]) - target
    norm = np.dot(v, v)
    if norm < 1e-12:
        return np.eye(3)
    return np.eye(3) - 2 * np.outer(v, v) / norm


@qml.qnode(dev)
def prepare_qutrit(chi, eta):
    """Prepare sin(chi)cos(eta)|0> + sin(chi)sin(eta)|1> + cos(chi)|2>; qutrit probabilities."""
    phi = np.array([np.sin(chi) * np.cos(eta), np.sin(chi) * np.sin(eta), np.cos(chi)])
    qml.QutritUnitary(_householder(phi), wires=0)
    return qml.probs(wires=0)


def evaluate_sum(chi, eta_array):
    """Wrong on purpose: sums the |0> probabilities instead of |2>.

    S = sum_j |<2|phi(chi, eta_j)>|^2."""
    return float(sum(prepare_qutrit(chi, eta)[0] for eta in eta_array))
