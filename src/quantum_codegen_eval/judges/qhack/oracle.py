"""Hidden oracles of four 2022 challenges, queried in trusted jobs (docs/benchmarks/qhack.md,
*Hidden oracles*).

The uneditable driver of these challenges builds the oracle from the test's input and hands it to
the solution function; run in the program's process, its closure, the driver's ``numbers`` and
stdin would give the answer away. Instead the test is judged in rounds:

1. the program's job (``jobs/oracle_program.py``) runs the driver on a decoy input with
   placeholders for the oracles, and stops at the first QNode execution that applies one,
   writing that circuit as a query (or, with no query left, its printed output: the test's
   result as for any 2022 script);
2. a trusted job (``jobs/oracle_answer.py``: harness and driver with the real input, no program
   code) runs each test's query with the real oracles on a device seeded from the judge's seed
   and returns what the QNode returned;
3. the program's job runs again from the start with the answers so far (the same seed, so the
   same circuits), and so on.

:func:`step` reads the results of every stage so far (the layout is fixed by the results
themselves) and returns the next stage's jobs, the final program result of each test, or a judge
limit (more than :data:`MAX_QUERIES` oracle executions in one test).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import limit_status, read_result

#: oracle executions per test (the contest's known-good solutions make one to three); every one
#: costs two stages (trusted answer, program re-run): :data:`STAGES`
MAX_QUERIES = 7
#: the most stages a hidden-oracle judging takes (the first program round, then two per query);
#: the judge declares it as its ``max_stages``
STAGES = 1 + 2 * MAX_QUERIES
#: largest query file read back (bytes); larger ends the test as the program's own result
MAX_QUERY_BYTES = 8_000_000
#: the trusted oracle job's answers (the QNodes' outputs) are read up to this size
MAX_ANSWER_BYTES = 48_000_000


@dataclass(frozen=True)
class OracleQuery:
    """How the driver hands over the oracles: the solution ``function``'s first argument is
    ``count`` oracles (one callable for 1, else a list); ``wires``: the wires a zero-argument
    oracle acts on, or ``None`` when each oracle takes the ``wires`` it acts on. ``decoy``: the
    input the driver runs on in the program's job (it only feeds the oracles it builds, which
    the program never gets)."""

    function: str
    count: int
    wires: tuple[int | str, ...] | None
    decoy: str = "0"


ORACLE_QUERIES: dict[str, OracleQuery] = {
    # oracle(): CNOTs from the listed input wires (0, 1) to wire 2
    "2022/algorithms_100_DeutschJozsa_template": OracleQuery("deutsch_jozsa", 1, (0, 1, 2)),
    # [f1, f2, f3, f4], each f(wires): CNOTs from wires[numbers[k]] to wires[2] (and an X)
    "2022/algorithms_500_DeutschJozsaStrikesAgain_template": OracleQuery("deutsch_jozsa", 4,
                                                                         None),
    # oracle(): marks the door numbers[0:2] on wire "sol"
    "2022/games_400_FindTheCar_template": OracleQuery("find_the_car", 1, (0, 1, "sol")),
    # oracle(): CNOTs from the listed switches (0, 1, 2) to "light"
    "2022/games_500_switches_template": OracleQuery("switch", 1, (0, 1, 2, "light")),
}


def spec_of(problem_id: str) -> OracleQuery | None:
    return ORACLE_QUERIES.get(problem_id)


def job_oracle(spec: OracleQuery) -> dict[str, Any]:
    """The ``oracle`` entry of the program's job file."""
    return {"function": spec.function, "count": spec.count,
            "wires": None if spec.wires is None else list(spec.wires)}


def query_in(result: Any, result_file: str) -> dict | None:
    """The query a program round ended with (``None``: the round is the test's result)."""
    if getattr(result, "status", None) != "ok":
        return None
    data = read_result(result, result_file, MAX_QUERY_BYTES).value
    query = data.get("query") if isinstance(data, dict) else None
    return query if isinstance(query, dict) else None


@dataclass(frozen=True)
class Final:
    """Each test's last program result, and how many oracle executions each test made."""

    results: list[Any]
    queries: list[int]


@dataclass(frozen=True)
class Limit:
    """A test needed more oracle executions than the judge runs (a judge limit)."""

    test: int
    message: str


def step(n: int, results: list[Any], result_file: str, answers_of, program_job, trusted_job,
         ) -> list[Any] | Final | Limit:
    """The next stage's jobs, or the outcome. ``answers_of(result, count)``: the trusted job's
    ``count`` answers (``None`` if the job failed: raised as ``RuntimeError``);
    ``program_job(test, answers)``; ``trusted_job([(test, asked, query), ...])`` where ``asked``
    is how many queries the test made before."""
    answers: dict[int, list[dict]] = {i: [] for i in range(n)}
    final: list[Any] = [None] * n
    active, pos = list(range(n)), 0
    while True:
        asks = []
        for i, r in zip(active, results[pos:pos + len(active)], strict=True):
            query = query_in(r, result_file)
            if query is None:
                final[i] = r
            else:
                asks.append((i, query))
        pos += len(active)
        if not asks:
            return Final(final, [len(answers[i]) for i in range(n)])
        for i, _ in asks:
            if len(answers[i]) >= MAX_QUERIES:
                return Limit(i, f"the program executed more than {MAX_QUERIES} circuits with the "
                                "oracle in one test; each is answered in its own round, and the "
                                "judge runs at most this many (a judge limit, not a verdict)")
        if pos == len(results):
            return [trusted_job([(i, len(answers[i]), q) for i, q in asks])]
        trusted = results[pos]
        pos += 1
        if limit_status(str(getattr(trusted, "status", ""))) is not None:
            # the circuits the program asked for exceeded the trusted job's limits: the
            # program's doing (as in the trusted check of other challenges), never a judge error
            for i, _ in asks:
                final[i] = trusted
            return Final(final, [len(answers[i]) + (i in dict(asks)) for i in range(n)])
        got = answers_of(trusted, len(asks))
        if got is None or len(got) != len(asks):
            raise RuntimeError("the trusted oracle job failed")
        for (i, query), answer in zip(asks, got, strict=True):
            answers[i].append({"query": query, **answer})
        active = [i for i, _ in asks]
        if pos == len(results):
            return [program_job(i, answers[i]) for i in active]


def answers_in(result: Any, checked_file: str, asks: int) -> list[dict] | None:
    """The answers of a trusted oracle job (one per test it was asked for), or ``None``."""
    if getattr(result, "status", None) != "ok":
        return None
    data = read_result(result, checked_file, MAX_ANSWER_BYTES).value
    out = data.get("answers") if isinstance(data, dict) else None
    if not isinstance(out, list) or len(out) != asks or not all(
            isinstance(a, list) and len(a) == 1 and isinstance(a[0], dict) for a in out):
        return None
    return [a[0] for a in out]
