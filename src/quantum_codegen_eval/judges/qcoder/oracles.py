"""The oracles a QCoder case hands to ``solve()``: what the sandbox gets, what the judge keeps.

The sandbox gets, per oracle argument, a *public* description only: a gate name made of the
oracle's role and a per-run nonce (``qcoder_oracle_<nonce>``), its width and its parameter count.
The harness builds an opaque gate from it (an empty placeholder definition, so that
``inverse()``/``control()`` work and reveal nothing). The judge keeps the hidden semantics,
keyed by the same names (plus ``_dg`` for inverses). Any gate carrying the name *is* a use of the
oracle (substituted and counted); a gate named otherwise is the program's own gate.

>>> public_name("qcoder_oracle", "ab12"), public_name("qcoder_oracle_dg", "ab12")
('qcoder_oracle_ab12', 'qcoder_oracle_ab12_dg')
"""

from __future__ import annotations

from typing import Any

from .simulate import Oracle

#: spec role -> (width from n, parameter count, factory: solve() gets a function)
_ROLES = {"bitflip": ("qcoder_oracle", 1, 0, False), "phase": ("qcoder_oracle", 0, 0, False)}
_PAIR_ROLES = {0: ("qcoder_U", 0, 0, True), 1: ("qcoder_R", 0, 1, True)}


def public_name(key: str, nonce: str) -> str:
    return f"{key[:-3]}_{nonce}_dg" if key.endswith("_dg") else f"{key}_{nonce}"


def _roles(spec: Any, case: dict) -> dict[str, tuple[str, int, int, bool]]:
    """arg name -> (spec key, width, parameter count, factory)."""
    out = {}
    for arg, desc in case.get("oracles", {}).items():
        key, extra, n_par, factory = _ROLES[desc["type"]]
        out[arg] = (key, desc["n"] + extra, n_par, factory)
    for arg, (desc, index) in case.get("pair", {}).items():
        key, extra, n_par, factory = _PAIR_ROLES[index]
        out[arg] = (key, desc["n"] + extra, n_par, factory)
    return out


def public_oracles(spec: Any, case: dict, nonce: str) -> dict[str, dict[str, Any]]:
    """What the sandbox may know about each oracle argument of ``case``."""
    return {arg: {"arg": arg, "gate": public_name(key, nonce), "qubits": width,
                  "params": n_par, "factory": factory}
            for arg, (key, width, n_par, factory) in _roles(spec, case).items()}


def trusted_oracles(spec: Any, case: dict, nonce: str) -> dict[str, Oracle]:
    """The hidden oracles of ``case`` by their public gate names (and ``_dg``)."""
    sem = spec.trusted(case)
    out: dict[str, Oracle] = {}
    for key, width, n_par, _factory in _roles(spec, case).values():
        for k in (key, key + "_dg"):
            if k in sem:
                out[public_name(k, nonce)] = Oracle(width, n_par, sem[k], k in spec.query_gates)
    return out
