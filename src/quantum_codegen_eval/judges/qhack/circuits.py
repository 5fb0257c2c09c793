"""Trusted checks over circuits (``check_trust == "circuit"``), for challenges whose official
``check()`` needs the solution's live objects.

The program's job calls the solution's quantum function once inside a ``QuantumTape`` and emits
its operations as data: name, wires, parameters (:mod:`.jobs.circuit_emit`, told what to emit by
:attr:`CircuitCheck.emit`). The trusted job rebuilds that circuit from gate names it knows and
decides with its own simulation what the official ``check()`` asserts
(:mod:`.jobs.circuit_check`, the check :attr:`CircuitCheck.check` names). Whatever the program
does to its own process, it can only pass by emitting a circuit that solves the challenge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .jobs.gates import STANDARD_GATES

__all__ = ["CIRCUIT_CHECKS", "STANDARD_GATES", "CircuitCheck", "replay_check"]


@dataclass(frozen=True)
class CircuitCheck:
    """``emit``: what the program's job emits (:func:`.jobs.circuit_emit.emit`: ``{"function":
    name}`` or ``{"calls": ...}``); ``check``: the name of the trusted job's check in
    :data:`.jobs.circuit_check.CHECKS`."""

    emit: dict[str, Any]
    check: str
    #: replay checks: the solution functions replayed; the trusted job also loads all given
    #: code, and the official run()/check() decide (names in ``forbid`` may not occur before
    #: expansion)
    replay: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()

    def check_spec(self) -> dict[str, Any]:
        """The trusted job's ``check`` argument (:mod:`.jobs.trusted`)."""
        return {"kind": "circuit", "name": self.check, "calls": self.emit.get("calls"),
                "forbid": self.forbid}


def replay_check(calls: dict[str, list[tuple]], forbid: tuple[str, ...] = ()) -> CircuitCheck:
    """A replay check. ``calls``: for each solution function, the positional argument tuples the
    harness calls it with (``[()]`` for an argument-less function); one circuit is emitted per
    call, and a call the harness makes that was not emitted is a wrong answer."""
    spec = {name: [[list(args), {}] for args in arg_list] for name, arg_list in calls.items()}
    return CircuitCheck(emit={"calls": spec}, check="replay", replay=tuple(calls), forbid=forbid)


CIRCUIT_CHECKS: dict[str, CircuitCheck] = {
    # only Hadamard, T and QFT (on 3 wires); probs[0] = probs[-1] = 1/2 on 5 wires
    "2024/mathematicians_at_resort": CircuitCheck(
        emit={"function": "circuit"}, check="mathematicians_at_resort"),
    # quantum functions called with known arguments: replayed under the official run()/check()
    "2023/bending_bennets_laws_200": replay_check({
        "encode": [(i, j, k) for i in range(2) for j in range(2) for k in range(2)],
        "decode": [()]}),
    "2023/bending_bennets_laws_400": replay_check({"zenda_operator": [()], "copier": [()],
                                                   "printer": [()]}),
    "2023/bending_bennets_laws_500": replay_check({"zenda_operator": [()], "reece_operator": [()],
                                                   "magic_operator": [()]}),
    "2024/three_shipping_companies": replay_check({"U": [()]}, forbid=("QubitUnitary",)),
}
