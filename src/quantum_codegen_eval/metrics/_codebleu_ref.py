"""Python-specific pieces of CodeXGLUE CodeBLEU, kept line-for-line with ``codebleu==0.7.0``.

Ported from https://github.com/k4black/codebleu (``codebleu/parser/utils.py``,
``codebleu/parser/DFG.py``, ``codebleu/dataflow_match.py``, ``codebleu/keywords/python.txt``).
Copyright (c) Microsoft Corporation; Copyright (c) 2023 Konstantin Chernyshev. MIT licence.

These functions are deliberately NOT tidied: their exact behaviour (byte-vs-character column
mixing, swallowed exceptions) is what the ``variant="standard"`` parity guarantee rests on.
Speed comes from calling them once per distinct string (see ``codebleu.py``), from running
``DFG_python`` on the flat tree of ``_codebleu_tree`` (one walk), and from doing
``get_data_flow``, ``normalize_dataflow`` and the edge count in one pass (``dataflow_counts``);
the output-preserving changes are listed in the docstrings and in docs/metrics/codebleu.md.

Two deliberate changes, both named in the signature. ``tokenize:py3.11``: the comment stripper
tokenizes as Python 3.11 does on every Python (``_codebleu_strip``; 3.12 changed ``tokenize``).
``dfg-merge:first-seen``: where the reference merges lists of variable *names* with
``list(set(a + b))``, whose order depends on the string hash seed (``PYTHONHASHSEED``) and so
changes from one process to the next, we keep the names in order of first appearance,
``_first_seen(a + b)``. The order of those lists decides the ``var_i`` renaming and the parent
lists compared by the dataflow match, so this makes the score one number. Lists of token
*indices* are never compared (only names are), so their order is irrelevant; they are sorted.

>>> remove_comments_and_docstrings('def f():\\n    "doc"\\n    return 1  # one\\n')
'def f():\\n    return 1  '
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from itertools import chain, repeat, starmap
from operator import eq, itemgetter

from ._codebleu_strip import remove_comments_and_docstrings, strip_or_keep  # noqa: F401
from ._codebleu_tree import DATAFLOW_SPECIAL, FlatTree

# codebleu/keywords/python.txt
PYTHON_KEYWORDS = (
    "False None True and as assert async await break class continue def del elif else except "
    "finally for from global if import in is lambda nonlocal not or pass raise return try while "
    "with yield match case type"
).split()


def _first_seen(names: list) -> list:
    """Distinct items in order of first appearance (the reference: ``list(set(names))``)."""
    return list(dict.fromkeys(names))


_BY_INDEX = itemgetter(1)
_PARENT_INDEXES = itemgetter(4)
_SKIP = ()  # a token leaf whose text equals its type (keywords, operators): no variable
_MISSING = ("not in index_to_code",)  # unpacking it raises, as the reference's lookup does


def index_to_code_token(index, code):
    # tree-sitter columns are byte offsets; the reference slices str lines with them.
    start_point = index[0]
    end_point = index[1]
    if start_point[0] == end_point[0]:
        s = code[start_point[0]][start_point[1] : end_point[1]]
    else:
        s = ""
        s += code[start_point[0]][start_point[1] :]
        for i in range(start_point[0] + 1, end_point[0]):
            s += code[i]
        s += code[end_point[0]][: end_point[1]]
    return s


def _points(code: str, spans: list) -> list:
    """tree-sitter's (row, byte column) start and end points of byte ranges of ``code``."""
    data = code.encode("utf8")
    starts = [0] + [k + 1 for k, b in enumerate(data) if b == 10]  # byte offset of each row
    out = []
    for start, end in spans:
        r1, r2 = bisect_right(starts, start) - 1, bisect_right(starts, end) - 1
        out.append(((r1, start - starts[r1]), (r2, end - starts[r2])))
    return out


def _leaf_table(code: str, tree: FlatTree) -> tuple[dict, list, list]:
    """Per token leaf (and leaf-like node inside a string literal): ``(idx, text)`` if it can
    be a variable, ``_SKIP`` if its text is its type; the same entries per token; and per
    token whether it is an identifier.

    The reference's ``index_to_code`` is keyed by span, ``(idx, text)`` in token order; tokens
    sharing a span get the last one's entry, as there. Leaf-like nodes inside string literals
    are looked up by span too: ``_MISSING`` (a KeyError there) unless a token shares the span.
    """
    types, spans = tree.types, tree.token_spans
    if code.isascii():
        # Byte and character offsets coincide, and the reference's slicing of lines drops
        # exactly the newlines a multi-line token spans: same tokens, no Point objects.
        texts = list(map(code.__getitem__, starmap(slice, spans)))
        if "\n" in "".join(texts):
            texts = [text.replace("\n", "") for text in texts]
    else:
        lines = code.split("\n")
        texts = [index_to_code_token(points, lines) for points in _points(code, spans)]
    entries = list(zip(range(len(texts)), texts, strict=True))
    index_to_code = dict(zip(spans, entries, strict=True))
    if len(index_to_code) != len(entries):  # shared spans (zero-width nodes): the last wins
        entries = [index_to_code[span] for span in spans]
    token_types = list(map(types.__getitem__, tree.token_leaves))
    tokens = [_SKIP if same else entry
              for entry, same in zip(entries, map(eq, texts, token_types), strict=True)]
    leaf = dict(zip(tree.token_leaves, tokens, strict=True))
    for i, span in zip(tree.inner_leaves, tree.inner_spans, strict=True):
        entry = index_to_code.get(span)
        leaf[i] = _MISSING if entry is None else _SKIP if entry[1] == types[i] else entry
    return leaf, tokens, list(map(eq, token_types, repeat("identifier")))


class _Graph:
    """What ``DFG_python`` reads: the flat tree and its token-leaf tables."""

    __slots__ = ("tree", "types", "children", "leaf", "tokens", "identifiers", "token_range",
                 "comprehension_parents")

    def __init__(self, code: str, tree: FlatTree):
        self.tree, self.types, self.children = tree, tree.types, tree.children
        self.token_range = tree.token_range
        self.comprehension_parents = tree.comprehension_parents
        self.leaf, self.tokens, self.identifiers = _leaf_table(code, tree)


def _token_flow(g: _Graph, first: int, end: int, states: dict):
    """``DFG_python`` of a node whose subtree has no assignment, loop, branch or default
    parameter (``FlatTree.token_range``): the children-in-order branch, all the way down, visits
    exactly its tokens ``first:end``, in order, with the leaf rule."""
    DFG = []
    owned = False  # whether ``states`` is a copy made here (then it can be updated in place)
    for entry, identifier in zip(g.tokens[first:end], g.identifiers[first:end], strict=True):
        if not entry:
            continue
        idx, code = entry
        if code in states:
            DFG.append((code, idx, "comesFrom", [code], states[code]))
        else:
            if identifier:
                if not owned:
                    states = states.copy()
                    owned = True
                states[code] = [idx]
            DFG.append((code, idx, "comesFrom", [], []))
    return DFG, states


def tree_to_variable_index(g: _Graph, i: int) -> list:
    """``(idx, text)`` of the variable tokens under node i (the reference returns their spans
    and looks each up in ``index_to_code``)."""
    entry = g.leaf.get(i)
    if entry is not None:
        if not entry:
            return []
        _, _ = entry  # raises for _MISSING, as the reference's lookup does
        return [entry]
    tokens = g.token_range[i]
    if tokens is not None:  # the token leaves below i, in order
        return [entry for entry in g.tokens[tokens[0] : tokens[1]] if entry]
    code_tokens = []
    for child in g.children[i]:
        code_tokens += tree_to_variable_index(g, child)
    return code_tokens


def _merge_loop_dfg(DFG):
    """One entry per (name, index, relation), the lists of repeats merged, in order of first
    appearance (the reference also sorts by index; ``dataflow_counts`` sorts once at the end)."""
    dic = {}
    for x in DFG:
        key = x[:3]
        y = dic.get(key)
        if y is None:
            dic[key] = x
        else:
            # (a list equal to the other one, of at most one item, merges to itself)
            names, names2, idxs, idxs2 = y[3], x[3], y[4], x[4]
            if len(names) > 1 or names != names2:
                names = _first_seen(names + names2)
            if len(idxs) > 1 or idxs != idxs2:
                idxs = sorted(set(idxs + idxs2))
            dic[key] = (x[0], x[1], x[2], names, idxs)
    return list(dic.values())


def _assign_pairs(g, left_nodes, right_nodes, states, DFG):
    for left_node, right_node in zip(left_nodes, right_nodes, strict=False):
        left_tokens = tree_to_variable_index(g, left_node)
        right_tokens = tree_to_variable_index(g, right_node)
        # One list pair shared by every left token: stored lists are never changed in place.
        names = [code for _, code in right_tokens]
        idxs = [idx for idx, _ in right_tokens]
        for idx1, code1 in left_tokens:
            DFG.append((code1, idx1, "computedFrom", names, idxs))
            states[code1] = [idx1]


def _split_sides(g, i):
    types, children = g.types, g.children
    left, right = g.tree.field(i, "left"), g.tree.field(i, "right")
    left_nodes = [x for x in children[left] if types[x] != ","]
    right_nodes = [x for x in children[right] if types[x] != ","]
    if len(right_nodes) != len(left_nodes):
        left_nodes = [left]
        right_nodes = [right]
    if len(left_nodes) == 0:
        left_nodes = [left]
    if len(right_nodes) == 0:
        right_nodes = [right]
    return left_nodes, right_nodes


def _merge_states(others_states: list) -> dict:
    """The reference's merge of the branches' states: per name, ``sorted(set(...))`` of the
    concatenated index lists (a single list as it is).

    Every stored list is sorted and distinct (``[idx]`` or an earlier merge) and shared, never
    changed in place, so a list met again (the same object, e.g. a branch that assigned
    nothing) adds nothing, a dict met again neither, and a name whose lists are all one object
    keeps that list. Only names with different lists are concatenated and sorted."""
    dicts = list({id(d): d for d in others_states}.values())
    if len(dicts) == 1:
        return dicts[0]
    new_states = dict(dicts[0])
    joined = []
    for dic in dicts[1:]:
        for key, value in dic.items():
            old = new_states.get(key)
            if old is None:
                new_states[key] = value
            elif old is not value:
                new_states[key] = old + value
                joined.append(key)
    for key in joined:
        new_states[key] = sorted(set(new_states[key]))
    return new_states


def DFG_python(g: _Graph, i: int, states: dict):  # noqa: N802 - reference name
    """The reference's ``DFG_python`` on node i of the flat tree.

    Output-preserving changes: ``states`` is copied on write, not on every call (no call
    mutates a dict it did not create); stored state lists are shared, not copied (they are
    never changed in place); leaf children are handled inline; and the partial graphs are not
    sorted at every level, only once at the end (``dataflow_counts``): Python's sort is stable,
    so one sort of the concatenation gives the same order as sorting every piece, and
    ``_merge_loop_dfg`` only depends on the order among entries of one token index.
    """
    rtype = g.types[i]
    entry = g.leaf.get(i)
    if entry is not None:
        if not entry:
            return [], states
        idx, code = entry
        if code in states:
            return [(code, idx, "comesFrom", [code], states[code])], states
        if rtype == "identifier":
            states = states.copy()
            states[code] = [idx]
        return [(code, idx, "comesFrom", [], [])], states
    tokens = g.token_range[i]
    if tokens is not None and tokens[2]:
        return _token_flow(g, tokens[0], tokens[1], states)
    children = g.children[i]
    if rtype not in DATAFLOW_SPECIAL:  # the reference's last branch: children in order
        DFG = []
        types = g.types
        if i in g.comprehension_parents:
            for child in children:
                if types[child] == "for_in_clause":
                    temp, states = DFG_python(g, child, states)
                    DFG += temp
            children = [c for c in children if types[c] != "for_in_clause"]
        leaf, token_range, kids = g.leaf.get, g.token_range, g.children
        for child in children:
            entry = leaf(child)
            if entry is not None:
                # The leaf case above, inlined (most children are leaves).
                if not entry:
                    continue
                idx, code = entry
                if code in states:
                    DFG.append((code, idx, "comesFrom", [code], states[code]))
                else:
                    if types[child] == "identifier":
                        states = states.copy()
                        states[code] = [idx]
                    DFG.append((code, idx, "comesFrom", [], []))
                continue
            tokens = token_range[child]
            if tokens is not None and tokens[2]:
                temp, states = _token_flow(g, tokens[0], tokens[1], states)
            elif not kids[child]:
                continue  # a leaf that is no token (a comment, an anonymous token): nothing
            else:
                temp, states = DFG_python(g, child, states)
            DFG += temp
        return DFG, states
    if rtype == "default_parameter":
        states = states.copy()
        name = g.tree.field(i, "name")
        value = g.tree.field(i, "value")
        DFG = []
        if value is None:
            for idx, code in tree_to_variable_index(g, name):
                DFG.append((code, idx, "comesFrom", [], []))
                states[code] = [idx]
            return DFG, states
        name_tokens = tree_to_variable_index(g, name)
        value_tokens = tree_to_variable_index(g, value)
        temp, states = DFG_python(g, value, states)
        DFG += temp
        for idx1, code1 in name_tokens:
            for idx2, code2 in value_tokens:
                DFG.append((code1, idx1, "comesFrom", [code2], [idx2]))
            states[code1] = [idx1]
        return DFG, states
    elif rtype in ("assignment", "augmented_assignment", "for_in_clause"):
        states = states.copy()
        if rtype == "for_in_clause":
            right_nodes = [children[-1]]
            left_nodes = [g.tree.field(i, "left")]
        else:
            if g.tree.field(i, "right") is None:
                return [], states
            left_nodes, right_nodes = _split_sides(g, i)
        DFG = []
        for node in right_nodes:
            temp, states = DFG_python(g, node, states)
            DFG += temp
        _assign_pairs(g, left_nodes, right_nodes, states, DFG)
        return DFG, states
    elif rtype == "if_statement":
        DFG = []
        current_states = states  # copied on write by the calls below
        others_states = []
        tag = False
        types = g.types
        for child in children:
            ctype = types[child]
            if "else" in ctype:
                tag = True
            if ctype not in ("elif_clause", "else_clause"):
                temp, current_states = DFG_python(g, child, current_states)
                DFG += temp
            else:
                temp, new_states = DFG_python(g, child, states)
                DFG += temp
                others_states.append(new_states)
        others_states.append(current_states)
        if tag is False:
            others_states.append(states)
        return DFG, _merge_states(others_states)
    elif rtype == "for_statement":
        states = states.copy()
        DFG = []
        left_nodes, right_nodes = _split_sides(g, i)
        for _ in range(2):
            for node in right_nodes:
                temp, states = DFG_python(g, node, states)
                DFG += temp
            _assign_pairs(g, left_nodes, right_nodes, states, DFG)
            if g.types[children[-1]] == "block":
                temp, states = DFG_python(g, children[-1], states)
                DFG += temp
        return _merge_loop_dfg(DFG), states
    elif rtype == "while_statement":
        DFG = []
        for _ in range(2):
            for child in children:
                temp, states = DFG_python(g, child, states)
                DFG += temp
        return _merge_loop_dfg(DFG), states
    raise AssertionError(rtype)  # every DATAFLOW_SPECIAL type has its branch above


def dataflow_counts(code: str, tree: FlatTree) -> Counter:
    """The reference's ``normalize_dataflow(get_data_flow(code))``, on the flat tree of
    ``code``, as a multiset of edges
    ``(var, relation, parents)``, in one pass, variables numbered ``0, 1, ...`` where the
    reference names them ``var_0, var_1, ...`` (a one-to-one renaming: the dataflow match only
    compares edges for equality). The merged index lists, which the normalisation drops, are
    not built."""
    try:
        g = _Graph(code, tree)
        try:
            DFG, _ = DFG_python(g, 0, {})
        except Exception:
            DFG = []
        DFG.sort(key=_BY_INDEX)
        linked = [d for d in DFG if d[4]]
        indexs = set(map(_BY_INDEX, linked))
        indexs.update(chain.from_iterable(map(_PARENT_INDEXES, linked)))
        dfg = [d for d in DFG if d[1] in indexs]
    except Exception:
        dfg = []
    dic = dict(zip(map(_BY_INDEX, dfg), dfg, strict=True))
    if len(dic) != len(dfg):  # entries sharing a token index: merged, the last one's relation
        dic = {}
        for d in dfg:
            old = dic.get(d[1])
            dic[d[1]] = d if old is None else (d[0], d[1], d[2], _first_seen(old[3] + d[3]), ())
    var = {}
    number = var.setdefault
    edges = []
    for name, _, relation, parents, _ in dic.values():
        if parents:
            for x in parents:
                number(x, len(var))
            edges.append((number(name, len(var)), relation, tuple(map(var.__getitem__, parents))))
        else:
            edges.append((number(name, len(var)), relation, ()))
    return Counter(edges)
