"""One verdict every run: what a program can observe of hashing and unseeded randomness comes
from the sandbox's ``hash_seed`` (a judge passes its run's seed), not from the worker."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.execution import Job, Sandbox

# output that depends on the str hash (set iteration order) and on unseeded draws
ORDER = """
import os, random, sys
names = {"cx", "h", "rz", "ry", "swap", "ccx", "measure", "barrier", "u", "sx", "t", "tdg"}
print(",".join(names), random.random(), os.environ.get("PYTHONHASHSEED"), sys.flags.no_user_site)
"""
NUMPY = "import numpy\nprint(numpy.random.rand(), numpy.random.randint(1 << 30))\n"
# numpy's unseeded generators: default_rng() (twice: two streams), a reference taken by name at
# import, and a generator a module made at import (Qiskit's DEFAULT_RNG, made in the zygote)
STREAMS = ("import numpy\nfrom numpy.random import default_rng\n"
           "from qiskit.quantum_info.operators.random import DEFAULT_RNG\n"
           "print(numpy.random.rand(), numpy.random.default_rng().random(),\n"
           "      numpy.random.default_rng().random(), default_rng().random(), DEFAULT_RNG.random())\n")


@pytest.mark.parametrize("fresh", [False, True])
def test_same_output_in_every_worker_and_run(fresh):
    outs = set()
    for _ in range(2):  # two sandboxes: new workers, new zygotes
        with Sandbox(workers=2, preload=(), wall_time=10, fresh=fresh, hash_seed=7) as sb:
            results = sb.run_jobs([Job(ORDER, id=str(i)) for i in range(6)])
        assert {r.status for r in results} == {"ok"}, [r.stderr for r in results]
        outs |= {r.stdout for r in results}
    assert len(outs) == 1, outs
    assert outs.pop().split()[2:] == ["7", "1"]


def test_the_seed_decides_and_a_job_may_name_its_own(light_sandbox):
    base = {light_sandbox.run(ORDER).stdout for _ in range(3)}
    assert len(base) == 1
    other = {light_sandbox.run_job(Job(ORDER, hash_seed=12345)).stdout for _ in range(3)}
    assert len(other) == 1 and other != base  # the set's order and the draw both move
    assert other.pop().split()[2] == "12345"


def test_numpy_global_rng_seeded_in_every_worker():
    with Sandbox(workers=2, preload=("numpy",), wall_time=10, hash_seed=3) as sb:
        results = sb.run_jobs([Job(NUMPY, id=str(i)) for i in range(4)])
    assert len({r.stdout for r in results}) == 1, [r.stdout + r.stderr for r in results]


@pytest.mark.parametrize("fresh,preload", [(False, ("numpy", "qiskit")), (False, ()),
                                           (True, ())])
def test_unseeded_numpy_generators_come_from_the_seed(fresh, preload):
    """Preloaded or imported by the program, in a zygote's child or a fresh interpreter."""
    outs = []
    for seed in (3, 3, 4):
        with Sandbox(workers=2, preload=preload, wall_time=60, fresh=fresh, hash_seed=seed) as sb:
            results = sb.run_jobs([Job(STREAMS, id=str(i)) for i in range(2)])
        assert {r.status for r in results} == {"ok"}, [r.stderr[-500:] for r in results]
        outs.append({r.stdout for r in results})
    assert len(outs[0]) == 1 and outs[0] == outs[1] and outs[2] != outs[0], outs
    draws = outs[0].pop().split()
    assert len(set(draws)) == len(draws)  # two default_rng() calls: two streams


def test_the_workers_own_modules_do_not_shadow_the_stdlib(light_sandbox):
    r = light_sandbox.run("import types, sys\nprint(types.__file__)\n"
                          "print(any(p.endswith('execution') for p in sys.path))\n")
    assert r.status == "ok" and "execution" not in r.stdout.split()[0]
    assert r.stdout.split()[1] == "False"


def test_hash_seed_is_checked():
    with pytest.raises(ValueError, match="hash_seed"):
        Sandbox(hash_seed=-1)
