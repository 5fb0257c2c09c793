"""Every decoder and comparison of the QHack judge is total: a hostile result file (huge or
overflowing numbers, unexpected dtypes, NaN/inf, wrong shapes, deep nesting, strings where
numbers are due, forged fields) is a verdict, ``WA`` or ``RE``, never a crash of the judge or a
failure of the trusted check job (a judge error).

Stage 1 (the judge's reading and validation, :meth:`QHackJudge._first`) is fuzzed in-process for
challenges of every kind (plain compare rule, own validators, recorded replay, emitted circuits,
2022 scripts); what passes validation goes, as in a real judging, to the real trusted check job
in the era interpreter, whose outcomes must all be failures.
"""

from __future__ import annotations

import base64
import json
import struct

import pytest

from quantum_codegen_eval.benchmarks import qhack
from quantum_codegen_eval.execution.types import RunResult
from quantum_codegen_eval.judges.jobs import wire
from quantum_codegen_eval.judges.qhack import QHackJudge
from quantum_codegen_eval.judges.qhack.judge import _Pending
from quantum_codegen_eval.judges.qhack.runner import RESULT_FILE

#: challenges of every kind of check
CHALLENGES = ("2023/tutorial_1", "2023/bending_bennets_laws_300", "2024/lazy_workers_terminal",
              "2024/mojito_hhlime_twist", "2024/rainy_days_retreat", "2023/tutorial_4",
              "2024/hockey_night_cave", "2023/fall_of_sqynet_400", "2024/ruins_oasis",
              "2023/bending_bennets_laws_500", "2024/GHZ_inn", "2023/fall_of_sqynet_100",
              "2024/chalet_random_gate", "2022/algorithms_100_DeutschJozsa_template")


def _array(descr, shape, data: bytes) -> dict:
    """An ``ndarray`` value whose ``.npy`` header claims ``descr`` and ``shape`` over ``data``."""
    header = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode() + b"\n"
    raw = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + data
    return {"$": "ndarray", "npy": base64.b64encode(raw).decode()}


def _zeros(n: int) -> bytes:
    return b"\0" * n


def _deep(n: int) -> str:
    text = "null"
    for _ in range(n):
        text = '{"$": "tuple", "v": [' + text + "]}"
    return text


#: tagged outputs run() cannot honestly produce, or values no check expects
HOSTILE_OUTPUTS = [
    10 ** 1000, {"$": "int", "x": "f" * (wire.LIMITS.int_digits + 1)}, -(10 ** 300), 1e308,
    {"$": "float", "v": "inf"}, {"$": "float", "v": "nan"}, {"$": "float", "v": True},
    {"$": "float", "v": None}, {"$": "float", "v": [1]},
    {"$": "complex", "v": [{"$": "float", "v": "nan"}, 1e308]}, {"$": "complex", "v": [1]},
    "1" * 5000, "[" * 100_000, "1e999", "[1e999, -1e999]", "NaN", "[[1, 2], [3]]", '{"a": 1}',
    "\ud800", "9" * 4299, "[" + ",".join(["1"] * 100_000) + "]", [10 ** 1000],
    {"$": "tuple", "v": []}, {"$": "dict", "v": [[[], None]]}, {"$": "dict", "v": [[1]]},
    {"$": "dict", "v": "x"}, _array("<c16", (2,), _zeros(32)), _array("<f2", (3,), _zeros(6)),
    _array("<u8", (1,), b"\xff" * 8), _array("|O", (1,), _zeros(8)),
    _array("<M8[s]", (1,), _zeros(8)), _array("|V8", (1,), _zeros(8)), _array("f8,", (1,), _zeros(8)),
    _array([("a", "<f8", (2,))], (1,), _zeros(16)), _array("<f8", (10 ** 9, 10 ** 9), _zeros(8)),
    _array("<f8", (-1,), _zeros(8)), _array("<f8", (1,) * (wire.LIMITS.dims + 1), _zeros(8)),
    _array("<f8", "x", _zeros(8)), {"$": "ndarray", "npy": "!!"}, {"$": "ndarray", "npy": 5},
    _array("|b1", (2,), _zeros(2)), _array("<i8", (0,), b""), _array("<f8", (), _zeros(8)),
    _array("<f8", (2,), _zeros(8)),
    {"$": "objarray", "shape": [2], "v": [1]},
    {"$": "objarray", "shape": [1], "v": [_array("<f8", (1,), _zeros(8))]},
    {"$": "unsupported", "type": "X", "repr": 5}, {"$": "unsupported"}, {"$": "bogus"},
    {"$": "unsupported", "type": "X", "limit": True}, {}, [], "x", 5, None,
    [1.0] * 300_000, [0] * (wire.LIMITS.items + 1),
]

#: whole result files: forged fields, broken JSON, numbers JSON itself cannot hold
HOSTILE_FILES = [
    b"", b"null", b"[]", b"{}", b'{"output": 5}', b'{"error": 5}',
    b'{"error": {"frames": [[1, 2]]}}', b'{"error": {"phase": "check", "frames": "x"}}',
    b'{"stdout": 5}', b'{"output_error": {"a": 1}}', b"\xff\xfe", b"[" * 100_000,
    b'{"output": ' + b"9" * 5000 + b"}", b"1e999", b'{"output": "x", "record": 5}',
    b'{"output": "x", "check": 5}', ('{"output": ' + _deep(3000) + "}").encode(),
    b'{"stdout": "1e999"}', b'{"stdout": "\\u0000"}', b'{"stdout": "nan"}',
    b'{"stdout": "' + b"9" * 5000 + b'"}', b'{"stdout": "inf inf"}',
]


_FILES: list[bytes] = []


def _files() -> list[bytes]:
    if not _FILES:
        _FILES.extend([json.dumps({"output": h}).encode() for h in HOSTILE_OUTPUTS]
                      + HOSTILE_FILES)
    return _FILES


def _correct(record, data: bytes) -> bool:
    """The few hostile-looking files that hold a right answer (``"True"`` where it is due)."""
    try:
        out = json.loads(data).get("output")
    except (ValueError, AttributeError, RecursionError):
        return False
    return isinstance(out, str) and out == record.tests[0]["expected"]


def test_stage_one_is_total(qhack_problems):
    judge = QHackJudge(env="current")
    for cid in CHALLENGES:
        record = qhack_problems[cid]
        test = judge._tests(record)[0]
        for data in _files():
            r = RunResult(id="x", status="ok", exit_code=0, files={RESULT_FILE: data})
            out, _ = judge._first(record, test, r)  # never raises
            if isinstance(out, _Pending):
                assert out.result is data  # the trusted job gets the file as validated
            else:
                assert out.status in ("WA", "RE"), (cid, data[:80], out.status, out.message)


@pytest.mark.slow
@pytest.mark.upstream
def test_trusted_check_is_total(qhack_problems, sandbox):
    """What passes validation reaches the real trusted job, which decides every test (a failure;
    never a failed job, i.e. a judge error)."""
    judge = qhack.make_judge(env="era")
    ran = 0
    for cid in CHALLENGES:
        record = qhack_problems[cid]
        if judge.trusted_check(record) is None:
            continue
        test = judge._tests(record)[0]
        pending = []
        for data in _files():
            r = RunResult(id="x", status="ok", exit_code=0, files={RESULT_FILE: data})
            out, _ = judge._first(record, test, r)
            if isinstance(out, _Pending) and not _correct(record, data):
                pending.append(out)
        if not pending:
            continue
        # one test's seeds for all of them (the job takes positions in the record's tests)
        judge.test_seed = lambda problem, index, *salt: 1  # type: ignore[method-assign]
        job = judge._trusted_job(record, "", [test] * len(pending), list(enumerate(pending)))
        res = sandbox.run_job(job)
        checked = judge._checked(res, len(pending))
        assert checked is not None, (cid, res.status, res.stderr[-2000:])
        assert not any(c.get("passed") for c in checked), cid
        ran += len(pending)
    assert ran > 50  # the trusted stage was reached by many of them
