"""Harnesses score from several threads (inspect_ai runs its scorer in worker threads): the
verdicts are the ones a single thread gets, and a judge's own work in this process (``jobs``,
``decide``) never runs in two threads at once (``judges.base.JUDGE_LOCK``: CPython 3.11's
``ast.parse`` is not safe in concurrent threads, and the judges parse programs and tests)."""

from __future__ import annotations

import threading
import time
from dataclasses import fields

from integration_programs import EXPECTED, PROGRAMS

from quantum_codegen_eval.benchmarks import sample
from quantum_codegen_eval.judges.base import judge_one


def _probe(judge):
    """``judge`` with its ``jobs`` and ``decide`` counting how many threads are inside them."""
    inside, most, lock = [0], [0], threading.Lock()

    def enter() -> None:
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.02)  # a window another thread would use

    def leave() -> None:
        with lock:
            inside[0] -= 1

    class Probe(type(judge)):
        def jobs(self, problem, completion):
            enter()
            try:
                return super().jobs(problem, completion)
            finally:
                leave()

        def decide(self, problem, completion, results):
            enter()
            try:
                return super().decide(problem, completion, results)
            finally:
                leave()

    probe = Probe(**{f.name: getattr(judge, f.name) for f in fields(judge)})
    probe.extract = judge.extract  # the benchmark's rule, as make_judge hands it over
    return probe, most


def test_threads_judge_as_one_thread_and_never_inside_a_judge_together(sandbox):
    judge, most = _probe(sample.make_judge())
    problems = sample.problems("qiskit")
    got: dict[tuple[int, str], str] = {}

    def score(rep: int, pid: str) -> None:
        got[rep, pid] = judge_one(judge, problems[pid], PROGRAMS[pid], sandbox).status

    threads = [threading.Thread(target=score, args=(rep, pid))
               for rep in range(3) for pid in PROGRAMS]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {(rep, pid): EXPECTED[pid] for rep in range(3) for pid in PROGRAMS}
    assert most[0] == 1, f"{most[0]} threads were inside the judge at once"
