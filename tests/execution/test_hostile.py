"""Hostile programs, interleaved with benign ones in one run: each gets its exact status, every
benign result stays intact, nothing of theirs survives, the evaluator and the store are untouched.
"""

from __future__ import annotations

import os
import socket
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from quantum_codegen_eval.execution import Job, Limits, ResultStore

ROOT = os.geteuid() == 0
DENIED = "FileNotFoundError" if ROOT else "PermissionError"
FAST = Limits(wall_time=2, memory_mb=2048, output_bytes=100_000, processes=64)

BENIGN = {
    "pennylane": ("import pennylane as qml\n"
                  "dev = qml.device('default.qubit', wires=2)\n"
                  "@qml.qnode(dev)\n"
                  "def bell():\n"
                  "    qml.Hadamard(0); qml.CNOT([0, 1])\n"
                  "    return qml.probs(wires=[0, 1])\n"
                  "print([round(float(p), 6) for p in bell()])\n",
                  "[0.5, 0.0, 0.0, 0.5]\n"),
    "qiskit": ("from qiskit import QuantumCircuit, transpile\n"
               "from qiskit.quantum_info import Statevector\n"
               "qc = QuantumCircuit(2); qc.h(0); qc.cx(0, 1)\n"
               "qc = transpile(qc, basis_gates=['cx', 'rz', 'sx', 'x'], optimization_level=2)\n"
               "p = Statevector(qc).probabilities_dict(decimals=6)\n"
               "print({str(k): float(v) for k, v in p.items()})\n",
               "{'00': 0.5, '11': 0.5}\n"),
    "plain": ("import sys\nprint(sum(range(10)), sys.stdin.read().strip())\n", "45 hi\n"),
}


def _hostile(store: Path, port: int) -> dict[str, tuple[str, dict]]:
    """name -> (source, expected fields of the result)."""
    d = textwrap.dedent
    progs = {
        "infinite_loop": ("while True:\n    pass\n", {"status": "timeout"}),
        "sleep_forever": ("import time\ntime.sleep(10**6)\n", {"status": "timeout"}),
        "alloc_50gb": ("x = bytearray(50 * 1024**3)\n", {"status": "memory"}),
        "stdout_1gb": ("import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(1024):\n"
                       "    sys.stdout.write(chunk)\n", {"status": "output_limit"}),
        "close_stdio": ("import os\nos.close(1)\nos.close(2)\nprint('lost')\n",
                        {"status": "error", "exit_code": 120}),
        "read_stdin": ("import sys\ndata = sys.stdin.read()\nprint(repr(data))\n",
                       {"status": "ok", "stdout": "''\n"}),
        "os_exit_0": ("import os\nprint('bye', flush=True)\nos._exit(0)\n",
                      {"status": "ok", "stdout": "bye\n"}),
        "sys_exit_3": ("import sys\nsys.exit(3)\n", {"status": "error", "exit_code": 3}),
        "segfault": ("import ctypes\nctypes.string_at(0)\n", {"status": "crashed", "signal": 11}),
        "recursion": ("def f(n):\n    return f(n + 1)\nf(0)\n",
                      {"status": "error", "exception": "RecursionError"}),
        "kill_parent": ("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
                        "import time\ntime.sleep(1)\n",
                        {"status": "error", "exception": "PermissionError"} if ROOT
                        else {"status": "killed"}),
        "daemon": (d("""\
            import os, sys, time
            r, w = os.pipe()
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    os.write(w, str(os.getpid()).encode())
                    os.close(w)
                    while True:
                        time.sleep(0.05)
                os._exit(0)
            os.close(w)
            print(os.read(r, 100).decode(), flush=True)
            """), {"status": "ok"}),
        # as root the job's private root has no such paths at all; otherwise permissions hold
        "write_store": (f"open({str(store)!r}, 'a').write('{{\"id\": \"forged\"}}\\n')\n",
                        {"status": "error", "exception": DENIED}),
        "write_repo": (f"open({str(Path(__file__).parent / 'pwned.txt')!r}, 'w').write('x')\n",
                       {"status": "error", "exception": DENIED}),
        "socket": (f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)\n",
                   {"status": "error", "exception": "OSError"}),
        "threads_forever": (d("""\
            import threading, time
            while True:
                threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()
            """), {"status": "error", "exception": "RuntimeError"}),
        "monkeypatch_numpy": ("import numpy, sys\nnumpy.ones = None\n"
                              "sys.modules['pennylane'] = None\nsys.modules['json'] = None\n",
                              {"status": "ok"}),
    }
    if ROOT:
        progs["fork_bomb"] = ("import os\nwhile True:\n    os.fork()\n",
                              {"status": "error", "exception": "BlockingIOError"})
        progs["fork_bomb_stubborn"] = ("import os\nwhile True:\n    try:\n        os.fork()\n"
                                       "    except OSError:\n        pass\n",
                                       {"status": "timeout"})
    return progs


def _sandbox_pids(sandbox) -> list[int]:
    uids = {s.uid for s in sandbox._all_slots if s.uid is not None}
    zygotes = {z.pid for s in sandbox._all_slots for z in s.zygotes.values()}
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in zygotes:
            continue
        try:
            status = Path(f"/proc/{name}/status").read_text()
        except OSError:
            continue
        ruid = int(status.split("Uid:")[1].split()[0])
        if ruid in uids:
            found.append(int(name))
    return found


@pytest.mark.skipif(not ROOT, reason="the full suite needs root (unprivileged uid, netns)")
@pytest.mark.slow  # a sweep: 50 GB allocations, 1 GB of output, fork bombs
def test_hostile_suite_interleaved(sandbox, tmp_path):
    store_path = tmp_path / "results.jsonl"
    store = ResultStore(store_path)
    store.add({"id": "before", "status": "ok"})
    before = store_path.read_bytes()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0)
    port = listener.getsockname()[1]
    hostile = _hostile(store_path, port)
    jobs, expected = [], {}
    names = list(hostile)
    for i, name in enumerate(names):
        src, exp = hostile[name]
        # a plain fork bomb ends when its first process's fork fails: give it time under load
        limits = replace(FAST, wall_time=20, processes=16) if name == "fork_bomb" else FAST
        jobs.append(Job(src, id=f"h-{name}", limits=limits))
        expected[f"h-{name}"] = exp
        kind = list(BENIGN)[i % len(BENIGN)]
        jobs.append(Job(BENIGN[kind][0], id=f"b-{i}-{kind}", stdin="hi\n",
                        limits=Limits(wall_time=60)))
        expected[f"b-{i}-{kind}"] = {"status": "ok", "stdout": BENIGN[kind][1]}
    cwd, env = os.getcwd(), dict(os.environ)
    results = {r.id: r for r in sandbox.map(jobs)}
    assert set(results) == set(expected)
    for job_id, exp in expected.items():
        r = results[job_id]
        got = {k: getattr(r, k) for k in exp if k != "exception"}
        assert got == {k: v for k, v in exp.items() if k != "exception"}, (job_id, r)
        if "exception" in exp:
            assert r.exception is not None and r.exception.type == exp["exception"], (job_id, r)
    daemon_pid = int(results["h-daemon"].stdout)
    assert not Path(f"/proc/{daemon_pid}").exists(), "the double-forked daemon survived"
    assert _sandbox_pids(sandbox) == []
    assert store_path.read_bytes() == before and ResultStore(store_path).done() == {"before"}
    assert not (Path(__file__).parent / "pwned.txt").exists()
    with pytest.raises(BlockingIOError):
        listener.accept()
    assert results["h-stdout_1gb"].truncated and len(results["h-stdout_1gb"].stdout) == 100_000
    assert os.getcwd() == cwd and dict(os.environ) == env
    # the pool still works after all that, and the monkey-patching left no trace
    after = sandbox.run("import numpy, json\nprint(numpy.ones(2).sum(), json.dumps(1))")
    assert (after.status, after.stdout) == ("ok", "2.0 1\n")
