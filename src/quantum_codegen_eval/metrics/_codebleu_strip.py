"""The CodeBLEU comment/docstring stripper on a tokenizer frozen at Python 3.11.

The reference (``codebleu.utils.remove_comments_and_docstrings``) runs the standard library's
``tokenize``, which changed in Python 3.12 (a C tokenizer: f-strings become several tokens,
and malformed input such as prose with a lone ``'`` raises where 3.11 emitted an ERRORTOKEN
and carried on, so the reference falls back to the unstripped text). To give one number on every
Python, the 3.11 pure-Python tokenizer (``Lib/tokenize.py`` of CPython 3.11, PSF licence,
Copyright (c) 2001 Python Software Foundation) is vendored below, with the operator table of
3.11's ``token.EXACT_TOKEN_TYPES``, yielding plain tuples instead of ``TokenInfo`` objects, and
the stripper consumes them directly. On 3.11 the output equals the reference's exactly
(``tests/metrics/test_codebleu.py`` compares both on real code); on 3.12 and 3.13 it equals
3.11's (same test, run with those interpreters when pyenv has them).

Residual version dependence: ``\\w`` and ``str.isidentifier`` follow the Unicode database of
the running Python, so identifiers using characters added to Unicode after 14.0 tokenize
differently on 3.10 (Unicode 13).

>>> strip_or_keep('def f():\\n    "doc"\\n    return 1  # one\\n')
'def f():\\n    return 1  '
>>> strip_or_keep("x = f'{{a}}'  # c\\n")
"x = f'{{a}}'  "
"""

from __future__ import annotations

import itertools
import re

# --- Lib/tokenize.py (3.11), regular expressions --------------------------------------------


def _group(*choices):
    return "(" + "|".join(choices) + ")"


def _any(*choices):
    return _group(*choices) + "*"


def _maybe(*choices):
    return _group(*choices) + "?"


_Whitespace = r"[ \f\t]*"
_Comment = r"#[^\r\n]*"
_Name = r"\w+"
_Hexnumber = r"0[xX](?:_?[0-9a-fA-F])+"
_Binnumber = r"0[bB](?:_?[01])+"
_Octnumber = r"0[oO](?:_?[0-7])+"
_Decnumber = r"(?:0(?:_?0)*|[1-9](?:_?[0-9])*)"
_Intnumber = _group(_Hexnumber, _Binnumber, _Octnumber, _Decnumber)
_Exponent = r"[eE][-+]?[0-9](?:_?[0-9])*"
_Pointfloat = _group(r"[0-9](?:_?[0-9])*\.(?:[0-9](?:_?[0-9])*)?", r"\.[0-9](?:_?[0-9])*") + _maybe(
    _Exponent
)
_Expfloat = r"[0-9](?:_?[0-9])*" + _Exponent
_Floatnumber = _group(_Pointfloat, _Expfloat)
_Imagnumber = _group(r"[0-9](?:_?[0-9])*[jJ]", _Floatnumber + r"[jJ]")
_Number = _group(_Imagnumber, _Floatnumber, _Intnumber)


def _all_string_prefixes():
    result = {""}
    for prefix in ["b", "r", "u", "f", "br", "fr"]:
        for t in itertools.permutations(prefix):
            for u in itertools.product(*[(c, c.upper()) for c in t]):
                result.add("".join(u))
    return result


_PREFIXES = _all_string_prefixes()
_StringPrefix = _group(*sorted(_PREFIXES))
_Single = r"[^'\\]*(?:\\.[^'\\]*)*'"
_Double = r'[^"\\]*(?:\\.[^"\\]*)*"'
_Single3 = r"[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
_Double3 = r'[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
_Triple = _group(_StringPrefix + "'''", _StringPrefix + '"""')

# token.EXACT_TOKEN_TYPES of Python 3.11 (3.12 adds "!")
_EXACT = (
    "!= % %= & &= ( ) * ** **= *= + += , - -= -> . ... / // //= /= : := ; < << <<= <= = == > >= "
    ">> >>= @ @= [ ] ^ ^= { | |= } ~"
).split()
_Special = _group(*map(re.escape, sorted(_EXACT, reverse=True)))
_Funny = _group(r"\r?\n", _Special)
_ContStr = _group(
    _StringPrefix + r"'[^\n'\\]*(?:\\.[^\n'\\]*)*" + _group("'", r"\\\r?\n"),
    _StringPrefix + r'"[^\n"\\]*(?:\\.[^\n"\\]*)*' + _group('"', r"\\\r?\n"),
)
_PseudoExtras = _group(r"\\\r?\n|\Z", _Comment, _Triple)
_PseudoToken = _Whitespace + _group(_PseudoExtras, _Number, _Funny, _ContStr, _Name)

_PSEUDO = re.compile(_PseudoToken, re.UNICODE)
_ENDPATS = {}
for _p in _PREFIXES:
    _ENDPATS[_p + "'"] = re.compile(_Single, re.UNICODE)
    _ENDPATS[_p + '"'] = re.compile(_Double, re.UNICODE)
    _ENDPATS[_p + "'''"] = re.compile(_Single3, re.UNICODE)
    _ENDPATS[_p + '"""'] = re.compile(_Double3, re.UNICODE)
_SINGLE_QUOTED = {p + q for p in _PREFIXES for q in ("'", '"')}
_TRIPLE_QUOTED = {p + q for p in _PREFIXES for q in ("'''", '"""')}
_TABSIZE = 8

# token kinds, as far as the stripper tells them apart
OTHER, COMMENT, STRING, INDENT, NEWLINE = range(5)


class TokenError(Exception):
    pass


def _readlines(source: str):
    """``StringIO(source).readline`` (no newline translation: lines end at ``\\n`` only)."""
    parts = source.split("\n")
    for part in parts[:-1]:
        yield part + "\n"
    if parts[-1]:
        yield parts[-1]


# Characters that can start a string, a comment or a line continuation, or that the stripper
# would not copy verbatim (tabs and form feeds between tokens become spaces).
_PLAIN = re.compile(r"[^'\"#\\\r\n\t\f]*")


def tokens(source: str, merge_plain: bool = False):
    """``tokenize.generate_tokens`` of CPython 3.11 on ``source``, as tuples
    ``(kind, text, start_row, start_col, end_row, end_col)`` with the kinds above.

    ``merge_plain``: a stretch of a line where no string, comment or continuation can start
    (names, numbers, operators, single spaces) is yielded as ONE ``OTHER`` token, its text
    verbatim, spaces included, and where it runs to the end of the line, the line's NEWLINE (or
    NL) token with it (that token's kind, the text of both). The stripper's output is the same (it copies ``OTHER`` text and
    pads the gaps with as many spaces), it only skips the per-token work. A stretch ends at the
    end of the line or, before a special character, at the last token followed by a space (a
    token never spans a space, but ``f`` in ``f"..."`` belongs to the string).
    """
    lnum = parenlev = continued = 0
    numchars = "0123456789"
    contstr, needcont = "", 0
    contline = None
    indents = [0]
    last_line = ""
    line = ""
    lines = _readlines(source)
    pseudo = _PSEUDO.match
    plain = _PLAIN.match
    strstart = endprog = None
    while True:
        last_line = line
        line = next(lines, "")
        lnum += 1
        pos, max_ = 0, len(line)

        if contstr:
            if not line:
                raise TokenError("EOF in multi-line string", strstart)
            endmatch = endprog.match(line)
            if endmatch:
                pos = end = endmatch.end(0)
                yield (STRING, contstr + line[:end], strstart[0], strstart[1], lnum, end)
                contstr, needcont = "", 0
                contline = None
            elif needcont and line[-2:] != "\\\n" and line[-3:] != "\\\r\n":
                yield (OTHER, contstr + line, strstart[0], strstart[1], lnum, len(line))
                contstr = ""
                contline = None
                continue
            else:
                contstr = contstr + line
                contline = contline + line
                continue

        elif parenlev == 0 and not continued:
            if not line:
                break
            column = 0
            # Indentation of spaces only (the usual case): the loop below, in one step.
            pos = column = max_ - len(line.lstrip(" "))
            while pos < max_:
                c = line[pos]
                if c == " ":
                    column += 1
                elif c == "\t":
                    column = (column // _TABSIZE + 1) * _TABSIZE
                elif c == "\f":
                    column = 0
                else:
                    break
                pos += 1
            if pos == max_:
                break

            if line[pos] in "#\r\n":
                if line[pos] == "#":
                    comment_token = line[pos:].rstrip("\r\n")
                    yield (COMMENT, comment_token, lnum, pos, lnum, pos + len(comment_token))
                    pos += len(comment_token)
                yield (OTHER, line[pos:], lnum, pos, lnum, len(line))  # NL
                continue

            if column > indents[-1]:
                indents.append(column)
                yield (INDENT, line[:pos], lnum, 0, lnum, pos)
            while column < indents[-1]:
                if column not in indents:
                    raise IndentationError(
                        "unindent does not match any outer indentation level",
                        ("<tokenize>", lnum, pos, line),
                    )
                indents = indents[:-1]
                yield (OTHER, "", lnum, pos, lnum, pos)  # DEDENT

        else:
            if not line:
                raise TokenError("EOF in multi-line statement", (lnum, 0))
            continued = 0

        try_plain = merge_plain
        while pos < max_:
            if try_plain:
                try_plain = False
                end = plain(line, pos).end()
                if end < max_ and line[end] != "\n":
                    # Stop at the end of the last token followed by a space (spaces before a
                    # continuation are not copied).
                    space = line.rfind(" ", pos, end)
                    end = pos + len(line[pos:space].rstrip(" ")) if space > pos else pos
                stretch = line[pos:end]
                if stretch.strip(" "):
                    parenlev += (stretch.count("(") + stretch.count("[") + stretch.count("{")
                                 - stretch.count(")") - stretch.count("]") - stretch.count("}"))
                    if end + 1 == max_ and line[end] == "\n":
                        # The stretch and the line's NEWLINE (NL inside brackets) as one token.
                        yield (OTHER if parenlev > 0 else NEWLINE, line[pos:], lnum, pos, lnum,
                               max_)
                        pos = max_
                        continue
                    yield (OTHER, stretch, lnum, pos, lnum, end)
                    pos = end
                    continue
            pseudomatch = pseudo(line, pos)
            if pseudomatch:
                start, end = pseudomatch.span(1)
                pos = end
                if start == end:
                    continue
                token, initial = line[start:end], line[start]

                if initial in numchars or (initial == "." and token != "." and token != "..."):
                    yield (OTHER, token, lnum, start, lnum, end)
                elif initial in "\r\n":
                    yield (OTHER if parenlev > 0 else NEWLINE, token, lnum, start, lnum, end)
                elif initial == "#":
                    yield (COMMENT, token, lnum, start, lnum, end)
                elif token in _TRIPLE_QUOTED:
                    endprog = _ENDPATS[token]
                    endmatch = endprog.match(line, pos)
                    if endmatch:
                        pos = endmatch.end(0)
                        yield (STRING, line[start:pos], lnum, start, lnum, pos)
                        try_plain = merge_plain
                    else:
                        strstart = (lnum, start)
                        contstr = line[start:]
                        contline = line
                        break
                elif (initial in _SINGLE_QUOTED or token[:2] in _SINGLE_QUOTED
                      or token[:3] in _SINGLE_QUOTED):
                    if token[-1] == "\n":
                        strstart = (lnum, start)
                        endprog = (_ENDPATS.get(initial) or _ENDPATS.get(token[1])
                                   or _ENDPATS.get(token[2]))
                        contstr, needcont = line[start:], 1
                        contline = line
                        break
                    else:
                        yield (STRING, token, lnum, start, lnum, end)
                        try_plain = merge_plain
                elif initial.isidentifier():
                    yield (OTHER, token, lnum, start, lnum, end)
                elif initial == "\\":
                    continued = 1
                else:
                    if initial in "([{":
                        parenlev += 1
                    elif initial in ")]}":
                        parenlev -= 1
                    yield (OTHER, token, lnum, start, lnum, end)
            else:
                yield (OTHER, line[pos], lnum, pos, lnum, pos + 1)  # ERRORTOKEN
                pos += 1

    if last_line and last_line[-1] not in "\r\n" and not last_line.strip().startswith("#"):
        yield (NEWLINE, "", lnum - 1, len(last_line), lnum - 1, len(last_line) + 1)
    for _ in indents[1:]:
        yield (OTHER, "", lnum, 0, lnum, 0)  # DEDENT
    yield (OTHER, "", lnum, 0, lnum, 0)  # ENDMARKER


def remove_comments_and_docstrings(source: str) -> str:
    """The reference's stripper over :func:`tokens` (raises where 3.11's tokenize raises)."""
    out = []
    prev = INDENT
    last_lineno = -1
    last_col = 0
    for kind, text, srow, scol, erow, ecol in tokens(source, merge_plain=True):
        if srow > last_lineno:
            last_col = 0
        if scol > last_col:
            out.append(" " * (scol - last_col))
        if kind == COMMENT:
            pass
        elif kind == STRING:
            if prev != INDENT and prev != NEWLINE and scol > 0:
                out.append(text)
        else:
            out.append(text)
        prev = kind
        last_col = ecol
        last_lineno = erow
    return "\n".join(x for x in "".join(out).split("\n") if x.strip() != "")


def strip_or_keep(source: str) -> str:
    """:func:`remove_comments_and_docstrings`, or ``source`` unchanged where it raises (the
    reference's ``except Exception: pass``)."""
    try:
        return remove_comments_and_docstrings(source)
    except Exception:  # noqa: BLE001 -- the reference swallows everything here
        return source
