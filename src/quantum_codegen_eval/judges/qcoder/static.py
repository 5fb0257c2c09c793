"""What the QCoder judge decides from the code alone: the UME rule.

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

LIB_MODULE = "qiskit.circuit.library"
#: builtins that run or compile code, or hand out namespaces the guard lives in
DYNAMIC_NAMES = {"exec", "eval", "compile", "__import__", "__builtins__", "globals", "vars",
                 "locals", "breakpoint", "help", "__loader__", "__spec__",
                 # a class pattern reads the attributes named here (with a metaclass whose
                 # ``__instancecheck__`` accepts anything: any attribute of any object)
                 "__match_args__",
                 # numpy reads memory at whatever address these claim (no audit event)
                 "__array_interface__", "__array_struct__"}
#: classes whose one positional class pattern matches the subject itself (``case int(x)``)
SELF_MATCHING = {"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set",
                 "str", "tuple", "complex"}
#: attribute access by a name computed at run time reaches anything (``__globals__`` ...)
COMPUTED_ATTR_CALLS = {"getattr", "setattr", "delattr"}
#: attributes that reach frames, code, closures, namespaces or the class graph
DYNAMIC_ATTRS = {"__globals__", "__builtins__", "__code__", "__closure__", "__subclasses__",
                 "__bases__", "__base__", "__mro__", "__dict__", "__import__", "__loader__",
                 "__spec__", "__self__", "__func__", "__getattribute__", "__reduce__",
                 "__reduce_ex__", "__init_subclass__", "__class_getitem__", "f_globals",
                 "f_locals", "f_back", "f_builtins", "f_code", "gi_frame", "cr_frame", "ag_frame",
                 "tb_frame", "tb_next", "co_code", "cell_contents", "gi_code", "cr_code",
                 "ag_code", "co_names", "co_consts", "co_varnames",
                 # functions that permitted packages import and that fetch a module or an
                 # attribute by a computed name (scipy._lib.deprecation.import_module, ...)
                 "import_module", "reload", "attrgetter", "methodcaller", "locate",
                 "importorskip", "get_field", "__match_args__", "__getattr__",
                 "__array_interface__", "__array_struct__",
                 # functions of modules reachable from permitted packages that evaluate strings
                 # (``typing.get_type_hints`` on string annotations, ``numpy.f2py``'s evaluators)
                 "get_type_hints", "ForwardRef", "_eval_type", "_evaluate", "myeval",
                 "param_eval", "run_docstring_examples", "run_module"}
#: system modules whose mere reach (``np.some_path.os``) is refused like their import
SYSTEM_MODULES = {"os", "sys", "builtins", "importlib", "subprocess", "ctypes", "gc", "inspect",
                  "socket", "posix", "shutil", "pickle", "marshal", "types", "runpy", "pkgutil",
                  "signal", "threading", "multiprocessing", "pathlib", "io", "codecs", "atexit",
                  "weakref", "mmap", "fcntl", "resource", "traceback", "linecache", "tempfile",
                  "imp", "bootstrap", "bootstrap_external", "thread", "frozen_importlib",
                  # imported by numpy/scipy modules, reachable as their attributes: computed
                  # attribute access, import by name, code execution
                  "operator", "functools", "pydoc", "timeit", "pytest", "unittest", "copyreg",
                  "string", "code", "codeop", "json", "concurrent", "logging", "platform",
                  "sysconfig", "dataclasses", "doctest", "profile", "cProfile", "pdb",
                  "bdb", "zipimport", "site", "warnings", "collections"}


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

    def name_bad(name: str) -> str | None:
        """Why an attribute (or a name imported from a permitted module) is refused."""
        if name in DYNAMIC_ATTRS:
            return f".{name} (reach into the interpreter)"
        if name.lstrip("_") in SYSTEM_MODULES and not mod_ok(name):
            return f".{name} (module {name.lstrip('_')} reached through an attribute)"
        return None

    bad: list[str] = []
    tree = ast.parse(code)
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    bound = _bound_names(tree)
    bad += _package_reach(tree, mod_ok, set(names))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad += [f"import {a.name}" for a in node.names if not mod_ok(a.name)]
        elif isinstance(node, ast.ImportFrom):
            m = node.module or ""
            if node.level:
                bad.append(f"from {'.' * node.level}{m} import ...")
            elif not mod_ok(m):
                bad += [f"from {m} import {a.name}" for a in node.names
                        if f"{m}.{a.name}" not in names and not (m == LIB_MODULE and a.name in lib)]
            else:  # a permitted module may hold others: ``from numpy.<private> import os``
                bad += [f"from {m} import {a.name}: {why}" for a in node.names
                        if (why := name_bad(a.name)) and not _submodule(f"{m}.{a.name}")]
        elif isinstance(node, ast.Name) and node.id in DYNAMIC_NAMES:
            bad.append(f"{node.id} (dynamic code execution)")
        elif (isinstance(node, ast.Name) and node.id in COMPUTED_ATTR_CALLS
              and id(node) not in called):
            bad.append(f"{node.id} passed or aliased (dynamic attribute access)")
        elif isinstance(node, ast.Attribute):
            if why := name_bad(node.attr):
                bad.append(why)
        elif isinstance(node, ast.MatchClass):  # ``case object(__globals__=g)`` reads attributes
            bad += [why for a in node.kwd_attrs if (why := name_bad(a))]
            # ``case C(v)`` reads the attribute named first in ``C.__match_args__``, a string
            # the program may compute (and a metaclass ``__instancecheck__`` lets C match any
            # object): only the builtins that match the subject itself are left alone
            if node.patterns and not (isinstance(node.cls, ast.Name)
                                      and node.cls.id in SELF_MATCHING and node.cls.id not in bound):
                bad.append("positional class pattern (reads attributes named by __match_args__)")
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


def _package_reach(tree: ast.AST, mod_ok, names: set[str]) -> list[str]:
    """``import qiskit.circuit.library.standard_gates`` binds ``qiskit``: every use of such a
    top-level name must stay inside what the rules permit (``qiskit.circuit.library.QFT``,
    ``qiskit.transpile`` or ``qiskit`` itself passed around are UME)."""
    tops = {a.name.partition(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
            for a in n.names if a.asname is None and "." in a.name}
    tops = {t for t in tops if not mod_ok(t)}
    if not tops:
        return []
    parent: dict[int, ast.AST] = {}
    for n in ast.walk(tree):
        for child in ast.iter_child_nodes(n):
            parent[id(child)] = n
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id in tops and isinstance(n.ctx, ast.Load):
            path, node = [n.id], n
            while isinstance(up := parent.get(id(node)), ast.Attribute) and up.value is node:
                path.append(up.attr)
                node = up
            dotted = ".".join(path)
            if not (mod_ok(dotted) or dotted in names
                    or any(mod_ok(".".join(path[:k])) for k in range(1, len(path)))):
                out.append(f"{dotted} (outside the permitted modules)")
    return out


def _bound_names(tree: ast.AST) -> set[str]:
    """Every name the program binds (assignments, definitions, imports, arguments, captures)."""
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.alias):
            out.add((n.asname or n.name).partition(".")[0])
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            out.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            out.add(n.rest)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            out.update(n.names)
    return out


def _submodule(path: str) -> bool:
    """``path`` names a real module (``scipy.signal``, ``scipy.io``), not a module attribute."""
    import importlib.util

    try:
        return importlib.util.find_spec(path) is not None
    except (ImportError, ValueError, AttributeError):
        return False
