"""One walk over a tree-sitter tree, flattened into lists for the syntax and dataflow matches.

In py-tree-sitter every ``node.children`` / ``node.type`` call builds new Python objects, and
the reference walks each tree several times (``str()`` of every subtree, ``tree_to_token_index``,
``DFG_python``, which revisits loop bodies and assignment sides). Here each node is visited
once: :func:`flatten` numbers the nodes in preorder and records their types, child lists and
the token leaves; the dataflow graph (``_codebleu_ref.DFG_python``) and the subtree
s-expressions (:func:`subtree_sexps`) then work on integers and plain lists.

>>> from quantum_codegen_eval.metrics.codebleu import _parser
>>> tree = flatten(_parser().parse(b"x = f(y)").root_node, _parser().language)
>>> [tree.types[i] for i in tree.token_leaves]
['identifier', '=', 'identifier', '(', 'identifier', ')']
>>> sorted(subtree_sexps(tree))[:2]
['(argument_list (identifier))', '(assignment left: (identifier) right: (call function: (identifier) arguments: (argument_list (identifier))))']
"""

from __future__ import annotations

import re

# Nodes the reference treats as one token (it never looks inside them).
STRINGISH = frozenset(("string_literal", "string", "character_literal"))

_TABLES: dict[object, tuple[dict[int, str], dict[int, bool]]] = {}


def _tables(language) -> tuple[dict[int, str], dict[int, bool]]:
    """Node type name and namedness per kind id (what ``node.type`` / ``node.is_named`` give)."""
    key = id(language)
    if key not in _TABLES:
        ids = [*range(language.node_kind_count), 0xFFFF]  # 0xFFFF: ERROR
        _TABLES[key] = (
            {k: language.node_kind_for_id(k) for k in ids},
            {k: language.node_kind_is_named(k) for k in ids},
        )
    return _TABLES[key]


class FlatTree:
    """A parsed program, nodes numbered in preorder (0 is the root).

    ``types[i]`` is node i's type, ``children[i]`` its children's numbers (an empty tuple for
    a leaf), ``nodes[i]`` the tree-sitter node (kept for the rare field lookups).
    ``token_leaves`` are the nodes the reference's ``tree_to_token_index`` lists, in its order:
    leaves and string literals (whose insides it skips), comments excluded; ``inner_leaves``
    the nodes inside string literals that its ``DFG_python`` would also treat as tokens (it
    can reach them through ``_split_sides``, and then fails to find them).
    ``has_children`` holds, in preorder over the root and the named nodes, whether the node has
    children; ``anonymous_sexps`` the ``str()`` of anonymous nodes with children (``not in``).
    """

    __slots__ = ("root", "types", "children", "nodes", "token_leaves", "inner_leaves", "has_children",
                 "anonymous_sexps", "comprehension_parents")

    def __init__(self, root):
        self.root = root
        self.types: list[str] = []
        self.children: list = []
        self.nodes: list = []
        self.token_leaves: list[int] = []
        self.inner_leaves: list[int] = []
        self.has_children: list[bool] = []
        self.anonymous_sexps: list[str] = []
        self.comprehension_parents: set[int] = set()  # nodes with a for_in_clause child

    def field(self, i: int, name: str) -> int | None:
        """The number of ``nodes[i].child_by_field_name(name)`` (one of i's children), or None."""
        found = self.nodes[i].child_by_field_name(name)
        if found is None:
            return None
        nodes = self.nodes
        for c in self.children[i]:
            if nodes[c] == found:
                return c
        raise LookupError(f"field {name!r} is not a child")  # tree-sitter never does this


def flatten(root, language) -> FlatTree:
    """Walk ``root`` (a tree of ``language``) once, iteratively: deep code must not hit the
    recursion limit."""
    names, named = _tables(language)
    tree = FlatTree(root)
    types, children, nodes = tree.types, tree.children, tree.nodes
    leaves, has_children = tree.token_leaves, tree.has_children
    # (node, parent number, inside a string literal)
    stack = [(root, -1, False)]
    pop, push = stack.pop, stack.extend
    while stack:
        node, parent, in_string = pop()
        i = len(types)
        kind = node.kind_id
        ntype = names.get(kind) or node.type
        types.append(ntype)
        nodes.append(node)
        kids = node.children
        if parent >= 0:
            children[parent].append(i)
            if named.get(kind, True):
                has_children.append(bool(kids))
            elif kids:
                tree.anonymous_sexps.append(str(node))
            if ntype == "for_in_clause":
                tree.comprehension_parents.add(parent)
        else:
            has_children.append(True)  # the root always counts as a subtree
        if kids:
            children.append([])
            if ntype in STRINGISH:
                (tree.inner_leaves if in_string else leaves).append(i)
                in_string = True
            push([(c, i, in_string) for c in reversed(kids)])
        else:
            children.append(())
            if ntype != "comment":
                (tree.inner_leaves if in_string else leaves).append(i)
    return tree


def _subtree_sexps_slow(tree: FlatTree) -> list[str]:
    """str() of the root and of every node that has children (the reference's subtrees)."""
    nodes = tree.nodes
    return [str(nodes[i]) for i, kids in enumerate(tree.children) if kids or i == 0]


_PAREN = re.compile(r"[()]")


def subtree_sexps(tree: FlatTree) -> list[str]:
    """The s-expressions of the reference's subtrees (the root and every node with children),
    cut out of ``str(root)`` in one pass.

    Without parse errors the root's s-expression has one ``(`` per named node, in preorder,
    and each named node's own ``str()`` is its balanced ``(...)`` span. Anonymous nodes with
    children (``not in``, ``is not``) are not printed inside their parent, so they are
    ``str()``-ed directly. Trees with errors may print quoted parentheses (``MISSING ")"``) and
    take the slow path. tests/metrics/test_codebleu_parity.py checks both paths agree.
    """
    root = tree.root
    if root.has_error:
        return _subtree_sexps_slow(tree)
    text = str(root)
    has_children = tree.has_children
    if text.count("(") != len(has_children) or text.count(")") != len(has_children):
        return _subtree_sexps_slow(tree)  # unexpected layout: never guess
    out = list(tree.anonymous_sexps)
    opens: list[int] = []
    starts: list[int] = []
    for m in _PAREN.finditer(text):
        if m.group() == "(":
            opens.append(len(starts))
            starts.append(m.start())
        else:
            k = opens.pop()
            if has_children[k]:
                out.append(text[starts[k] : m.end()])
    return out
