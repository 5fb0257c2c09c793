"""docs/cli.md and argparse agree: every command (including ones added later) has a synopsis line
in the page naming exactly its options; an option is shown with ``...`` exactly when argparse
takes several values after it, and in brackets exactly when it is optional."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from quantum_codegen_eval import cli

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _synopses() -> dict[str, str]:
    """command -> its synopsis (continuation lines joined) from the page's first code block."""
    block = re.search(r"^```\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.M | re.S).group(1)
    out: dict[str, str] = {}
    current = None
    for line in block.splitlines():
        if line.startswith("qce "):
            current = line.split()[1]
            out[current] = line
        elif line.startswith(" ") and current:
            out[current] += " " + line.strip()
    return out


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli._parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _repeatable(action: argparse.Action) -> bool:
    """``--opt V ...`` in the docs: several values after one flag."""
    return action.nargs in ("+", "*")


COMMANDS = sorted(_subparsers())


def test_every_command_has_a_synopsis():
    assert sorted(_synopses()) == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_synopsis_options_match_argparse(command):
    synopsis = _synopses().get(command, "")
    documented = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", synopsis))
    actions = [a for a in _subparsers()[command]._actions if a.option_strings
               and not isinstance(a, argparse._HelpAction)]
    real = {max(a.option_strings, key=len) for a in actions}
    assert documented == real, f"qce {command}: docs {sorted(documented)} vs argparse {sorted(real)}"
    for action in actions:
        name = max(action.option_strings, key=len)
        shown = re.search(rf"(\[?)(?<![\w-]){re.escape(name)}(?: (?!-)[^\s\]\[]+)?( \.\.\.)?"
                          r"(?=[\]\s]|$)", synopsis)
        assert shown, f"qce {command}: {name} not found in docs/cli.md"
        assert bool(shown.group(1)) == (not action.required), (
            f"qce {command} {name}: docs/cli.md brackets it iff argparse does not require it")
        shown = re.search(r"()(\.\.\.)?$", shown.group(0))
        assert bool(shown.group(2)) == _repeatable(action), (
            f"qce {command} {name}: docs/cli.md {'shows' if shown.group(2) else 'does not show'} "
            f"it repeatable, argparse {'takes' if _repeatable(action) else 'does not take'} "
            "several values")


def test_documented_k_form_parses():
    """The synopsis's ``-k K ...`` as a user types it."""
    args = cli._parser().parse_args(["evaluate", "p.jsonl", "--benchmark", "sample", "-k", "1", "5"])
    assert args.k == [1, 5]
    args = cli._parser().parse_args(["evaluate", "p.jsonl", "--benchmark", "sample", "-k", "1",
                                     "-k", "5"])
    assert args.k == [1, 5]
