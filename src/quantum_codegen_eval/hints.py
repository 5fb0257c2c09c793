""""Did you mean ...?": the closest known names to a misspelled one (``difflib``).

>>> did_you_mean("evalute", ["build", "evaluate", "judge"])
"; did you mean 'evaluate'?"
>>> did_you_mean("xyz", ["build", "evaluate"])
''
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def close_matches(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The known names closest to ``word`` (case-insensitive), best first."""
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    return [lowered[m] for m in difflib.get_close_matches(str(word).lower(), list(lowered), n=n,
                                                          cutoff=0.6)]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` (or ``'x' or 'y'``) for a message's end; empty when nothing
    is close."""
    matches = close_matches(word, choices, n=2)
    if not matches:
        return ""
    return "; did you mean " + " or ".join(repr(m) for m in matches) + "?"


def install_command(modules: Iterable[str]) -> str:
    """The command that installs ``modules`` into this interpreter: for each, the smallest extra
    of this package that requires its distribution (read from the installed metadata), else the
    distribution itself.

    >>> install_command(["qiskit_aer", "pennylane", "qiskit"])
    'pip install "quantum-codegen-eval[qiskit,pennylane]"'
    """
    import re
    from importlib import metadata

    try:
        requirements = metadata.requires("quantum-codegen-eval") or []
    except metadata.PackageNotFoundError:  # a source tree on sys.path, not installed
        requirements = []
    by_extra: dict[str | None, list[str]] = {}
    for requirement in requirements:
        name = re.match(r"[A-Za-z0-9._-]+", requirement)
        extra = re.search(r"""extra\s*==\s*['"]([^'"]+)['"]""", requirement)
        if name:
            by_extra.setdefault(extra and extra.group(1), []).append(
                re.sub(r"[._]", "-", name.group(0).lower()))
    extras: dict[str, None] = {}
    others: dict[str, None] = {}
    for module in modules:
        dist = module.split(".")[0].replace("_", "-").lower()
        if dist in by_extra.get(None, []):  # a core dependency: the install itself is broken
            return "pip install --force-reinstall quantum-codegen-eval"
        fits = sorted((len(names), extra) for extra, names in by_extra.items()
                      if extra not in (None, "all", "test") and dist in names)
        if fits:
            extras[fits[0][1]] = None
        else:
            others[dist] = None
    commands = [f'pip install "quantum-codegen-eval[{",".join(extras)}]"'] if extras else []
    if others:
        commands.append("pip install " + " ".join(others))
    return " && ".join(commands)


def missing_package_message(python: str, missing: Iterable[str], own: bool,
                            environment: str | None = None) -> str:
    """How to give ``python`` the ``missing`` modules: this package's extra for its own
    interpreter, ``qce env`` for a benchmark's environment (``environment``)."""
    missing = list(missing)
    if own:
        return "install with: " + install_command(missing)
    if environment:
        return (f"recreate the environment: qce env remove {environment} && "
                f"qce env create {environment}")
    return f"install {', '.join(missing)} into {python}"
