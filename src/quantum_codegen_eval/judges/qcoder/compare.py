"""The acceptance test shared by the specs (trusted side only).

Acceptance: ``||out - e^{i phi} ref||^2 <= TOL * ||ref||^2`` over the tested columns taken
together (one common phase; ``phi`` free when the global phase is ignored, 0 when it counts).

>>> import numpy as np
>>> compare_vectors(np.array([0, 1j]), np.array([0, 1]), counted=False)[0]
True
>>> compare_vectors(np.array([0, 1j]), np.array([0, 1]), counted=True)[0]
False
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
