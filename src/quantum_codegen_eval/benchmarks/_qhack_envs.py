"""The QHack era environments: one pinned recipe per contest (built by ``execution.envs``).

2022 installs the contest's own pins (``Coding_Challenges/requirements.txt``: ``pennylane==0.21.0``,
``numpy==1.20.3``) on a Python of the era (3.9 or 3.8; numpy 1.20.3 has no wheel for newer ones).
Without such an interpreter it falls back to PennyLane 0.21 on today's Python with numpy 1.26,
which builds a wrong H2 Hamiltonian in ``qchem_500_MindTheGap``'s driver (one term, ground energy
+0.756 instead of -1.136): the fallback warns. 2023 and 2024 published no requirements; their
recipes pin the PennyLane release of the contest on the interpreter running this package.

>>> [row["name"] for row in list_envs()]
['qhack-2022', 'qhack-2023', 'qhack-2024']
>>> python = env_python("qhack-2023")  # doctest: +SKIP
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..execution import envs
from ..execution.envs import Recipe

_CHECK = ("numpy", "scipy", "pennylane", "networkx")

_2022_TODAY = Recipe(
    "qhack-2022-today",
    # numpy 1.20 has no wheel for Python >= 3.10; autoray >= 0.3 breaks 0.21's imports
    ("pennylane==0.21.0", "pennylane-lightning==0.21.0", "numpy==1.26.4", "scipy==1.11.4",
     "autograd==1.5", "autoray==0.2.5", "networkx==2.8.8", "retworkx==0.13.2",
     "rustworkx==0.13.2", "semantic_version==2.6.0", "toml==0.10.2", "appdirs==1.4.4",
     "cachetools==8.0.2", "future==1.0.0", "ninja==1.13.2"),
    _CHECK, "QHack 2022 (PennyLane 0.21.0) on today's Python, numpy 1.26.4",
)

#: every package pinned to a release of its era (0.28 needs numpy < 1.24; autograd > 1.6.2 breaks
#: Hamiltonian gradients on 0.34; autoray >= 0.7 and scipy >= 1.13 break 0.34's imports)
RECIPES: dict[str, Recipe] = {
    "qhack-2022": Recipe(
        "qhack-2022",
        ("pennylane==0.21.0", "numpy==1.20.3", "pennylane-lightning==0.21.0", "scipy==1.7.3",
         "autograd==1.3", "autoray==0.2.5", "networkx==2.6.3", "retworkx==0.11.0",
         "semantic_version==2.6.0", "toml==0.10.2", "appdirs==1.4.4", "cachetools==4.2.4",
         "future==1.0.0"),
        _CHECK, "QHack 2022 (the contest's pins: PennyLane 0.21.0, numpy 1.20.3; Python 3.9/3.8)",
        pythons=("3.9", "3.8"), fallback=_2022_TODAY,
        fallback_note=("numpy 1.26.4 instead of the contest's 1.20.3: 2022 qchem_500_MindTheGap's "
                       "driver builds a wrong H2 Hamiltonian, so no solution can pass it; other "
                       "numerical results may differ slightly."),
    ),
    "qhack-2023": Recipe(
        "qhack-2023",
        ("pennylane==0.28.0", "pennylane-lightning==0.28.0", "numpy==1.23.5", "scipy==1.10.1",
         "autograd==1.5", "autoray==0.3.1", "networkx==2.8.8", "retworkx==0.13.2",
         "rustworkx==0.13.2", "semantic_version==2.10.0", "toml==0.10.2", "appdirs==1.4.4",
         "cachetools==8.0.2", "future==1.0.0", "ninja==1.13.2", "requests==2.34.2"),
        _CHECK, "QHack 2023 (PennyLane 0.28.0)",
    ),
    "qhack-2024": Recipe(
        "qhack-2024",
        ("pennylane==0.34.0", "pennylane-lightning==0.34.0", "numpy==1.26.4", "scipy==1.12.0",
         "autograd==1.6.2", "autoray==0.6.12", "networkx==3.6.1", "rustworkx==0.18.1",
         "semantic_version==2.10.0", "toml==0.10.2", "appdirs==1.4.4", "cachetools==8.0.2",
         "future==1.0.0", "requests==2.34.2", "typing_extensions==4.16.0"),
        _CHECK, "QHack 2024 (PennyLane 0.34.0)",
    ),
}


def recipe(name: str) -> Recipe:
    if name not in RECIPES:
        raise ValueError(f"unknown era environment {name!r}; known: {', '.join(RECIPES)}")
    return RECIPES[name]


def list_envs() -> list[dict]:
    """One row per environment: name, ready, recipe, description, path, built (its stamp)."""
    return [envs.describe(r) for r in RECIPES.values()]


def env_python(name: str, create: bool = True) -> Path:
    """The python of environment ``name``; created first when missing and ``create`` is true
    (saying so on stderr first: it downloads and installs for minutes)."""
    r = recipe(name)
    if create and not envs.describe(r)["ready"]:
        started = time.monotonic()
        print(f"qce: {creating_message(name)}", file=sys.stderr, flush=True)
        path = envs.python_of(r, create_missing=True)
        print(f"qce: environment {name} ready in {time.monotonic() - started:.0f} s (kept in "
              f"{path.parent.parent}; later runs reuse it)", file=sys.stderr, flush=True)
        return path
    return envs.python_of(r, create_missing=create)


def creating_message(name: str) -> str:
    """What a run says before building environment ``name``."""
    r = recipe(name)
    pennylane = next((q.split("==")[1] for q in r.requirements if q.startswith("pennylane==")), "?")
    year = name.rsplit("-", 1)[-1]
    return (f"creating the PennyLane {pennylane} environment for QHack {year} ({name}): "
            f"downloading and installing {len(r.requirements)} pinned packages, once, usually "
            f"a few minutes (`qce env create {name}` does it ahead) ...")


def create_env(name: str, *, force: bool = False, python: str | None = None) -> Path:
    """Build environment ``name`` (``python``: the interpreter to build it from)."""
    return envs.create(recipe(name), force=force, python=python)


def remove_env(name: str) -> None:
    envs.remove(recipe(name))
