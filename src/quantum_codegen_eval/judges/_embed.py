"""Job programs are real modules of this package; this ships one into a sandbox job as a script.

A sandbox job cannot import this package (it runs in an era environment, or as an unprivileged
user). :func:`job_source` turns a job module, the job modules it imports (found by reading its
import statements, transitively) and one call of its entry function into one script: each module
is registered under its own dotted name before the next is executed, so ``import`` and
``from . import x`` between job modules work the same in the job and in this package (where the
trusted side and the tests import them normally).

A job module imports only the standard library, the frameworks of its job (numpy, Qiskit,
PennyLane) and other job modules, has no effect when imported, and runs on the oldest Python an
era environment has (tests/core/test_architecture.py and ``make lint`` check it).
"""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import _bootstrap

if TYPE_CHECKING:
    from ..execution.types import Job


def job_source(entry: ModuleType, function: str = "main", *args: object) -> str:
    """The script that runs ``entry.function(*args)`` in a job: the bootstrap, every job module
    ``entry`` needs (dependencies first), then the call. ``args`` are literals (str, bytes,
    numbers, None, and lists/tuples/dicts of them): they are written into the script with
    ``repr`` and must read back equal."""
    for arg in args:
        try:
            same = ast.literal_eval(repr(arg)) == arg
        except (ValueError, SyntaxError):
            same = False
        if not same:
            raise TypeError(f"job argument is not a literal: {type(arg).__name__}")
    call = ", ".join(repr(a) for a in args)
    return modules_source(entry) + f"sys.modules[{entry.__name__!r}].{function}({call})\n"


def job(entry: ModuleType, function: str = "main", *args: object, **fields: Any) -> Job:
    """The sandbox ``Job`` that runs ``entry.function(*args)`` (:func:`job_source`) with the
    worker's prelude of its modules (:func:`prelude`); ``fields``: the job's other fields."""
    from ..execution.types import Job

    return Job(job_source(entry, function, *args), prelude=prelude(entry), **fields)


def prelude(entry: ModuleType) -> str:
    """``Job.prelude`` for a job of ``entry``: the sandbox's worker installs the job modules
    once and the jobs it forks find them installed (about 4 ms of each function-test job, 20
    before anything was kept). Public code of this package, never a secret."""
    return modules_source(entry)


@functools.cache
def modules_source(entry: ModuleType) -> str:
    """The start of :func:`job_source`'s script: the bootstrap and the modules ``entry`` needs,
    installed, without a call."""
    modules = [(name, _source(name)) for name in needed(entry.__name__)]
    return _source(_bootstrap.__name__) + f"\n\n_install({modules!r})\n"


@functools.cache
def needed(name: str) -> tuple[str, ...]:
    """``name`` and the job modules it imports, transitively, each after what it imports."""
    order: list[str] = []
    _visit(name, order, set())
    return tuple(order)


def _visit(name: str, order: list[str], active: set[str]) -> None:
    if name in order:
        return
    if name in active:
        raise ImportError(f"job modules import each other in a cycle at {name}")
    active.add(name)
    for dep in _imports(name):
        _visit(dep, order, active)
    active.discard(name)
    order.append(name)


def _imports(name: str) -> list[str]:
    """The modules of ``name``'s top-level package that it imports (absolute or relative)."""
    package, top = name.rpartition(".")[0], name.split(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(_source(name))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            if base.split(".")[0] != top:  # a framework: never imported here (it may be absent)
                continue
            # `from pkg import mod` names a module when it is one; else it is an attribute
            targets = [f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            if target.split(".")[0] == top and target != name and _is_module(target):
                if _is_package(target):
                    raise ImportError(f"job module {name} imports the package {target}: "
                                      "import its modules")
                found.append(target)
    return list(dict.fromkeys(found))


@functools.cache
def _source(name: str) -> str:
    return Path(_file(name)).read_text(encoding="utf-8")


def _file(name: str) -> str:
    module = importlib.import_module(name)
    if module.__file__ is None:
        raise ImportError(f"{name} has no source file")
    return module.__file__


def _is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def _is_package(name: str) -> bool:
    return hasattr(importlib.import_module(name), "__path__")
