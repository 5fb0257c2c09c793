"""The sandbox API on ordinary programs, in both modes (forked worker and fresh interpreter)."""

from __future__ import annotations

import os
import sys

import pytest

from quantum_codegen_eval.execution import Job, Limits, RunResult, Sandbox


@pytest.fixture(scope="module", params=["zygote", "fresh"])
def sb(request, light_sandbox):
    if request.param == "zygote":
        yield light_sandbox
    else:
        with Sandbox(workers=2, preload=(), fresh=True, wall_time=5, memory_mb=1024) as s:
            yield s


def test_ok_and_stdout(sb):
    r = sb.run("print('hello'); import sys; print('err', file=sys.stderr)")
    assert (r.status, r.exit_code, r.signal) == ("ok", 0, None)
    assert r.stdout == "hello\n" and r.stderr == "err\n"
    assert r.exception is None and not r.truncated
    assert r.wall_time > 0


def test_uncaught_exception_is_structured(sb):
    r = sb.run("def f():\n    raise KeyError('nope')\nf()\n")
    assert r.status == "error" and r.exit_code == 1
    assert r.exception.type == "KeyError"
    assert r.exception.message == "'nope'"
    assert "line 2, in f" in r.exception.traceback
    assert "KeyError: 'nope'" in r.stderr
    assert "_worker" not in r.exception.traceback  # the wrapper's frames are hidden


def test_exception_type_is_qualified(sb):
    r = sb.run("import json\njson.loads('{')")
    assert r.exception.type == "json.decoder.JSONDecodeError"


def test_sys_exit_codes(sb):
    assert sb.run("import sys; sys.exit(3)").exit_code == 3
    assert sb.run("import sys; sys.exit(3)").status == "error"
    r = sb.run("import sys; sys.exit('bye')")
    assert (r.status, r.exit_code, r.stderr) == ("error", 1, "bye\n")
    assert sb.run("import sys; sys.exit(0)").status == "ok"
    r = sb.run("import os; print('x', flush=True); os._exit(0)")
    assert (r.status, r.stdout) == ("ok", "x\n")


def test_runs_as_main_with_argv(sb):
    r = sb.run("import sys\nif __name__ == '__main__':\n    print(sys.argv[1:])",
               argv=("a", "b"))
    assert r.stdout == "['a', 'b']\n"


def test_stdin_given_and_closed(sb):
    assert sb.run("print(input()[::-1])", stdin="abc\n").stdout == "cba\n"
    assert sb.run("import sys; print(len(sys.stdin.buffer.read()))", stdin=b"\x00" * 100_000
                  ).stdout == "100000\n"
    r = sb.run("import sys; print(repr(sys.stdin.read()))")
    assert (r.status, r.stdout) == ("ok", "''\n")
    assert sb.run("input()").exception.type == "EOFError"


def test_files_in_and_collect_out(sb):
    r = sb.run("import helper, json\nopen('out/r.json', 'w').write(json.dumps(helper.X * 2))",
               files={"helper.py": "X = 21\n", "out/keep": b""},
               collect=("out/r.json", "missing.txt"))
    assert r.status == "ok", r.stderr
    assert r.files == {"out/r.json": b"42"}


def test_collect_does_not_follow_symlinks(sb):
    r = sb.run("import os; os.symlink('/etc/passwd', 'x.txt'); os.mkdir('d');"
               "os.symlink('/etc', 'e')", collect=("x.txt", "e/passwd"))
    assert r.status == "ok" and r.files == {}


def test_fresh_cwd_home_and_env(sb):
    src = ("import os, tempfile\n"
           "print(os.getcwd() == os.environ['HOME'] == tempfile.gettempdir())\n"
           "print(sorted(os.listdir('.')))\n"
           "print(os.environ.get('MY_VAR'), os.environ.get('QISKIT_IN_PARALLEL'))\n"
           "open('left_behind', 'w').write('x')\n")
    first = sb.run(src, env={"MY_VAR": "v"})
    second = sb.run(src)
    # the sandbox sets nothing framework-specific: judges pass such variables in job.env
    assert first.stdout == "True\n[]\nv None\n", first.stderr
    assert second.stdout == "True\n[]\nNone None\n"
    third = sb.run(src, env={"QISKIT_IN_PARALLEL": "TRUE"})
    assert third.stdout == "True\n[]\nNone TRUE\n", third.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root")
def test_unprivileged_user_as_root(sb):
    r = sb.run("import os; print(os.getuid(), os.geteuid(), os.getgroups())")
    uid, euid, groups = r.stdout.split(maxsplit=2)
    assert uid == euid and int(uid) != 0 and groups.strip() == "[]"


def test_timeout(sb):
    r = sb.run("while True: pass", limits=Limits(wall_time=1))
    # stopped at its CPU second; on a busy machine the wall clock also counts the time the job
    # waited for a CPU (tests/execution/test_load.py), so only a loose bound on wall time here
    assert r.status == "timeout" and 0.9 < r.cpu_time < 3 and r.wall_time < 30


def test_output_limit(sb):
    r = sb.run("import sys\nwhile True: sys.stdout.write('x' * 65536)",
               limits=Limits(output_bytes=10_000))
    assert r.status == "output_limit" and r.truncated and len(r.stdout) == 10_000


def test_segfault_is_crashed(sb):
    r = sb.run("import ctypes; ctypes.string_at(0)")
    assert (r.status, r.signal) == ("crashed", 11)


def test_memory(sb):
    r = sb.run("x = bytearray(8 * 1024**3)", limits=Limits(memory_mb=1024))
    assert r.status == "memory" and r.exception.type == "MemoryError"


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_run_jobs_order_and_map_ids(sb):
    jobs = [Job(f"import time; time.sleep({4 if i == 0 else 0}); print({i})", id=f"j{i}")
            for i in range(6)]
    results = sb.run_jobs(jobs)
    assert [r.id for r in results] == [f"j{i}" for i in range(6)]
    assert [r.stdout for r in results] == [f"{i}\n" for i in range(6)]
    streamed = list(sb.map(jobs))
    assert sorted(r.id for r in streamed) == [f"j{i}" for i in range(6)]
    assert streamed[-1].id == "j0"  # the slow one finishes last


def test_other_interpreter_by_path(sb):
    r = sb.run("import sys; print(sys.executable)", python=sys.executable)
    assert r.status == "ok" and r.stdout.strip()


def test_result_roundtrip(sb):
    r = sb.run("open('f', 'wb').write(b'\\x00\\xff'); 1/0", collect=("f",))
    assert RunResult.from_dict(r.to_dict()) == r


def test_bad_job_is_rejected_with_its_id():
    with pytest.raises(ValueError, match="'j7'.*'../x'"):
        Job("print(1)", id="j7", files={"../x": "y"})
    with pytest.raises(ValueError, match="wall_time"):
        Limits(wall_time=0)


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_numpy_memory_error_subclass_is_memory(sandbox):
    r = sandbox.run("import numpy\nnumpy.zeros(10**12)", limits=Limits(memory_mb=2048))
    assert r.status == "memory" and "MemoryError" in r.exception.type


def test_program_can_inspect_its_own_process(sb):
    r = sb.run("import os\nprint(sorted(os.listdir('/proc/self/fd'))[:3])\n"
               "print(open('/proc/self/maps').read() != '')")
    assert (r.status, r.stdout) == ("ok", "['0', '1', '2']\nTrue\n"), r.stderr


def test_missing_interpreter_is_a_crashed_result_naming_it(sb):
    r = sb.run("print(1)", python="/nonexistent/python3", id="j1")
    assert (r.id, r.status) == ("j1", "crashed") and "/nonexistent/python3" in r.stderr
    assert sb.run("print(2)").stdout == "2\n"


def test_plain_sources_get_their_index_as_id(sb):
    results = sb.run_jobs(["print('a')", "print('b')"])
    assert [(r.id, r.stdout) for r in results] == [("0", "a\n"), ("1", "b\n")]


def test_program_exit_handlers_and_logging_run_at_exit(sb):
    r = sb.run("import atexit, logging, threading, time\n"
               "atexit.register(print, 'bye')\n"
               "logging.basicConfig(filename='log.txt')\nlogging.warning('w')\n"
               "threading.Thread(target=lambda: (time.sleep(0.3), print('late'))).start()\n",
               collect=("log.txt",))
    assert (r.status, r.stdout) == ("ok", "late\nbye\n"), r.stderr
    assert r.files == {"log.txt": b"WARNING:root:w\n"}
