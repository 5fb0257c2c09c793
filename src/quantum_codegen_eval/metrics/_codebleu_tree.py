"""One walk over a tree-sitter tree, flattened into lists for the syntax and dataflow matches.

In py-tree-sitter every ``node.children`` / ``node.type`` call builds new Python objects, and
the reference walks each tree several times (``str()`` of every subtree, ``tree_to_token_index``,
``DFG_python``, which revisits loop bodies and assignment sides). Here each node is visited
once, with a ``TreeCursor``: :func:`flatten` numbers the nodes in preorder and records their
types, child lists and token leaves, and gives every subtree an integer identity (equal
integers exactly when the subtrees' ``str()`` s-expressions are equal, see :class:`SyntaxIds`);
the dataflow graph (``_codebleu_ref.DFG_python``) and the syntax match then work on integers
and plain lists.

>>> from quantum_codegen_eval.metrics.codebleu import _parser
>>> ids = SyntaxIds()
>>> tree = flatten(_parser().parse(b"x = f(y)").root_node, _parser().language, ids, True)
>>> [tree.types[i] for i in tree.token_leaves]  # (anonymous tokens: never variables)
['identifier', 'identifier', 'identifier']
>>> sorted(ids.sexps(tree.subtrees))[:2]
['(argument_list (identifier))', '(assignment left: (identifier) right: (call function: (identifier) arguments: (argument_list (identifier))))']
"""

from __future__ import annotations

import sys

# Nodes the reference treats as one token (it never looks inside them).
STRINGISH = frozenset(("string_literal", "string", "character_literal"))

# Node types that ``DFG_python`` does not treat as "visit the children in order".
DATAFLOW_SPECIAL = frozenset((
    "default_parameter", "assignment", "augmented_assignment", "for_in_clause", "if_statement",
    "for_statement", "while_statement",
))

_SPECIAL, _STRING = "special", "string"
_OPENING = {**dict.fromkeys(DATAFLOW_SPECIAL, _SPECIAL), **dict.fromkeys(STRINGISH, _STRING)}

_TABLES: dict[object, tuple[dict[int, str], dict[int, bool]]] = {}

# ``str()`` of a node recurses in C (``ts_node_string``) and overflows the C stack (a segfault,
# not an exception) on a subtree some 30000 levels deep, which a broken 40000-link attribute
# chain gives. In a tree with parse errors nested deeper than this, error nodes are keyed by
# their structure instead (see :func:`flatten`).
STR_DEPTH_LIMIT = 4000
# ``str()`` of every node holding a parse error costs the size of its subtree, so a tree of
# brackets nested a few thousand deep with one stray character cost the square of its depth
# (minutes and gigabytes for 164 KB). Past this many nodes printed in all, error nodes are keyed
# by their structure too: the syntax match stays linear in the size of the code.
STR_COST_LIMIT = 1_000_000


def _deeper_than(root, limit: int) -> bool:
    """Whether the tree below ``root`` is nested more than ``limit`` levels deep."""
    cur = root.walk()
    depth = 0
    while True:
        if cur.goto_first_child():
            depth += 1
            if depth > limit:
                return True
            continue
        while not cur.goto_next_sibling():
            if not cur.goto_parent():
                return False
            depth -= 1


def _error_text_costly(root, cost_limit: int = STR_COST_LIMIT) -> bool:
    """Whether printing the nodes below ``root`` that hold a parse error (what :func:`flatten`
    keys them by) would print more than ``cost_limit`` nodes in all, or nest deeper than
    ``STR_DEPTH_LIMIT``. Cursor walks that skip error-free subtrees: linear in the tree."""
    if not root.has_error:
        return False
    if _deeper_than(root, STR_DEPTH_LIMIT):
        return True
    cost = root.descendant_count
    cur = root.walk()
    while True:
        if cur.node.has_error and cur.goto_first_child():
            node = cur.node
            if node.has_error and node.child_count:
                cost += node.descendant_count
                if cost > cost_limit:
                    return True
            continue
        while not cur.goto_next_sibling():
            if not cur.goto_parent():
                return False
        node = cur.node
        if node.has_error and node.child_count:
            cost += node.descendant_count
            if cost > cost_limit:
                return True


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


class SyntaxIds:
    """Subtree identities shared by the trees of one call: equal ids exactly when ``str()`` of
    the two subtrees (the reference's s-expressions) are equal.

    tree-sitter prints a node without parse errors as ``(type`` followed, for each named child
    in order, by `` field: `` (when the child has a field) and the child's own s-expression,
    then ``)``; anonymous children are not printed. So a named node's s-expression is fixed by
    ``(type, field, child, field, child, ...)`` over its named children, which is interned here
    (children by their ids, fields by id). Nodes that hold a parse error (printed with
    ``ERROR``, ``MISSING``, ``UNEXPECTED``, which no error-free s-expression contains) and
    anonymous nodes with children (``not in``, printed unbalanced) are keyed by their ``str()``
    itself. :meth:`sexps` rebuilds the strings of ids (tests check it against ``str()`` of
    every subtree of real code).
    """

    __slots__ = ("ids", "leaf", "names", "fields")

    def __init__(self):
        self.ids: dict = {}  # key (tuple or str) -> id
        self.leaf: dict[int, int | None] = {}  # kind -> id of a named leaf of that kind, or None
        self.names: dict[int, str] | None = None
        self.fields = None  # language.field_name_for_id

    def leaf_ids(self, language) -> dict:
        if self.fields is None:
            self.names, self.fields = _tables(language)[0], language.field_name_for_id
            names, named = _tables(language)
            ids = self.ids

            class _Leaf(dict):
                def __missing__(self, kind):
                    value = ids.setdefault((names[kind],), len(ids)) if named[kind] else None
                    self[kind] = value
                    return value

            self.leaf = _Leaf()
        return self.leaf

    def sexps(self, ks) -> list[str]:
        """The s-expressions of the ids ``ks`` (slow; for tests and doctests)."""
        keys = {v: key for key, v in self.ids.items()}

        def build(k: int) -> str:
            key = keys[k]
            if isinstance(key, str):
                return key
            parts = [f"({key[0]}"]
            for field, child in zip(key[1::2], key[2::2], strict=True):
                label = "" if field is None else f"{self.fields(field)}: "
                parts.append(f" {label}{build(child)}")
            return "".join(parts) + ")"

        return [build(k) for k in ks]


class FlatTree:
    """A parsed program, nodes numbered in preorder (0 is the root).

    ``types[i]`` is node i's type, ``children[i]`` its children's numbers (an empty tuple for
    a leaf), ``nodes[i]`` the tree-sitter node of the root and of ``DATAFLOW_SPECIAL`` nodes
    (for the rare field lookups). ``token_leaves`` are the nodes the reference's
    ``tree_to_token_index`` lists, in its order: leaves and string literals (whose insides it
    skips), comments excluded, with their byte ranges in ``token_spans``; for ASCII code
    without parse errors anonymous leaves are left out too: they are the grammar's literal
    tokens (``def``, ``(``, ``+=``), whose text is then their type, so ``DFG_python`` skips
    them (their token numbers only order the others, and are not compared; after a non-ASCII
    character the reference's byte/character mix can garble a token's text into a "variable"); ``inner_leaves`` (byte ranges ``inner_spans``) the
    nodes inside string literals that its ``DFG_python`` would also treat as tokens (it can
    reach them through ``_split_sides``, and then fails to find them).
    ``token_range[i]`` is, for a node with children (outside string literals),
    ``(first, end, plain)``, else None: its token leaves are ``token_leaves[first:end]``, and
    ``plain`` says its subtree holds no ``DATAFLOW_SPECIAL`` node (then ``DFG_python`` is one pass
    over those tokens in order).
    ``subtrees`` holds the :class:`SyntaxIds` id of the root and of every node with children
    (the reference's subtrees), in postorder.
    """

    __slots__ = ("root", "types", "children", "nodes", "token_leaves", "token_spans",
                 "inner_leaves", "inner_spans", "token_range", "subtrees",
                 "comprehension_parents", "_fields")

    def __init__(self, root):
        self.root = root
        self.types: list[str] = []
        self.children: list = []
        self.nodes: dict = {}
        self.token_leaves: list[int] = []
        self.token_spans: list[tuple[int, int]] = []
        self.inner_leaves: list[int] = []
        self.inner_spans: list[tuple[int, int]] = []
        self.token_range: list[tuple[int, int, bool] | None] = []
        self.subtrees: list[int] = []
        self.comprehension_parents: set[int] = set()  # nodes with a for_in_clause child
        self._fields: dict[tuple[int, str], int | None] = {}

    def field(self, i: int, name: str) -> int | None:
        """The number of ``nodes[i].child_by_field_name(name)`` (one of i's children), or None."""
        key = (i, name)
        if key in self._fields:
            return self._fields[key]
        node = self.nodes[i]
        found = node.child_by_field_name(name)
        if found is None:
            self._fields[key] = None
            return None
        for c, child in zip(self.children[i], node.children, strict=True):
            if child == found:
                self._fields[key] = c
                return c
        raise LookupError(f"field {name!r} is not a child")  # tree-sitter never does this


def flatten(root, language, syntax: SyntaxIds, ascii_text: bool = False) -> FlatTree:
    """Walk ``root`` (a tree of ``language``) once, with a cursor (no recursion, any depth).

    ``ascii_text``: the source is ASCII (then, without parse errors, anonymous tokens are left
    out of ``token_leaves``, see :class:`FlatTree`). A tree nested deeper than the recursion
    limit allows gets no ``token_range`` (the dataflow
    graph then fails as the reference's does, tests/metrics/test_codebleu_speed.py)."""
    names, named = _tables(language)
    leaf_id = syntax.leaf_ids(language)
    ids = syntax.ids
    tree = FlatTree(root)
    n = root.descendant_count  # the root included
    tree.types = types = [""] * n
    tree.children = children = [()] * n
    tree.token_range = token_range = [None] * n
    nodes = tree.nodes
    leaves, spans = tree.token_leaves, tree.token_spans
    inner, inner_spans = tree.inner_leaves, tree.inner_spans
    subtrees = tree.subtrees
    errors = root.has_error
    # too deep or too costly for ``str()`` of its error nodes: they get structural keys (never
    # equal to an error-free node's key; not the reference's s-expression identity, which would
    # crash or take the square of the depth)
    structural = errors and _error_text_costly(root)
    plain_tokens = ascii_text and not errors
    cur = root.walk()
    kind = root.kind_id
    types[0] = name = names[kind]
    if not cur.goto_first_child():
        tree.token_range = [None]
        if name != "comment":
            leaves.append(0)
            spans.append(root.byte_range)
        subtrees.append(ids.setdefault(str(root) if errors else (name,), len(ids)))
        return tree
    nodes[0] = root
    children[0] = kids = []
    # The open node: its number, children, key (``[None]`` for an anonymous node), first
    # token, specials before it, whether it is (inside) a string literal, whether it holds a
    # parse error; the stack holds those of its ancestors.
    i, key, first, n_special, in_string, error = 0, [name], 0, 0, False, errors
    specials = 1 if name in DATAFLOW_SPECIAL else 0
    if name in STRINGISH:
        leaves.append(0)
        spans.append(root.byte_range)
        in_string, first = True, 1
    stack: list = []
    too_deep, drop_ranges = sys.getrecursionlimit() - 50, False
    j = 0
    while True:
        node = cur.node
        kind = node.kind_id
        types[j := j + 1] = name = names[kind]
        kids.append(j)
        if cur.goto_first_child():
            stack.append((i, kids, key, first, n_special, in_string, error))
            if len(stack) == too_deep:
                # Nested past Python's recursion limit the reference's graph recursion gives up
                # (empty dataflow), and so does ours without the token ranges.
                drop_ranges = True
            i, n_special = j, specials
            children[j] = kids = []
            key = [name if named[kind] else None]
            kind = _OPENING.get(name)
            if kind is not None:
                if kind is _SPECIAL:
                    specials += 1
                    nodes[j] = node  # for field lookups
                    if name == "for_in_clause":
                        tree.comprehension_parents.add(stack[-1][0])
                elif in_string:
                    inner.append(j)
                    inner_spans.append(node.byte_range)
                else:
                    leaves.append(j)
                    spans.append(node.byte_range)
                    in_string = True
            if error:
                error = node.has_error
            first = len(leaves)
            continue
        kind = leaf_id[kind]
        if in_string:
            inner.append(j)
            inner_spans.append(node.byte_range)
        elif kind is None and plain_tokens:
            pass  # an anonymous token: its text is its type (see FlatTree)
        elif name != "comment":
            leaves.append(j)
            spans.append(node.byte_range)
        if kind is not None:  # (in a parent with a parse error its key is not used)
            key += (cur.field_id, kind)
        while not cur.goto_next_sibling():
            # Close node i (the cursor is back on it).
            cur.goto_parent()
            if structural and error:
                k = ids.setdefault(("\0error", *key), len(ids))
            elif error or key[0] is None:
                k = ids.setdefault(str(cur.node), len(ids))
            else:
                k = ids.setdefault(tuple(key), len(ids))
            subtrees.append(k)
            if not in_string:
                token_range[i] = (first, len(leaves), specials == n_special)
            if not stack:
                if drop_ranges:
                    tree.token_range = [None] * n
                return tree
            is_named = key[0] is not None
            i, kids, key, first, n_special, in_string, error = stack.pop()
            if is_named:
                key += (cur.field_id, k)
