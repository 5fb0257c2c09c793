"""The vendored 3.11 tokenizer strips comments exactly as ``tokenize`` of Python 3.11 does, and
gives the same output on every Python version pyenv has here."""

from __future__ import annotations

import json
import subprocess
import sys
import tokenize
from io import StringIO
from pathlib import Path

import _codebleu_corpus as corpus  # tests/support
import pytest

from quantum_codegen_eval.metrics import _codebleu_strip

STRIP = Path(_codebleu_strip.__file__)

EDGE = [
    'x = f"{{a}}" + f"{b!r:>{w}}"\n', "def f():\n    '''doc'''\n    return 1\n",
    "Prose with a lone ' quote\ndef f():\n    return 1\n", "x = (1,\n", "s = '''open\n",
    "if x:\n        a\n    b\n", "x = 1 \\\n    + 2  # c\n", "a = 'x\\\nb'\n", "\tif a:\n\t\tb\n",
    "x = 1\r\ny = 2\r\n", "é = 'ü'  # ö\n", "", "# only\n", "@dec\nclass A: pass",
]


def _stdlib(source: str) -> str:
    """The reference's stripper verbatim (codebleu/parser/utils.py) on the stdlib tokenizer."""
    io_obj = StringIO(source)
    out = ""
    prev_toktype = tokenize.INDENT
    last_lineno = -1
    last_col = 0
    for tok in tokenize.generate_tokens(io_obj.readline):
        token_type, token_string = tok[0], tok[1]
        (start_line, start_col), (end_line, end_col) = tok[2], tok[3]
        if start_line > last_lineno:
            last_col = 0
        if start_col > last_col:
            out += " " * (start_col - last_col)
        if token_type == tokenize.COMMENT:
            pass
        elif token_type == tokenize.STRING:
            if prev_toktype != tokenize.INDENT and prev_toktype != tokenize.NEWLINE and start_col > 0:
                out += token_string
        else:
            out += token_string
        prev_toktype = token_type
        last_col = end_col
        last_lineno = end_line
    return "\n".join(x for x in out.split("\n") if x.strip() != "")


def _keep(fn, s):
    try:
        return fn(s)
    except Exception:  # noqa: BLE001
        return s


@pytest.fixture(scope="module")
def programs(upstream):
    progs = corpus.package_functions("pennylane", 3, 200)[::8] + corpus.humaneval_programs(upstream)
    progs += list(corpus.qhack_templates(upstream).values()) + EDGE
    return progs + [p[: len(p) // 2] for p in progs[::5]]  # truncated: tokenizer errors


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the oracle is Python 3.11's tokenize")
def test_equals_python_311_tokenize(programs):
    bad = [p for p in programs
           if _codebleu_strip.strip_or_keep(p) != _keep(_stdlib, p)]
    assert not bad, f"{len(bad)} of {len(programs)} differ, first: {bad[0][:300]!r}"
    assert sum(_codebleu_strip.strip_or_keep(p) == p for p in programs) > 10  # errors kept as is


def _pyenv(version: str) -> Path | None:
    root = Path("/root/.pyenv/versions")
    found = sorted(root.glob(f"{version}.*/bin/python")) if root.is_dir() else []
    return found[-1] if found else None


_RUN = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("s", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
print(json.dumps([m.strip_or_keep(p) for p in json.load(sys.stdin)]))
"""


@pytest.mark.parametrize("version", ["3.10", "3.12", "3.13"])
def test_same_output_on_other_pythons(programs, version):
    python = _pyenv(version)
    if python is None:
        pytest.skip(f"no Python {version} under pyenv")
    done = subprocess.run([str(python), "-c", _RUN, str(STRIP)], input=json.dumps(programs),
                          capture_output=True, text=True, check=True)
    theirs = json.loads(done.stdout)
    ours = [_codebleu_strip.strip_or_keep(p) for p in programs]
    assert sum(a != b for a, b in zip(ours, theirs, strict=True)) == 0
