"""Judges: one per benchmark, all returning the common Verdict (see judges/base.py)."""
