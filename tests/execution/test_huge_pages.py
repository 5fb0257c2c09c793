"""The workers' memory in 2 MB pages (``Sandbox(huge_pages=True)``, the default): collapsed where
the kernel can (Linux >= 6.1, transparent huge pages not ``never``), and nothing a job sees
changes: its output, the preloaded modules the next job gets."""

from __future__ import annotations

import os
import re

import pytest

from quantum_codegen_eval.execution import Job, Sandbox

PRELOAD = ("numpy", "qiskit")
PROGRAM = """
import json
import numpy
a = numpy.arange(10 ** 6)
numpy.random.seed(1)
print(json.dumps([int(a.sum()), float(numpy.random.random())]))
numpy.TOUCHED = True  # a write into a preloaded module: this job's copy only
"""
NEXT = "import numpy\nprint(hasattr(numpy, 'TOUCHED'))\n"


def _supported() -> bool:
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            mode = f.read()
    except OSError:
        return False
    release = tuple(int(x) for x in re.findall(r"\d+", os.uname().release)[:2])
    return "[never]" not in mode and release >= (6, 1)


@pytest.mark.parametrize("huge", [True, False], ids=["huge-pages", "plain"])
def test_huge_pages_change_nothing_a_job_sees(huge):
    with Sandbox(workers=1, preload=PRELOAD, huge_pages=huge) as sb:
        first = sb.run_job(Job(PROGRAM, id="a"))
        second = sb.run_job(Job(NEXT, id="b"))
        collapsed = sb.isolation["huge_pages_mb"]
    assert first.status == "ok", first.stderr
    assert first.stdout == "[499999500000, 0.417022004702574]\n"
    assert second.stdout == "False\n"
    if huge and _supported():
        assert collapsed > 0  # the frameworks' heap: tens of MB
    else:
        assert collapsed == 0
