"""The harness's UME guard does not depend on anything the program can reach.

Job modules are registered in ``sys.modules`` of the untrusted process, and the import guard is
``builtins.__import__``: the audit hook and the channel writer it calls must read no global name
at run time (a patched module global would change them) and share no cell with the guard (whose
closure the program can rewrite). The red-team programs that try both are in
``test_module_reach.py``.
"""

from __future__ import annotations

import dis
import os
import sys
import types

from quantum_codegen_eval.judges.qcoder.jobs import harness


def _inner_code(factory) -> list[types.CodeType]:
    """Every code object defined inside ``factory`` (the functions it builds), recursively."""
    out, todo = [], [c for c in factory.__code__.co_consts if isinstance(c, types.CodeType)]
    while todo:
        co = todo.pop()
        out.append(co)
        todo += [c for c in co.co_consts if isinstance(c, types.CodeType)]
    return out


def test_the_hook_and_its_writer_read_no_global_name():
    codes = [c for f in (harness.audit_hook, harness.channel_writer, harness.module_rule)
             for c in _inner_code(f)]
    assert {c.co_name for c in codes} >= {"hook", "who", "refuse", "machinery", "emit",
                                         "module_ok"}
    reads = {(c.co_name, i.argval) for c in codes for i in dis.get_instructions(c)
             if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    assert not reads, sorted(reads)


def test_the_hook_shares_no_cell_with_the_guard(tmp_path):
    """Built as ``main`` builds them: what the guard's closure holds (and the closures of the
    functions it holds) is never what the hook's holds."""
    chan = os.open(tmp_path / "ume.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    ident = (os.fstat(chan).st_dev, os.fstat(chan).st_ino)

    def writer():
        return harness.channel_writer(chan, ident, os.write, os.fstat, os._exit, len, OSError, 86)

    guard = harness.import_guard(writer(), harness.module_rule(("math",), any), sys._getframe,
                                 __import__, frozenset(), frozenset(), (), types.ModuleType,
                                 (isinstance, str, any, getattr))
    hook = harness.audit_hook(writer(), harness.module_rule(("math",), any), (guard.__code__,),
                              sys._getframe, lambda: 0, os.O_WRONLY,
                              (isinstance, str, int, len, repr, any, PermissionError))

    def reach(fn) -> tuple[set[int], set[int]]:
        cells, funcs, todo = set(), set(), [fn]
        while todo:
            f = todo.pop()
            if id(f) in funcs:
                continue
            funcs.add(id(f))
            for c in f.__closure__ or ():
                cells.add(id(c))
                if isinstance(c.cell_contents, types.FunctionType):
                    todo.append(c.cell_contents)
        return cells, funcs - {id(fn)}

    g_cells, g_funcs = reach(guard)
    h_cells, h_funcs = reach(hook)
    assert h_cells and g_cells and not g_cells & h_cells
    assert h_funcs and not g_funcs & h_funcs
    os.close(chan)


def test_a_refusal_starts_a_line_of_its_own(tmp_path):
    """Text the program appended to the channel without a newline cannot swallow a refusal."""
    path = tmp_path / "ume.log"
    chan = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    ident = (os.fstat(chan).st_dev, os.fstat(chan).st_ino)
    emit = harness.channel_writer(chan, ident, os.write, os.fstat, os._exit, len, OSError, 86)
    os.write(chan, b"# no newline")
    emit("UME import smtplib")
    emit("END")
    os.close(chan)
    lines = path.read_text().splitlines()
    assert "UME import smtplib" in lines and lines[-1] == "END"
