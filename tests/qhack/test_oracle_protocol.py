"""The hidden-oracle rounds (judges/qhack/oracle.py and its job modules), without a sandbox: the
stage walk, the trusted job's validation of hostile queries, what a placeholder holds, and a
query built and answered with today's PennyLane. The judged rounds, red team and known-good
solutions are in test_oracle_queries.py."""

from __future__ import annotations

import json
import math

import pytest

from quantum_codegen_eval.execution.types import RunResult
from quantum_codegen_eval.judges.base import stage_limit
from quantum_codegen_eval.judges.qhack import oracle
from quantum_codegen_eval.judges.qhack.jobs import oracle_answer, oracle_circuit, oracle_program
from quantum_codegen_eval.judges.qhack.judge import QHackJudge

RESULT = oracle_program.RESULT_FILE
CHECKED = oracle_answer.CHECKED_FILE
GOOD_QUERY = {"device": {"name": "default.qubit", "wires": [0, 1, 2], "shots": 1},
              "ops": [["Hadamard", [0], []], ["QCEOracle", [0, 1, 2], [0]],
                      ["RX", [1], [0.5]]],
              "measurements": [["Sample", [0, 1], None]]}


def _program(data) -> RunResult:
    return RunResult(id="p", status="ok", exit_code=0, files={RESULT: json.dumps(data).encode()})


def _answers(*answers) -> RunResult:
    body = {"answers": [[a] for a in answers]}
    return RunResult(id="t", status="ok", exit_code=0, files={CHECKED: json.dumps(body).encode()})


def _walk(results, n=2):
    return oracle.step(n, results, RESULT, lambda r, count: oracle.answers_in(r, CHECKED, count),
                       lambda i, answers: ("program", i, answers),
                       lambda asks: ("trusted", asks))


def test_rounds_follow_the_results():
    q0, q1 = {"n": 0}, {"n": 1}
    first = [_program({"query": q0}), _program({"stdout": "done\n"})]
    # test 0 asked: one trusted job, for test 0's first query
    assert _walk(first) == [("trusted", [(0, 0, q0)])]
    trusted = _answers({"result": {"x": 1}})
    assert _walk(first + [trusted]) == [("program", 0, [{"query": q0, "result": {"x": 1}}])]
    again = _program({"query": q1})
    nxt = _walk(first + [trusted, again])
    assert nxt == [("trusted", [(0, 1, q1)])]
    second = _answers({"error": {"type": "ValueError", "message": "m"}})
    last = _program({"stdout": "balanced\n"})
    assert _walk(first + [trusted, again, second]) == [("program", 0, [
        {"query": q0, "result": {"x": 1}},
        {"query": q1, "error": {"type": "ValueError", "message": "m"}}])]
    out = _walk(first + [trusted, again, second, last])
    assert isinstance(out, oracle.Final)
    assert out.results == [last, first[1]] and out.queries == [2, 0]


def test_a_failed_trusted_job_is_not_an_answer():
    first = [_program({"query": {"n": 0}}), _program({"stdout": ""})]
    broken = RunResult(id="t", status="error", exit_code=1, files={})
    with pytest.raises(RuntimeError, match="trusted oracle job failed"):
        _walk(first + [broken])
    forged = _answers({"result": 1}, {"result": 2})  # two answers for one question
    with pytest.raises(RuntimeError):
        _walk(first + [forged])


def test_circuits_too_heavy_for_the_trusted_job_are_the_programs_time():
    """A query can be made as costly as the program likes; past the trusted job's limits the
    asking tests end with that job's status (TLE / MLE), not with a judge error."""
    first = [_program({"query": {"n": 0}}), _program({"stdout": "x\n"})]
    for status in ("timeout", "memory"):
        slow = RunResult(id="t", status=status, files={})
        out = _walk(first + [slow])
        assert isinstance(out, oracle.Final)
        assert out.results == [slow, first[1]] and out.queries == [1, 0]


def test_more_queries_than_stages_is_a_judge_limit():
    results = [_program({"query": {"n": 0}})]
    for k in range(oracle.MAX_QUERIES):
        results += [_answers({"result": k}), _program({"query": {"n": k + 1}})]
    out = _walk(results, n=1)
    assert isinstance(out, oracle.Limit) and "judge limit" in out.message
    # the stages it took are the ones the judge declares (the drivers' bound: base.stage_limit)
    assert len(results) == oracle.STAGES <= stage_limit(QHackJudge(env="current"))


@pytest.mark.parametrize("data", [b"", b"null", b"[]", b'{"query": 5}', b'{"query": []}',
                                  b"[" * 100_000, b"\xff\xfe", b'{"stdout": "x"}'])
def test_a_round_without_a_readable_query_is_the_tests_result(data):
    r = RunResult(id="p", status="ok", exit_code=0, files={RESULT: data})
    assert oracle.query_in(r, RESULT) is None
    assert oracle.query_in(RunResult(id="p", status="timeout",
                                     files={RESULT: b'{"query": {}}'}), RESULT) is None


def _hostile_queries():
    base = GOOD_QUERY
    out = [None, 5, "x", [], {}, {"device": 5}, {"device": {"name": "my.device"}}]
    dev = dict(base, device={"name": "default.qubit", "wires": list(range(40)), "shots": 1})
    out += [dev, dict(base, device={"name": "default.qubit", "wires": [0, 0], "shots": 1}),
            dict(base, device={"name": "default.qubit", "wires": [0, 1, 2], "shots": 10 ** 12}),
            dict(base, device={"name": "default.qubit", "wires": [0, 1, 2], "shots": 1.5}),
            dict(base, device={"name": "default.qubit", "wires": [[0]], "shots": 1})]
    ops = [[["Hadamard", [7], []]], [["Hadamard", [0, 0], []]], [["RX", [0], ["nan"]]],
           [["RX", [0], [math.inf]]], [["RX", [0], []]], [["os.system", [0], []]],
           [["QCEOracle", [0], [5]]], [["QCEOracle", [0], [-1]]], [["QCEOracle", [0], [True]]],
           [["QubitUnitary", [0], [{"dtype": "<f8", "shape": [3, 3], "re": [0] * 9,
                                    "im": None}]]],
           [["QubitUnitary", [0], [{"dtype": "|O", "shape": [2, 2], "re": [0] * 4,
                                    "im": None}]]],
           [["QubitUnitary", [0], [{"dtype": "<f8", "shape": [2, 2], "re": ["x"] * 4,
                                    "im": None}]]],
           [["QubitUnitary", [0], [{"dtype": "<f8", "shape": [10 ** 9], "re": [0],
                                    "im": None}]]],
           [["Hadamard", [0]]], ["Hadamard"], [["Hadamard", [0], []]] * 6000,
           [["QCEOracle", [0, 1], [0, [1], [True]]]], [["QCEOracle", [0, 1], [0, [2], [1]]]],
           [["QCEOracle", [0, 1], [0, [2], []]]], [["QCEOracle", [0, 1], [0, [9], [True]]]],
           [["QCEOracle", [0, 1], [0, [2]]]]]
    out += [dict(base, ops=o) for o in ops]
    ms = [[], [["Sample"]], [["Bogus", [0], None]], [["Sample", [9], None]],
          [["Expectation", [0], [["Hermitian", [0]]]]], [["Expectation", [0], []]],
          [["Expectation", [0], [["PauliZ", [5]]]]], [["Sample", [0], None]] * 20]
    out += [dict(base, measurements=m) for m in ms]
    return out


@pytest.mark.parametrize("query", _hostile_queries())
def test_the_trusted_job_refuses_what_is_not_a_circuit(query):
    with pytest.raises(oracle_circuit.QueryError):
        oracle_circuit.circuit_of(query, 1)


def test_a_good_query_is_taken_apart():
    name, wires, shots, ops, ms = oracle_circuit.circuit_of(json.loads(json.dumps(GOOD_QUERY)), 1)
    assert (name, wires, shots) == ("default.qubit", [0, 1, 2], 1)
    assert [o[0] for o in ops] == ["Hadamard", "QCEOracle", "RX"] and ms == [("sample", [0, 1],
                                                                               None)]


def test_placeholders_hold_nothing_but_their_position():
    qml = pytest.importorskip("pennylane")
    fixed = oracle_circuit.placeholders(1, [0, 1, "sol"])[0]
    takes = oracle_circuit.placeholders(4, None)
    for fn in [fixed, *takes]:
        cells = [c.cell_contents for c in fn.__closure__ or ()]
        inner = [c.cell_contents for c in cells[0].__closure__ or ()] if callable(cells[0]) else []
        assert all(isinstance(v, (int, list, type)) or callable(v) for v in cells + inner)
    with qml.tape.QuantumTape() as tape:
        fixed()
        takes[2](wires=["a", "b", "c"])
    assert [(op.name, op.wires.tolist(), op.qce_oracle) for op in tape.operations] == [
        ("QCEOracle", [0, 1, "sol"], 0), ("QCEOracle", ["a", "b", "c"], 2)]
    assert not tape.operations[0].has_matrix


def test_a_query_is_built_and_answered_with_todays_pennylane():
    """The program's side (query_of) and the trusted side (circuit_of, run_circuit) on the
    installed PennyLane: Deutsch-Jozsa with a balanced real oracle reads 1 on wire 0."""
    qml = pytest.importorskip("pennylane")
    oracles = oracle_circuit.placeholders(1, [0, 1, 2])
    dev = qml.device("default.qubit", wires=3)

    def circuit():
        qml.PauliX(wires=2)
        for w in range(3):
            qml.Hadamard(wires=w)
        oracles[0]()
        for w in range(2):
            qml.Hadamard(wires=w)
        return qml.probs(wires=[0, 1])

    query = oracle_circuit.query_of(qml.QNode(circuit, dev), (), {})
    assert query is not None and query["ops"][4] == ["QCEOracle", [0, 1, 2], [0]]
    wire = json.loads(json.dumps(query))

    def real():
        qml.CNOT(wires=[0, 2])

    parts = oracle_circuit.circuit_of(wire, 1)
    value = oracle_circuit.run_circuit(parts, [real], False, seed=3)
    back = oracle_circuit.decode_result(json.loads(json.dumps(
        oracle_circuit.encode_result(value))), tensors=False)
    assert back.tolist() == pytest.approx([0.0, 0.0, 1.0, 0.0])
    # a circuit without a placeholder is no query: it runs as usual
    assert oracle_circuit.query_of(qml.QNode(lambda: qml.probs(wires=0), dev), (), {}) is None


def test_a_controlled_oracle_is_a_query():
    """``qml.ctrl`` of a placeholder (people controlled the DeutschJozsaStrikesAgain oracles):
    the controls and their values travel; the trusted side applies the real oracle under them."""
    qml = pytest.importorskip("pennylane")
    f = oracle_circuit.placeholders(2, None)[1]
    dev = qml.device("default.qubit", wires=4)

    def circuit():
        qml.PauliX(wires=0)
        qml.ctrl(f, control=[0])(wires=[1, 2, 3])
        return qml.probs(wires=[3])

    query = oracle_circuit.query_of(qml.QNode(circuit, dev), (), {})
    assert query["ops"][1] == ["QCEOracle", [1, 2, 3], [1, [0], [True]]]

    def real(wires):  # a constant-1 function: flips the output wire
        qml.PauliX(wires=wires[2])

    parts = oracle_circuit.circuit_of(json.loads(json.dumps(query)), 2)
    assert oracle_circuit.run_circuit(parts, [None, real], True, seed=0).tolist() == \
        pytest.approx([0.0, 1.0])
    query["ops"][0] = ["Identity", [0], []]  # control off: the oracle does not act
    parts = oracle_circuit.circuit_of(query, 2)
    assert oracle_circuit.run_circuit(parts, [None, real], True, seed=0).tolist() == \
        pytest.approx([1.0, 0.0])
