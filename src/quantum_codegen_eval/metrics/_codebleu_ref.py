"""Python-specific pieces of CodeXGLUE CodeBLEU, kept line-for-line with ``codebleu==0.7.0``.

Ported from https://github.com/k4black/codebleu (``codebleu/parser/utils.py``,
``codebleu/parser/DFG.py``, ``codebleu/dataflow_match.py``, ``codebleu/keywords/python.txt``).
Copyright (c) Microsoft Corporation; Copyright (c) 2023 Konstantin Chernyshev. MIT licence.

These functions are deliberately NOT tidied: their exact behaviour (byte-vs-character column
mixing, swallowed exceptions) is what the ``variant="standard"`` parity guarantee rests on.
Speed comes from calling them once per distinct string (see ``codebleu.py``).

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

from operator import itemgetter

from ._codebleu_strip import remove_comments_and_docstrings, strip_or_keep  # noqa: F401

# codebleu/keywords/python.txt
PYTHON_KEYWORDS = (
    "False None True and as assert async await break class continue def del elif else except "
    "finally for from global if import in is lambda nonlocal not or pass raise return try while "
    "with yield match case type"
).split()


_STRINGISH = ("string_literal", "string", "character_literal")


def _first_seen(names: list) -> list:
    """Distinct items in order of first appearance (the reference: ``list(set(names))``)."""
    return list(dict.fromkeys(names))
_BY_INDEX = itemgetter(1)


def token_leaves(root_node):
    """The nodes whose spans the reference's ``tree_to_token_index`` lists, in its order.

    Iterative (the reference recurses and concatenates lists). Spans are keyed by
    ``(start_byte, end_byte)`` below instead of ``(start_point, end_point)``: within one tree
    the two are in one-to-one correspondence, and ints are cheaper to fetch and hash.
    """
    leaves = []
    stack = [root_node]
    while stack:
        node = stack.pop()
        ntype = node.type
        if (node.child_count == 0 or ntype in _STRINGISH) and ntype != "comment":
            leaves.append(node)
        else:
            stack.extend(reversed(node.children))
    return leaves


def tree_to_variable_index(root_node, index_to_code):
    children = root_node.children
    rtype = root_node.type
    if (not children or rtype in _STRINGISH) and rtype != "comment":
        index = (root_node.start_byte, root_node.end_byte)
        _, code = index_to_code[index]
        if rtype != code:
            return [index]
        return []
    code_tokens = []
    for child in children:
        code_tokens += tree_to_variable_index(child, index_to_code)
    return code_tokens


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


def _merge_loop_dfg(DFG):
    dic = {}
    for x in DFG:
        if (x[0], x[1], x[2]) not in dic:
            dic[(x[0], x[1], x[2])] = [x[3], x[4]]
        else:
            dic[(x[0], x[1], x[2])][0] = _first_seen(dic[(x[0], x[1], x[2])][0] + x[3])
            dic[(x[0], x[1], x[2])][1] = sorted(list(set(dic[(x[0], x[1], x[2])][1] + x[4])))
    return [(x[0], x[1], x[2], y[0], y[1]) for x, y in sorted(dic.items(), key=lambda t: t[0][1])]


def _assign_pairs(left_nodes, right_nodes, index_to_code, states, DFG):
    for left_node, right_node in zip(left_nodes, right_nodes, strict=False):
        left_tokens_index = tree_to_variable_index(left_node, index_to_code)
        right_tokens_index = tree_to_variable_index(right_node, index_to_code)
        temp = []
        for token1_index in left_tokens_index:
            idx1, code1 = index_to_code[token1_index]
            temp.append(
                (
                    code1,
                    idx1,
                    "computedFrom",
                    [index_to_code[x][1] for x in right_tokens_index],
                    [index_to_code[x][0] for x in right_tokens_index],
                )
            )
            states[code1] = [idx1]
        DFG += temp


def _split_sides(root_node):
    left_nodes = [x for x in root_node.child_by_field_name("left").children if x.type != ","]
    right_nodes = [x for x in root_node.child_by_field_name("right").children if x.type != ","]
    if len(right_nodes) != len(left_nodes):
        left_nodes = [root_node.child_by_field_name("left")]
        right_nodes = [root_node.child_by_field_name("right")]
    if len(left_nodes) == 0:
        left_nodes = [root_node.child_by_field_name("left")]
    if len(right_nodes) == 0:
        right_nodes = [root_node.child_by_field_name("right")]
    return left_nodes, right_nodes


def DFG_python(root_node, index_to_code, states):  # noqa: N802 - reference name
    # The reference copies ``states`` on entry to every call. Here only branches that assign
    # into it copy (copy-on-write): no call mutates a dict it did not create, so the contents
    # seen everywhere are the same and only needless copies are skipped.
    rtype = root_node.type
    if (root_node.child_count == 0 or rtype in _STRINGISH) and rtype != "comment":
        idx, code = index_to_code[(root_node.start_byte, root_node.end_byte)]
        if rtype == code:
            return [], states
        elif code in states:
            # The reference copies states[code] here; state lists are never changed in place
            # once stored (merges build new lists), so sharing them is equivalent.
            return [(code, idx, "comesFrom", [code], states[code])], states
        else:
            if rtype == "identifier":
                states = states.copy()
                states[code] = [idx]
            return [(code, idx, "comesFrom", [], [])], states
    children = root_node.children
    if rtype == "default_parameter":
        states = states.copy()
        name = root_node.child_by_field_name("name")
        value = root_node.child_by_field_name("value")
        DFG = []
        if value is None:
            indexs = tree_to_variable_index(name, index_to_code)
            for index in indexs:
                idx, code = index_to_code[index]
                DFG.append((code, idx, "comesFrom", [], []))
                states[code] = [idx]
            return sorted(DFG, key=_BY_INDEX), states
        name_indexs = tree_to_variable_index(name, index_to_code)
        value_indexs = tree_to_variable_index(value, index_to_code)
        temp, states = DFG_python(value, index_to_code, states)
        DFG += temp
        for index1 in name_indexs:
            idx1, code1 = index_to_code[index1]
            for index2 in value_indexs:
                idx2, code2 = index_to_code[index2]
                DFG.append((code1, idx1, "comesFrom", [code2], [idx2]))
            states[code1] = [idx1]
        return sorted(DFG, key=_BY_INDEX), states
    elif rtype in ("assignment", "augmented_assignment", "for_in_clause"):
        states = states.copy()
        if rtype == "for_in_clause":
            right_nodes = [children[-1]]
            left_nodes = [root_node.child_by_field_name("left")]
        else:
            if root_node.child_by_field_name("right") is None:
                return [], states
            left_nodes, right_nodes = _split_sides(root_node)
        DFG = []
        for node in right_nodes:
            temp, states = DFG_python(node, index_to_code, states)
            DFG += temp
        _assign_pairs(left_nodes, right_nodes, index_to_code, states, DFG)
        return sorted(DFG, key=_BY_INDEX), states
    elif rtype == "if_statement":
        DFG = []
        current_states = states.copy()
        others_states = []
        tag = False
        for child in children:
            ctype = child.type
            if "else" in ctype:
                tag = True
            if ctype not in ("elif_clause", "else_clause"):
                temp, current_states = DFG_python(child, index_to_code, current_states)
                DFG += temp
            else:
                temp, new_states = DFG_python(child, index_to_code, states)
                DFG += temp
                others_states.append(new_states)
        others_states.append(current_states)
        if tag is False:
            others_states.append(states)
        new_states = {}
        for dic in others_states:
            for key in dic:
                if key not in new_states:
                    new_states[key] = dic[key].copy()
                else:
                    new_states[key] += dic[key]
        for key in new_states:
            new_states[key] = sorted(list(set(new_states[key])))
        return sorted(DFG, key=_BY_INDEX), new_states
    elif rtype == "for_statement":
        states = states.copy()
        DFG = []
        for _ in range(2):
            left_nodes, right_nodes = _split_sides(root_node)
            for node in right_nodes:
                temp, states = DFG_python(node, index_to_code, states)
                DFG += temp
            _assign_pairs(left_nodes, right_nodes, index_to_code, states, DFG)
            if children[-1].type == "block":
                temp, states = DFG_python(children[-1], index_to_code, states)
                DFG += temp
        DFG = _merge_loop_dfg(DFG)
        return sorted(DFG, key=_BY_INDEX), states
    elif rtype == "while_statement":
        DFG = []
        for _ in range(2):
            for child in children:
                temp, states = DFG_python(child, index_to_code, states)
                DFG += temp
        DFG = _merge_loop_dfg(DFG)
        return sorted(DFG, key=_BY_INDEX), states
    else:
        DFG = []
        types = [child.type for child in children]
        if "for_in_clause" in types:
            for child, ctype in zip(children, types, strict=True):
                if ctype == "for_in_clause":
                    temp, states = DFG_python(child, index_to_code, states)
                    DFG += temp
        for child, ctype in zip(children, types, strict=True):
            if ctype == "for_in_clause":
                continue
            if (child.child_count == 0 or ctype in _STRINGISH) and ctype != "comment":
                # The leaf case of DFG_python, inlined (most children are leaves).
                idx, code = index_to_code[(child.start_byte, child.end_byte)]
                if ctype == code:
                    continue
                if code in states:
                    DFG.append((code, idx, "comesFrom", [code], states[code]))
                else:
                    if ctype == "identifier":
                        states = states.copy()
                        states[code] = [idx]
                    DFG.append((code, idx, "comesFrom", [], []))
                continue
            temp, states = DFG_python(child, index_to_code, states)
            DFG += temp
        return sorted(DFG, key=_BY_INDEX), states


def get_data_flow(code: str, root_node) -> list:
    """The reference ``get_data_flow`` on an already parsed tree of ``code``."""
    try:
        leaves = token_leaves(root_node)
        index_to_code = {}
        if code.isascii():
            # Byte and character offsets coincide, and the reference's slicing of lines drops
            # exactly the newlines a multi-line token spans: same tokens, no Point objects.
            for idx, leaf in enumerate(leaves):
                span = (leaf.start_byte, leaf.end_byte)
                index_to_code[span] = (idx, code[span[0] : span[1]].replace("\n", ""))
        else:
            lines = code.split("\n")
            for idx, leaf in enumerate(leaves):
                tok = index_to_code_token((leaf.start_point, leaf.end_point), lines)
                index_to_code[(leaf.start_byte, leaf.end_byte)] = (idx, tok)
        try:
            DFG, _ = DFG_python(root_node, index_to_code, {})
        except Exception:
            DFG = []
        DFG = sorted(DFG, key=_BY_INDEX)
        indexs = set()
        for d in DFG:
            if len(d[-1]) != 0:
                indexs.add(d[1])
            for x in d[-1]:
                indexs.add(x)
        dfg = [d for d in DFG if d[1] in indexs]
    except Exception:
        dfg = []
    dic = {}
    for d in dfg:
        if d[1] not in dic:
            dic[d[1]] = d
        else:
            dic[d[1]] = (
                d[0],
                d[1],
                d[2],
                _first_seen(dic[d[1]][3] + d[3]),
                sorted(set(dic[d[1]][4] + d[4])),
            )
    return list(dic.values())


def normalize_dataflow(dataflow: list) -> list:
    var_dict = {}
    i = 0
    normalized_dataflow = []
    for item in dataflow:
        var_name = item[0]
        relationship = item[2]
        par_vars_name_list = item[3]
        for name in par_vars_name_list:
            if name not in var_dict:
                var_dict[name] = "var_" + str(i)
                i += 1
        if var_name not in var_dict:
            var_dict[var_name] = "var_" + str(i)
            i += 1
        normalized_dataflow.append(
            (var_dict[var_name], relationship, [var_dict[x] for x in par_vars_name_list])
        )
    return normalized_dataflow

