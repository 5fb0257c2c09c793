"""The worker fills what preloaded packages cache about their entry points once, before forking,
so a job does not pay it again (PennyLane 0.21/0.28 load devices through ``pkg_resources``,
which resolves the plugin distribution's requirements on every load: about 0.05 CPU-s a job,
two thirds of a small QHack test's job before the warm-up)."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.benchmarks._qhack_envs import env_python
from quantum_codegen_eval.execution import Sandbox

pytestmark = pytest.mark.era

# does the job find pennylane's parsed requirements already cached (pkg_resources' private
# per-distribution memo, ``Distribution.__dep_map``)?
PROBE = ("import pkg_resources\n"
         "dist = pkg_resources.get_distribution('pennylane')\n"
         "print(any(k.endswith('__dep_map') for k in vars(dist)))\n"
         "import pennylane as qml\n"
         "print(qml.device('default.qubit', wires=1).short_name)\n")


@pytest.mark.parametrize(("preload", "cached"), [(("numpy", "pennylane"), "True"),
                                                 (("numpy", "pkg_resources"), "False")])
def test_entry_point_requirements_resolved_in_the_worker(preload, cached):
    python = str(env_python("qhack-2023"))
    with Sandbox(workers=1, preload=preload, python=python, wall_time=60) as sb:
        r = sb.run(PROBE)
    assert r.status == "ok", r.stderr
    assert r.stdout.split() == [cached, "default.qubit"]
