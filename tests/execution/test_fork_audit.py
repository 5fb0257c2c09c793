"""The evaluator's own forks survive a library's fork audit hook.

From Python 3.12 on, filelock (>= 4, imported by datasets and huggingface_hub) adds an audit
hook that makes ``os.fork`` raise ``RuntimeError`` while another thread of the process is
forking. The sandbox forks a helper from its slot threads (``kill_uid``, at each zygote start
and kill); two slots doing so at once lost one slot's job as "crashed" before the program ran,
which the function-test judges then counted as the program's runtime error. On 3.10/3.11 the
hook is not installed and these tests pass either way.
"""

from __future__ import annotations

import os
import sys
import threading

import pytest

from quantum_codegen_eval.execution import Job, Sandbox, sandbox

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="kill_uid needs root")
#: a uid no process runs as (the helper becomes it and kills its processes: none)
NOBODY = 2_000_000_000 + os.getpid() % 1000


def _hammer(fork, threads: int = 4, each: int = 25) -> list[str]:
    errors: list[str] = []

    def work():
        for _ in range(each):
            try:
                fork()
            except RuntimeError as exc:
                errors.append(str(exc))

    pool = [threading.Thread(target=work) for _ in range(threads)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads interleave inside the fork hooks' Python code
    try:
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    return errors


def test_slot_threads_fork_one_at_a_time_under_filelocks_hook():
    pytest.importorskip("filelock")  # imported: its hook is in place (3.12+)
    assert _hammer(lambda: sandbox._kill_uid(NOBODY)) == []
    if sys.version_info >= (3, 12):  # the hazard is real here: unserialised forks do fail
        assert _hammer(_bare_fork, each=100)


def _bare_fork() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


def test_parallel_jobs_with_new_zygotes_all_run():
    pytest.importorskip("filelock")
    with Sandbox(workers=4, preload=()) as sb:
        # each slot starts a zygote per preload set (a kill_uid first), the slots at once
        runs = [r for preload in ((), ("json",), ("csv",))
                for r in sb.run_jobs([Job(f"print({i})", preload=preload) for i in range(8)])]
    assert [(r.status, r.stdout) for r in runs] == [("ok", f"{i}\n") for i in range(8)] * 3
