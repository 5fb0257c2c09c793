"""The acceptance test shared by the specs (trusted side only).

Acceptance: ``||out - e^{i phi} ref||^2 <= TOL * ||ref||^2`` over the tested columns taken
together (one common phase; ``phi`` free when the global phase is ignored, 0 when it counts).

>>> import numpy as np
>>> compare_vectors(np.array([0, 1j]), np.array([0, 1]), counted=False)[0]
True
>>> compare_vectors(np.array([0, 1j]), np.array([0, 1]), counted=True)[0]
False

The fidelity of the partial credit (:func:`fidelity`, docs/metrics/fidelity.md) uses the same
columns: ``|<ref|out>|^2 / (||ref||^2 ||out||^2)`` where the global phase is free (a state's
fidelity; over all columns of a unitary, the process fidelity ``|Tr(U^dagger V)|^2 / d^2``), and
``max(0, Re <ref|out>)^2 / (||ref||^2 ||out||^2)`` where it counts (1 only with the right phase).

>>> fidelity(np.array([0, 1j]), np.array([0, 1]), counted=False)
1.0
>>> fidelity(np.array([0, 1j]), np.array([0, 1]), counted=True)
0.0
"""

from __future__ import annotations

import numpy as np

TOL = 1e-6


def compare_vectors(out: np.ndarray, ref: np.ndarray, counted: bool) -> tuple[bool, float, str]:
    """(accepted, fidelity, message) for ``out`` against ``ref`` (see the module docstring)."""
    o, t = out.ravel(), ref.ravel()
    if o.shape != t.shape:
        return False, 0.0, f"{o.size} amplitudes where {t.size} were expected"
    nt, no = float(np.vdot(t, t).real), float(np.vdot(o, o).real)
    ov = np.vdot(t, o)
    fid = float(abs(ov) ** 2 / (nt * no)) if nt and no else 0.0
    phase = 1.0 if counted else (ov / abs(ov) if abs(ov) > 1e-300 else 1.0)
    err = float(np.vdot(o - phase * t, o - phase * t).real) / nt
    if err <= TOL:
        return True, fid, ""
    if counted and fid >= 1 - TOL:
        return False, fid, f"correct up to a global phase e^(i*{np.angle(ov):.4f}), which counts here"
    what = "state" if ref.ndim == 1 or ref.shape[1] == 1 else "operation"
    return False, fid, f"fidelity {fid:.6f} with the expected {what}"


def fidelity(out: np.ndarray, ref: np.ndarray, counted: bool) -> float:
    """The partial-credit fidelity of ``out`` against ``ref`` (see the module docstring)."""
    o, t = out.ravel(), ref.ravel()
    nt, no = float(np.vdot(t, t).real), float(np.vdot(o, o).real)
    if o.shape != t.shape or not nt or not no:
        return 0.0
    ov = np.vdot(t, o)
    top = max(0.0, float(ov.real)) ** 2 if counted else float(abs(ov)) ** 2
    return min(1.0, top / (nt * no))
