"""Shared fixtures and the test tiers. Area-specific fixtures live in tests/<area>/conftest.py.

Tiers: a plain ``pytest`` runs the fast tier, what a contributor runs before every commit. Tests
marked ``slow`` (the demo, the release build, long sandbox sweeps), ``era`` (QHack era
environments) or ``upstream`` (the upstream archives; every test that uses the ``github_url``
fixture, directly or through another fixture, is marked here) are deselected unless asked for:
``--run-slow``, ``--run-era``, ``--run-upstream``, or ``--all`` (what ``make test`` and CI run).

The upstream repositories come through the package's real download path: ``QCE_GITHUB_URL`` is
pointed at the local mirror ``../shared/upstream/github`` (the archives exactly as
codeload.github.com serves them; override the folder with ``$QCE_TEST_GITHUB_MIRROR``, or set
``QCE_GITHUB_URL`` yourself), so no test reaches the internet.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
import upstream_tree  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def github_mirror() -> Path | None:
    """The folder of upstream archives: $QCE_TEST_GITHUB_MIRROR, else ../shared/upstream/github
    beside the clone or one of its parents."""
    env = os.environ.get("QCE_TEST_GITHUB_MIRROR")
    if env:
        path = Path(env)
        if not path.is_dir():
            raise RuntimeError(f"QCE_TEST_GITHUB_MIRROR={env} is not a folder")
        return path.resolve()
    for parent in REPO.parents:  # ../shared beside the clone (a worktree may sit deeper)
        guess = parent / "shared" / "upstream" / "github"
        if guess.is_dir():
            return guess.resolve()
    return None


TIERS = ("slow", "era", "upstream")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tiers", "test tiers (a plain run is the fast tier)")
    for tier in TIERS:
        group.addoption(f"--run-{tier}", action="store_true",
                        help=f"also run the tests marked {tier}")
    group.addoption("--all", action="store_true", dest="run_all",
                    help="run every tier (make test, CI)")


def _tiers_on(config: pytest.Config) -> set[str]:
    if config.getoption("run_all"):
        return set(TIERS)
    return {t for t in TIERS if config.getoption(f"run_{t}")}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    on = _tiers_on(config)
    keep, off = [], []
    for item in items:
        if "github_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.upstream)
        marked = {t for t in TIERS if item.get_closest_marker(t)}
        (off if marked - on else keep).append(item)
    if off:
        config.hook.pytest_deselected(items=off)
        items[:] = keep
        config.stash[_DESELECTED] = len(off)


_DESELECTED = pytest.StashKey[int]()


def pytest_report_header(config: pytest.Config) -> str:
    on = _tiers_on(config)
    return ("tiers: fast" + "".join(f" + {t}" for t in TIERS if t in on)
            + ("" if on == set(TIERS) else " (--all runs every tier)"))


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    n = config.stash.get(_DESELECTED, 0)
    if n:
        off = ", ".join(f"--run-{t}" for t in TIERS if t not in _tiers_on(config))
        terminalreporter.write_line(f"{n} tests of other tiers not run ({off}, or --all)")


_MIRROR = github_mirror()
if _MIRROR is not None and not os.environ.get("QCE_GITHUB_URL"):
    os.environ["QCE_GITHUB_URL"] = _MIRROR.as_uri()


@pytest.fixture(scope="session")
def github_url() -> str:
    """The download base every build in the tests uses (a file:// mirror)."""
    url = os.environ.get("QCE_GITHUB_URL")
    if not url or not url.startswith("file://"):
        if os.environ.get("CI"):
            raise RuntimeError("CI run without the upstream archives: ../shared/upstream/github "
                               "or $QCE_TEST_GITHUB_MIRROR")
        pytest.skip("upstream archives not found: set QCE_TEST_GITHUB_MIRROR")
    return url


@pytest.fixture(scope="session")
def upstream(github_url, tmp_path_factory) -> Path:
    """A folder ``qhack/``, ``qcoder/``, ``qiskit_humaneval/``, each holding that benchmark's
    upstream repositories unpacked (``<repo>-<commit>/``), as a user's ``--source`` would."""
    return upstream_tree.tree(tmp_path_factory.mktemp("upstream"))
