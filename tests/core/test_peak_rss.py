"""The peak-memory helper of the tests (tests/support/peak_rss.py) reads the work's own peak:
neither masked by a large test process nor inherited from it."""

from __future__ import annotations

from peak_rss import run_fresh, start_window, status_mb

MB = 1 << 20


def allocate(setup_mb: int, work_mb: int) -> int:
    """Touch ``setup_mb``, free it, open the window, then touch ``work_mb``."""
    setup = bytearray(setup_mb * MB)
    del setup
    start_window()
    work = bytearray(work_mb * MB)
    return len(work) // MB


def test_the_work_peak_is_its_own():
    large = bytearray(400 * MB)  # this process has been large: ru_maxrss would carry it over
    assert status_mb("VmHWM") > 400
    del large
    small = run_fresh(allocate, 300, 0)
    assert small.result == 0 and small.peak_mb < 150 and small.growth_mb < 10, small
    big = run_fresh(allocate, 0, 200)
    assert big.result == 200 and 190 <= big.growth_mb < 220 and big.peak_mb >= 190, big
