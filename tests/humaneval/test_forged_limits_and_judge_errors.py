"""Issue 36: what a program raises never makes a judge error, and memory exhaustion in its call is
MLE (through ``judges.base.limit_status``):

* a forged judge error: the program calls qiskit where an optional library is really missing,
  catches the library's own ``MissingOptionalLibraryError`` (its traceback is qiskit's) and
  raises it again from a function that should have returned a statevector. The judge takes it
  for the environment's ("environment lacks ..."): it was a judge error, out of the model's classes.
  Nothing the program raises may make a judge error: the environment check must be the trusted
  side's own, about what the task needs, not the program's exception.
* memory exhaustion caught by the runner (a MemoryError inside the candidate's call, re-raised
  through check()) must be MLE through ``judges.base.limit_status`` (tests/core/test_limit_mapping.py).
"""

from __future__ import annotations

import pytest
from redteam import humaneval_task

from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.judges.base import judge_many

SV = humaneval_task("sv", 'from qiskit.quantum_info import Statevector\nfrom math import sqrt\n'
                    'def bell_sv():\n    """A phi+ Bell statevector."""',
                    "def check(candidate):\n    result = candidate()\n"
                    "    solution = (Statevector.from_label('00') + Statevector.from_label('11')) / sqrt(2)\n"
                    "    assert result.equiv(solution)\n", "bell_sv")
FORGED = ("\n    from qiskit.visualization import plot_coupling_map\n    try:\n"
          "        plot_coupling_map(2, [[0, 0], [1, 0]], [[0, 1]])\n"
          "    except Exception as exc:\n        raise exc\n")
GROWS = "\n    keep = []\n    while True:\n        keep.append(bytearray(1 << 28))\n"


@pytest.fixture(scope="module")
def verdicts(sandbox):
    return judge_many(qhe.make_judge(time_limit=20.0), [(SV, FORGED), (SV, GROWS)], sandbox)


def test_a_program_cannot_forge_a_judge_error(verdicts):
    forged = verdicts[0]
    assert not forged.judge_error and forged.status == "RE", (forged.status, forged.message)


def test_memory_exhaustion_in_the_call_is_mle(verdicts):
    grows = verdicts[1]
    assert grows.status == "MLE", (grows.status, grows.message)
