"""Recorded replay: trusted checks for challenges whose official ``check()`` calls the solution's
quantum functions with arguments (from the test, from random draws, oracles, mid-circuit
measurement values) or its small classical helpers.

The program's job installs recorders on the solution functions named by a :class:`RecordCheck`,
then runs the official ``run()`` and ``check()`` as the notebook would. Each call of a recorded
quantum function (a QNode's quantum function, or a plain one) is stored once per distinct
argument key (or, for a ``sequence`` check, every call in order) as data: its operations (name, wires, parameters; mid-circuit measurements,
``qml.cond`` conditions as truth tables over the measurements they read, ``qml.ctrl`` /
``qml.adjoint`` / ``qml.pow`` wrappers, oracle arguments as placeholders), its measurements and what it
returned. Each call of a recorded classical function stores its return value.

The trusted job loads the harness (imports, given code, the official ``run()`` and ``check()``),
replaces the solution functions with stand-ins that rebuild the recorded circuit for the call's
arguments (for a ``sequence`` check, the circuit of the call made at that position; QNodes under the template's own decorator and device, oracles substituted by the
harness's real ones) or return the recorded value, and runs the official ``run()`` (when no
classical solution code stands between it and the recorded functions) and ``check()``. What the
check measures is simulated there; a call the program did not record is a wrong answer. Random
draws of the harness see the same seeded stream in both processes: recorders restore the global
``numpy``/``random`` state after each solution call, and stand-ins draw nothing.

The jobs' code is :mod:`.jobs.recorder` (the program's job) and :mod:`.jobs.replay` (the trusted
job); this module says which challenges are judged so, with what (:meth:`RecordCheck.spec`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ...formats.qhack_template import parse as _parse
from .jobs.gates import REBUILDABLE
from .program import chunks_of

__all__ = ["REBUILDABLE", "RECORD_CHECKS", "RecordCheck", "decorators", "template_statements"]


@dataclass(frozen=True)
class RecordCheck:
    """A recorded-replay check.

    ``qfuncs``: solution quantum functions and QNodes recorded and replayed; ``values``: classical
    solution functions whose return values are recorded (``binary``: those of them taking one
    0/1 array, a shot, are also called on every bit pattern of it); ``rerun``: the trusted job
    runs the official ``run()`` (False when ``run()`` reaches classical solution code: the
    program's output is then compared); ``expand``: operations a stand-in cannot rebuild are
    decomposed first (off where the check restricts the gate set or counts operations: such an
    operation is then a wrong answer, as upstream); ``forbid``: names the recorded (not
    decomposed) operations may not have; ``classes``: the harness's own operation classes;
    ``hidden_draws``: the harness's random draws reach no argument of a recorded call, so the
    trusted job seeds them afresh (a circuit that read the draw in the program's process, e.g.
    the error the harness queued before it, is replayed against a draw it never saw);
    ``value_rules``: what a recorded classical value must be, per function: ``"number"`` (a
    finite real) or ``("numbers", n)`` (n finite reals), where the template asks it and another
    value would make the official check vacuous; ``state_cache``: a stand-in QNode on
    ``default.qubit`` simulates each distinct (recorded call, oracle matrices) once and draws
    every shot from that state with the device's own sampling (:mod:`.jobs.statecache`: the
    same draws from the same stream, bit-identical shots; the judge option ``state_cache=False``
    turns it off); ``oracle_memo``: the harness's oracle operation's ``matrix()`` is a function
    of its class definition (code and the values it closes over) and wires, as its text shows, so
    it is evaluated once per distinct one, in both jobs (:class:`.jobs.statecache.OracleMemo`;
    off with ``state_cache=False`` too); ``sequence``: every call of a quantum function is
    recorded in order and the trusted job replays the n-th call with the n-th record (made with
    the same arguments), not the first record of the call's arguments: the check hands each call
    an oracle of its own (an oracle argument is keyed by position only), and a circuit made by
    reading one is replayed against that one, as the contest ran it; ``open_oracle``: an oracle
    argument shows the harness oracle's own attributes (its closure, code, defaults), as the
    contest's did (where each call is replayed against its own oracle, or where
    ``earlier_tests`` keeps what a solution remembers across tests as the contest did);
    ``earlier_tests``: the program's job first runs the official ``run()`` of the public tests
    before its own, in order and unrecorded, as the contest's loop ran every test in one process
    (the judge runs each in a process of its own): a solution that keeps what an earlier test
    showed it (the first test's oracle) has it, as in the contest. Only where ``check()`` calls no
    solution code (the contest's loop ran it between the tests)."""

    qfuncs: tuple[str, ...]
    values: tuple[str, ...] = ()
    binary: tuple[str, ...] = ()
    rerun: bool = True
    expand: bool = True
    forbid: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    hidden_draws: bool = False
    value_rules: tuple[tuple[str, Any], ...] = ()
    state_cache: bool = False
    oracle_memo: bool = False
    sequence: bool = False
    open_oracle: bool = False
    earlier_tests: bool = False

    def spec(self, decorators: dict[str, list[str]] | None = None) -> dict[str, Any]:
        """The data of the job modules (:class:`.jobs.recorder.Recorder` in the program's job,
        :class:`.jobs.replay.Replay` in the trusted one, which also gets ``decorators``)."""
        return {"kind": "record", "qfuncs": self.qfuncs, "values": self.values,
                "binary": self.binary, "rerun": self.rerun, "expand": self.expand,
                "forbid": self.forbid, "classes": self.classes,
                "hidden_draws": self.hidden_draws, "value_rules": self.value_rules,
                "state_cache": self.state_cache, "oracle_memo": self.oracle_memo,
                "sequence": self.sequence, "open_oracle": self.open_oracle,
                "earlier_tests": self.earlier_tests, "decorators": decorators or {}}


RECORD_CHECKS: dict[str, RecordCheck] = {
    # quantum functions inside the harness's QNodes; setting_new_robot conditions on the
    # harness's mid-circuit measurement
    "2023/a_tale_of_timbits_400": RecordCheck(
        ("bell_preparation", "emergency_gate_U", "setting_new_robot")),
    "2023/fall_of_sqynet_100": RecordCheck(("trotterize",), forbid=("ApproxTimeEvolution",)),
    # only RX, RY, RZ, CNOT and depolarizing channels; random couplings in check()
    "2023/fall_of_sqynet_400": RecordCheck(("heisenberg_trotter",), expand=False),
    # 40,000 calls of model() on a grid; generate_coefficients() is classical
    # "a list of 8 different values": with fewer, check()'s loop over them proves nothing and a
    # constant model passes its continuity test
    "2023/office_hijinks_200": RecordCheck(
        ("model",), values=("generate_coefficients",),
        value_rules=(("generate_coefficients", ("numbers", 8)),)),
    # U() queues a PauliX on a random wire inside the harness's circuit, before circuit_right:
    # circuit_right could read it from the queue and undo it without correcting anything
    "2023/office_hijinks_300": RecordCheck(("circuit_left", "circuit_right"), hidden_draws=True),
    # check() draws 5,000 lazy workers and calls circuit(project_execution) and
    # process_output(shot) once each per draw in the program's process, as the contest did: each
    # call is replayed with its own record (a circuit that reads the working employees from the
    # oracle's closure, or a process_output that reads the lazy one from check()'s frame,
    # passes there: the record's weak_check). The oracle's matrix() reads only the three working
    # employees it closes over (oracle_memo); 5,000 trials see four oracles
    "2023/office_hijinks_400": RecordCheck(("circuit",), values=("process_output",),
                                           state_cache=True, oracle_memo=True, sequence=True,
                                           open_oracle=True),
    # process_output's answers go through np.allclose: an empty array per shot broadcasts to
    # nothing and passes. Each oracle's matrix() is a constant RY matrix (oracle_memo)
    "2023/office_hijinks_500": RecordCheck(("circuit",), values=("process_output",),
                                           binary=("process_output",),
                                           value_rules=(("process_output", "number"),),
                                           state_cache=True, oracle_memo=True),
    # check() draws 500 oracles and calls is_safe_configuration(oracle) twice with each (the
    # first call's tape is searched for QubitUnitary, the second one's probabilities compared) in
    # the program's process, as the contest did: as ruins_oasis (a circuit that reads the
    # buildings from the oracle's closure passes there: the record's weak_check)
    "2024/fireworks_qutropolis": RecordCheck(("is_safe_configuration",), sequence=True,
                                             open_oracle=True),
    # run() builds the oracle from the test's workers and calls circuit(oracle) in the
    # program's process, as the contest did (a circuit that reads the workers from the oracle,
    # its closure included, passes there: the record's weak_check); the contest ran the three
    # tests in one process (a circuit that keeps the first test's workers fails there)
    "2024/lazy_workers_terminal": RecordCheck(("circuit",), open_oracle=True,
                                              earlier_tests=True),
    # check() draws 100 oracles and calls circuit(oracle) twice with each (the first call's tape
    # counts the queries, the second one's probabilities are compared) in the program's process,
    # as the contest did: each call is replayed against the oracle it was made with, and the
    # oracle's closure is the program's to read (a circuit that reads the oracle passes there:
    # the record's weak_check)
    "2024/ruins_oasis": RecordCheck(("circuit",), sequence=True, open_oracle=True),
    # GHZ_fidelity (classical) computes the output: the program's output is compared
    "2024/GHZ_inn": RecordCheck(("GHZ_circuit",), rerun=False, expand=False),
    "2024/hockey_night_cave": RecordCheck(("save_percentage",), expand=False),
    "2024/market_quantum_trinkets": RecordCheck(("cloning_machine",), rerun=False, expand=False),
    "2024/to_view_or_not_to_view": RecordCheck(("or_circuit",)),
    "2024/wormhole_airdrome": RecordCheck(("wormhole_teleportation",), expand=False,
                                          classes=("fSim", "SQRTX", "SQRTY", "Wormhole")),
}


def template_statements(problem: Any) -> list[str]:
    """The template's own top-level statements inside its editable chunks (``dev = ...`` placed
    where the contestant writes helpers): the stand-ins' decorators may need them. Template text
    only; the trusted job runs each guarded (a statement that needs the contestant's code is
    skipped)."""
    out = []
    for chunk in chunks_of(problem):
        if chunk.kind != "editable":
            continue
        try:
            tree = _parse(chunk.text)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)):
                out.append(ast.unparse(node) + "\n")
    return out


def decorators(problem: Any, names: tuple[str, ...]) -> dict[str, list[str]]:
    """The decorators the template puts on each of ``names`` (``["qml.qnode(dev)"]``): the
    stand-in of a QNode is a QNode of the template's own device, never the solution's."""
    out: dict[str, list[str]] = {}
    for chunk in chunks_of(problem):
        if chunk.kind != "editable":
            continue
        try:
            tree = _parse(chunk.text)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in names and node.decorator_list:
                out[node.name] = [ast.unparse(d) for d in node.decorator_list]
    return out
