"""Harness-only compatibility shims for judging QHack on today's PennyLane (``env="current"``).

The uneditable code of several challenges uses API that later PennyLane releases removed (the
list is in docs/benchmarks/qhack.md). In ``current`` mode the judge rewrites the *harness* source
(never the solution's) with :func:`rewrite_harness`, and the jobs put the ``_qce_*`` helpers of
:mod:`.jobs.shims` into the harness's namespace first (which also records each QNode call's
arguments so that a harness can still read ``qnode.tape``). The rewrites:

==========================================  =================================================
harness code (old API)                      becomes
==========================================  =================================================
``qml.QubitStateVector``                    ``qml.StatePrep``
``from pennylane import hf``                ``hf = _qce_hf`` (``qml.qchem``; ``generate_hamiltonian``
                                            is ``qml.qchem.diff_hamiltonian``)
``gate.__module__``                         ``_qce_op_module(gate)`` (the 0.2x module names
                                            ``non_parametric_ops``/``parametric_ops``)
``qnode.tape`` / ``qnode.qtape``            ``_qce_tape(qnode)``: ``qml.workflow.construct_tape``
                                            with the arguments of the last call
``qml.broadcast(...)``                      ``_qce_broadcast(...)`` (the old template)
``dev.num_wires``                           ``_qce_num_wires(dev)`` (``len(dev.wires)``)
``op.inv()``                                ``_qce_inv(op)`` (``qml.adjoint``, dequeuing ``op``)
``x.numpy()``                               ``_qce_numpy(x)`` (``numpy.asarray``)
``np.sum(<generator>)``                     ``np.sum(list(<generator>))``
``dev.operations.add(name)``                ``_qce_add_operation(dev, name)`` (ignored if absent)
numpy >= 2 scalar reprs (``np.float64(x)``)  ``np.set_printoptions(legacy="1.25")`` (install)
==========================================  =================================================

>>> rewrite_harness("state = qml.QubitStateVector(v, wires=0)\\n")
'state = qml.StatePrep(v, wires=0)\\n'
"""

from __future__ import annotations

import ast


class _Rewriter(ast.NodeTransformer):
    def __init__(self) -> None:
        self.changed = False

    def _call(self, name: str, *args: ast.expr) -> ast.Call:
        self.changed = True
        return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=list(args), keywords=[])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST | list[ast.stmt]:
        if node.module != "pennylane" or not any(a.name == "hf" for a in node.names):
            return node
        self.changed = True
        out: list[ast.stmt] = []
        rest = [a for a in node.names if a.name != "hf"]
        if rest:
            out.append(ast.ImportFrom(module=node.module, names=rest, level=node.level))
        for a in node.names:
            if a.name == "hf":
                out.append(ast.Assign(targets=[ast.Name(id=a.asname or "hf", ctx=ast.Store())],
                                      value=ast.Name(id="_qce_hf", ctx=ast.Load()), lineno=0))
        return out

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            return node
        if node.attr == "QubitStateVector":
            self.changed = True
            return ast.Attribute(value=node.value, attr="StatePrep", ctx=ast.Load())
        if node.attr in ("tape", "qtape"):
            return self._call("_qce_tape", node.value)
        if node.attr == "__module__":
            return self._call("_qce_op_module", node.value)
        if node.attr == "num_wires":
            return self._call("_qce_num_wires", node.value)
        if node.attr == "broadcast" and isinstance(node.value, ast.Name):
            self.changed = True
            return ast.Name(id="_qce_broadcast", ctx=ast.Load())
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        f = node.func
        if isinstance(f, ast.Attribute) and not node.args and not node.keywords:
            if f.attr == "inv":
                return self._call("_qce_inv", self.visit(f.value))
            if f.attr == "numpy":
                return self._call("_qce_numpy", self.visit(f.value))
        if (isinstance(f, ast.Attribute) and f.attr == "add" and isinstance(f.value, ast.Attribute)
                and f.value.attr == "operations" and len(node.args) == 1):
            return self._call("_qce_add_operation", self.visit(f.value.value),
                              self.visit(node.args[0]))
        if (isinstance(f, ast.Attribute) and f.attr == "sum" and node.args
                and isinstance(node.args[0], ast.GeneratorExp)):
            self.changed = True
            node.args[0] = ast.Call(func=ast.Name(id="list", ctx=ast.Load()),
                                    args=[node.args[0]], keywords=[])
        self.generic_visit(node)
        return node


def rewrite_harness(source: str) -> str:
    """Apply the rewrites above to harness source (unchanged text when nothing applies or when
    the source does not parse)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    rw = _Rewriter()
    tree = rw.visit(tree)
    if not rw.changed:
        return source
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"
