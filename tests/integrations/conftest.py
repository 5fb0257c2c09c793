"""Fixtures of the integration tests: the sample's Qiskit prompts, a fixed model's answers
(support/integration_programs.py) and one sandbox shared by the session."""

from __future__ import annotations

import pytest
from integration_programs import PROGRAMS

from quantum_codegen_eval.benchmarks import sample


@pytest.fixture(scope="session")
def prompts() -> dict[str, str]:
    """problem id -> its prompt (the text a harness sends to the model)."""
    return {pid: sample.prompt(task) for pid, task in sample.problems("qiskit").items()}


@pytest.fixture(scope="session")
def answers(prompts) -> dict[str, str]:
    """prompt -> the completion a fixed model gives."""
    return {prompts[pid]: text for pid, text in PROGRAMS.items()}


@pytest.fixture(scope="session")
def sandbox():
    from quantum_codegen_eval.execution import Sandbox

    with Sandbox(workers=2) as sb:
        yield sb
