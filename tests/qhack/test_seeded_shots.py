"""Shots follow the judge's seed in every era: ``lightning.qubit`` of the 2023 and 2024 eras
draws its samples in C++ from the random device, so a program sampling on it got a different
verdict from run to run; the QHack jobs draw them from numpy's seeded generator instead
(``judges/qhack/jobs/seeding.py``), from the same probabilities."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks._qhack_envs import env_python
from quantum_codegen_eval.execution import Job, Sandbox
from quantum_codegen_eval.judges import _embed
from quantum_codegen_eval.judges.qhack.jobs import seeding
from quantum_codegen_eval.judges.qhack.judge import PRELOAD

pytestmark = pytest.mark.era

# 16 one-shot coins and the frequencies of a skewed qubit (RY(1): P(0) = cos²(1/2) = 0.770)
SAMPLES = '''
import numpy as np
import pennylane as qml

dev = qml.device("lightning.qubit", wires=3, shots=4000)


@qml.qnode(dev)
def circuit():
    qml.PauliX(wires=0)
    qml.Hadamard(wires=1)
    qml.RY(1.0, wires=2)
    return [qml.sample(qml.PauliZ(w)) for w in range(3)]


z0, z1, z2 = circuit()
print("".join("1" if x > 0 else "0" for x in z1[:16]), np.mean(z0), round(float(np.mean(z2)), 2))
'''


@pytest.mark.parametrize("env", ["qhack-2022", "qhack-2023", "qhack-2024"])
def test_lightning_shots_follow_the_seed(env):
    outs = {}
    for seed in (3, 3, 4):
        script = _embed.job_source(seeding, "seed_all", seed) + SAMPLES
        with Sandbox(workers=2, preload=PRELOAD, wall_time=120, python=env_python(env)) as sb:
            results = sb.run_jobs([Job(script, id=str(i)) for i in range(2)])
        assert {r.status for r in results} == {"ok"}, [r.stderr[-800:] for r in results]
        outs.setdefault(seed, set()).update(r.stdout for r in results)
    assert len(outs[3]) == 1 and outs[3] != outs[4], outs
    coins, z0, z2 = outs[3].pop().split()
    assert float(z0) == -1.0 and abs(float(z2) - 0.54) <= 0.04  # <Z> = cos(1) = 0.540
