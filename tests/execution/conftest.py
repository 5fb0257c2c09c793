"""Fixtures for the sandbox tests: one shared pre-imported pool (starting one costs seconds)."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.execution import Sandbox

# What a judge of quantum programs would name; the sandbox itself preloads nothing.
QUANTUM_PRELOAD = ("numpy", "pennylane", "qiskit", "qiskit_aer")
QUANTUM_ENV = {"QISKIT_IN_PARALLEL": "TRUE"}


@pytest.fixture(scope="session")
def sandbox():
    with Sandbox(workers=2, wall_time=5, memory_mb=2048, preload=QUANTUM_PRELOAD,
                 env=QUANTUM_ENV) as sb:
        yield sb


@pytest.fixture(scope="session")
def light_sandbox():
    """No pre-imports: for tests about the mechanics, not the frameworks."""
    with Sandbox(workers=2, preload=(), wall_time=5, memory_mb=1024) as sb:
        yield sb
