"""``env="current"``: a solution written for the era's result shapes is judged as written.

With ``shots=1``, ``qml.sample(wires=...)`` returns shape ``(n,)`` on the 2022 era's PennyLane and
``(1, n)`` today. The known-good one-shot solutions of three hidden-oracle challenges iterate over
the sample's bits, so on today's PennyLane they raise ``TypeError``: the judge's ``current`` mode
says ``RE``, as the contest's own driver says when run on this interpreter; the same programs made
shape-agnostic (``numpy.ravel`` of the sample) get ``AC`` through the same oracle rounds.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from qhack_official import official_loop

from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.qhack.judge import QHackJudge

SOLUTIONS = Path(__file__).parent / "solutions" / "2022"
ONE_SHOT = ("algorithms_100_DeutschJozsa_template",
            "algorithms_500_DeutschJozsaStrikesAgain_template", "games_500_switches_template")


def _shape_agnostic(code: str) -> str:
    """The same program with every call of its QNode ``circuit()`` flattened."""
    out, n = re.subn(r"(?<!def )\bcircuit\(\)", "numpy.ravel(circuit())", code)
    assert n, "the solution no longer calls circuit()"
    return "import numpy\n" + out


@pytest.mark.parametrize("name", ONE_SHOT)
def test_an_era_shaped_solution_is_re_today_as_the_contest_says(name, qhack_problems, sandbox,
                                                               tmp_path):
    record = qhack_problems[f"2022/{name}"]
    code = (SOLUTIONS / f"{name}.py").read_text()
    as_written, agnostic = judge_many(QHackJudge(env="current"),
                                      [(record, code), (record, _shape_agnostic(code))], sandbox)
    assert as_written.status == "RE" and "TypeError" in as_written.message, as_written.message
    assert agnostic.status == "AC", agnostic.message
    assert agnostic.details["oracle_queries"] and all(agnostic.details["oracle_queries"])
    # the contest's driver on this interpreter (no judge) rejects it for the same reason
    official = official_loop(name, record, code, tmp_path / "official", python=sys.executable)
    assert official.failure and "TypeError" in official.failure, official.failure
    assert official_loop(name, record, _shape_agnostic(code), tmp_path / "agnostic",
                         python=sys.executable).failure is None
