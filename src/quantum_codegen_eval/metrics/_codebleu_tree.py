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

from itertools import accumulate

# Nodes the reference treats as one token (it never looks inside them).
STRINGISH = frozenset(("string_literal", "string", "character_literal"))

_TABLES: dict[object, tuple[dict[int, str], dict[int, bool]]] = {}


class _KindTable(dict):
    """kind id -> value, filled from ``language`` for ids it was not built with."""

    def __init__(self, language, get):
        self.language, self.get_value = language, get
        super().__init__((k, get(k)) for k in [*range(language.node_kind_count), 0xFFFF])

    def __missing__(self, kind: int):
        self[kind] = value = self.get_value(kind)
        return value


def _tables(language) -> tuple[dict[int, str], dict[int, bool]]:
    """Node type name and namedness per kind id (what ``node.type`` / ``node.is_named`` give;
    0xFFFF is ERROR)."""
    key = id(language)
    if key not in _TABLES:
        _TABLES[key] = (_KindTable(language, language.node_kind_for_id),
                        _KindTable(language, language.node_kind_is_named))
    return _TABLES[key]


# Node types that ``DFG_python`` does not treat as "visit the children in order".
DATAFLOW_SPECIAL = frozenset((
    "default_parameter", "assignment", "augmented_assignment", "for_in_clause", "if_statement",
    "for_statement", "while_statement",
))


class FlatTree:
    """A parsed program, nodes numbered in preorder (0 is the root).

    ``types[i]`` is node i's type, ``children[i]`` its children's numbers (an empty tuple for
    a leaf), ``nodes[i]`` the tree-sitter node (kept for the rare field lookups).
    ``token_leaves`` are the nodes the reference's ``tree_to_token_index`` lists, in its order:
    leaves and string literals (whose insides it skips), comments excluded; ``inner_leaves``
    the nodes inside string literals that its ``DFG_python`` would also treat as tokens (it
    can reach them through ``_split_sides``, and then fails to find them).
    ``token_range`` maps nodes with children (outside string literals) to
    ``(first, end, plain)``: their token leaves are ``token_leaves[first:end]``, and ``plain``
    says their subtree holds no ``DATAFLOW_SPECIAL`` node (then ``DFG_python`` is one pass
    over those tokens in order). It may be empty: it only saves work.
    ``closes`` has one entry per named node in preorder (the order of the ``(`` in
    ``str(root)``): -1 for a node without children, else its rank in postorder among named
    nodes (the order of the ``)``); the root always counts as a subtree.
    ``anonymous_sexps`` holds the ``str()`` of anonymous nodes with children (``not in``).
    """

    __slots__ = ("root", "types", "children", "nodes", "token_leaves", "token_spans",
                 "inner_leaves", "token_range",
                 "closes", "anonymous_sexps", "comprehension_parents")

    def __init__(self, root):
        self.root = root
        self.types: list[str] = []
        self.children: list = []
        self.nodes: list = []
        self.token_leaves: list[int] = []
        self.token_spans: list[tuple[int, int]] = []  # byte ranges of the token leaves
        self.inner_leaves: list[int] = []
        self.token_range: dict[int, tuple[int, int, bool]] = {}
        self.closes: list[int] = []
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
    """Walk ``root`` (a tree of ``language``) once.

    Recursive, which is fastest; code nested deeper than the recursion limit allows is walked
    again with an explicit stack (same tree, without ``token_range``;
    tests/metrics/test_codebleu_speed.py).
    """
    try:
        return _flatten_recursive(root, language)
    except RecursionError:
        return _flatten_iterative(root, language)


def _flatten_recursive(root, language) -> FlatTree:
    names, named = _tables(language)
    tree = FlatTree(root)
    types, children, nodes = tree.types, tree.children, tree.nodes
    leaves, inner, closes = tree.token_leaves, tree.inner_leaves, tree.closes
    spans, token_range = tree.token_spans, tree.token_range
    comprehensions = tree.comprehension_parents
    post = 0  # named nodes finished so far

    def visit(node, kind: int, ntype: str, in_string: bool) -> bool:
        """Number the subtree of ``node`` (already numbered, with children); whether it holds
        a ``DATAFLOW_SPECIAL`` node. Leaf children are handled inline (most nodes are)."""
        nonlocal post
        i = len(types) - 1
        mine: list[int] = []
        children.append(mine)
        special = ntype in DATAFLOW_SPECIAL
        if ntype in STRINGISH:
            if in_string:
                inner.append(i)
            else:
                leaves.append(i)
                spans.append(node.byte_range)
            in_string = True
        first_token = len(leaves)
        is_named = named[kind]
        if is_named:
            k = len(closes)
            closes.append(-1)
        else:
            tree.anonymous_sexps.append(str(node))
        for child in node.children:
            j = len(types)
            mine.append(j)
            kind = child.kind_id
            ctype = names[kind]
            types.append(ctype)
            nodes.append(child)
            if ctype == "for_in_clause":
                comprehensions.add(i)
            if child.child_count:
                special = visit(child, kind, ctype, in_string) or special
            else:
                children.append(())
                if ctype == "comment":
                    pass
                elif in_string:
                    inner.append(j)
                else:
                    leaves.append(j)
                    spans.append(child.byte_range)
                if named[kind]:
                    closes.append(-1)
                    post += 1
        if is_named:
            closes[k] = post
            post += 1
        if not in_string:
            token_range[i] = (first_token, len(leaves), not special)
        return special

    kind = root.kind_id
    types.append(names[kind])
    nodes.append(root)
    try:
        if root.child_count:
            visit(root, kind, types[0], False)
        else:
            children.append(())
            if types[0] != "comment":
                leaves.append(0)
                spans.append(root.byte_range)
            closes.append(-1)
            post += 1
    finally:
        visit = None  # it referred to itself: a cycle only the cyclic collector would free
    closes[0] = post - 1  # the root always counts as a subtree, and closes last
    return tree


def _flatten_iterative(root, language) -> FlatTree:
    """:func:`_flatten_recursive` with an explicit stack."""
    names, named = _tables(language)
    tree = FlatTree(root)
    types, children, nodes = tree.types, tree.children, tree.nodes
    leaves, inner, closes = tree.token_leaves, tree.inner_leaves, tree.closes
    spans = tree.token_spans
    post = 0
    # (node, parent, inside a string literal); an int entry k closes named node k
    stack: list = [(root, -1, False)]
    while stack:
        entry = stack.pop()
        if isinstance(entry, int):
            closes[entry] = post
            post += 1
            continue
        node, parent, in_string = entry
        i = len(types)
        kind = node.kind_id
        ntype = names[kind]
        types.append(ntype)
        nodes.append(node)
        if parent >= 0:
            children[parent].append(i)
        if ntype == "for_in_clause":
            tree.comprehension_parents.add(parent)
        kids = node.children
        if not kids:
            children.append(())
            if ntype == "comment":
                pass
            elif in_string:
                inner.append(i)
            else:
                leaves.append(i)
                spans.append(node.byte_range)
            if named[kind]:
                closes.append(-1)
                post += 1
            continue
        children.append([])
        if ntype in STRINGISH:
            if in_string:
                inner.append(i)
            else:
                leaves.append(i)
                spans.append(node.byte_range)
            in_string = True
        if named[kind]:
            stack.append(len(closes))
            closes.append(-1)
        else:
            tree.anonymous_sexps.append(str(node))
        stack.extend((child, i, in_string) for child in reversed(kids))
    closes[0] = post - 1
    return tree


def _subtree_sexps_slow(tree: FlatTree) -> list[str]:
    """str() of the root and of every node that has children (the reference's subtrees)."""
    nodes = tree.nodes
    return [str(nodes[i]) for i, kids in enumerate(tree.children) if kids or i == 0]


def _positions(text: str, char: str) -> list[int]:
    """Offsets of ``char`` in ``text``, in order."""
    return [end + k for k, end in enumerate(accumulate(map(len, text.split(char)[:-1])))]


def subtree_sexps(tree: FlatTree) -> list[str]:
    """The s-expressions of the reference's subtrees (the root and every node with children),
    cut out of ``str(root)``.

    Without parse errors the root's s-expression has one ``(`` per named node, in preorder,
    one ``)`` per named node, in postorder, and each named node's own ``str()`` is the span
    between its two. Anonymous nodes with children (``not in``, ``is not``) are not printed
    inside their parent, so they are ``str()``-ed directly. Trees with errors may print quoted
    parentheses (``MISSING ")"``) and take the slow path. tests/metrics/test_codebleu_parity.py
    checks both paths against ``str()`` of every node.
    """
    root = tree.root
    if root.has_error:
        return _subtree_sexps_slow(tree)
    text = str(root)
    opens, closes = _positions(text, "("), _positions(text, ")")
    if len(opens) != len(tree.closes) or len(closes) != len(tree.closes):
        return _subtree_sexps_slow(tree)  # unexpected layout: never guess
    out = [text[opens[k] : closes[q] + 1] for k, q in enumerate(tree.closes) if q >= 0]
    out += tree.anonymous_sexps
    return out
