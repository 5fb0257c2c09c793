"""Metrics tests: the test-support modules (reference CodeBLEU venv, real-code corpora) live in
tests/support/, outside the package (issue 12: metrics/ holds pure functions only)."""

from __future__ import annotations

import sys
from pathlib import Path

SUPPORT = Path(__file__).resolve().parents[1] / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))
