"""What the QCoder judge decides from the text alone: the code to run and the UME rule.

UME is decided twice: here on the AST before anything runs (authoritative), and at run time by
the harness's audit hook. Statically, an import outside ``rules.txt`` is UME, and so is any
dynamic code execution or reach into the import machinery (``exec``, ``eval``, ``compile``,
``__import__``, ``__builtins__``, ``globals()``, ``vars()``, frame / code / closure attributes,
an attribute named like a system module (``.os``, ``._sys``), ``getattr``/``setattr``/``delattr``
with a computed or dunder name): none of it builds a circuit, and all of it is how an import
guard is dodged. Deliberately strict: ``getattr(qc, name)`` with a computed ``name`` is UME.

>>> static_imports("import os\\nfrom qiskit import QuantumCircuit", ["qiskit.QuantumCircuit"])
['import os']
>>> static_imports("f = eval\\n", [])
['eval (dynamic code execution)']
"""

from __future__ import annotations

import ast
import re

LIB_MODULE = "qiskit.circuit.library"
#: builtins that run or compile code, or hand out namespaces the guard lives in
DYNAMIC_NAMES = {"exec", "eval", "compile", "__import__", "__builtins__", "globals", "vars",
                 "locals", "breakpoint", "help", "__loader__", "__spec__"}
#: attribute access by a name computed at run time reaches anything (``__globals__`` ...)
COMPUTED_ATTR_CALLS = {"getattr", "setattr", "delattr"}
#: attributes that reach frames, code, closures, namespaces or the class graph
DYNAMIC_ATTRS = {"__globals__", "__builtins__", "__code__", "__closure__", "__subclasses__",
                 "__bases__", "__base__", "__mro__", "__dict__", "__import__", "__loader__",
                 "__spec__", "__self__", "__func__", "__getattribute__", "__reduce__",
                 "__reduce_ex__", "__init_subclass__", "__class_getitem__", "f_globals",
                 "f_locals", "f_back", "f_builtins", "f_code", "gi_frame", "cr_frame", "ag_frame",
                 "tb_frame", "tb_next", "co_code", "cell_contents"}
#: system modules whose mere reach (``np.some_path.os``) is refused like their import
SYSTEM_MODULES = {"os", "sys", "builtins", "importlib", "subprocess", "ctypes", "gc", "inspect",
                  "socket", "posix", "shutil", "pickle", "marshal", "types", "runpy", "pkgutil",
                  "signal", "threading", "multiprocessing", "pathlib", "io", "codecs", "atexit",
                  "weakref", "mmap", "fcntl", "resource", "traceback", "linecache", "tempfile",
                  "imp", "bootstrap", "bootstrap_external", "thread", "frozen_importlib"}


def library_names() -> list[str]:
    """Names importable from ``qiskit.circuit.library`` under the rules (the standard gates)."""
    import qiskit.circuit.library.standard_gates as sg

    return sorted(n for n in dir(sg) if not n.startswith("_"))


def split_allowed(allowed: list[str]) -> tuple[list[str], list[str]]:
    """Allowed dotted entries -> (modules, module.Name entries)."""
    mods, names = [], []
    for a in allowed:
        _head, _, tail = a.rpartition(".")
        (names if tail[:1].isupper() else mods).append(a)
    return mods, names


def static_imports(code: str, allowed: list[str]) -> list[str]:
    """UME reasons found in ``code``: imports outside ``allowed``, dynamic code execution
    (syntax errors raise)."""
    mods, names = split_allowed(allowed)
    lib = set(library_names())

    def mod_ok(m: str) -> bool:
        return m == "__future__" or any(m == a or m.startswith(a + ".") for a in mods)

    bad: list[str] = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            bad += [f"import {a.name}" for a in node.names if not mod_ok(a.name)]
        elif isinstance(node, ast.ImportFrom):
            m = node.module or ""
            if node.level:
                bad.append(f"from {'.' * node.level}{m} import ...")
            elif not mod_ok(m):
                bad += [f"from {m} import {a.name}" for a in node.names
                        if f"{m}.{a.name}" not in names and not (m == LIB_MODULE and a.name in lib)]
        elif isinstance(node, ast.Name) and node.id in DYNAMIC_NAMES:
            bad.append(f"{node.id} (dynamic code execution)")
        elif isinstance(node, ast.Attribute):
            if node.attr in DYNAMIC_ATTRS:
                bad.append(f".{node.attr} (reach into the interpreter)")
            elif node.attr.lstrip("_") in SYSTEM_MODULES and not mod_ok(node.attr):
                bad.append(f".{node.attr} (module {node.attr.lstrip('_')} reached through an "
                           "attribute)")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in COMPUTED_ATTR_CALLS):
            name = node.args[1] if len(node.args) > 1 else None
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                bad.append(f"{node.func.id}(..., <computed name>) (dynamic attribute access)")
            elif name.value.startswith("__") or name.value.lstrip("_") in SYSTEM_MODULES \
                    or name.value in DYNAMIC_ATTRS:
                bad.append(f"{node.func.id}(..., {name.value!r}) (reach into the interpreter)")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and "__import__" in node.value):
            bad.append("'__import__' (dynamic import by name)")
    return list(dict.fromkeys(bad))


def extract_code(completion: str) -> str:
    """The last python code block of a model answer, or the whole text when it has none."""
    blocks = re.findall(r"```(?:python|py|Python)?[ \t]*\n(.*?)```", completion, re.S)
    return blocks[-1] if blocks else completion
