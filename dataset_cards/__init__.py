"""The dataset cards (``<name>/README.md``), shipped so that ``qce build`` works from a wheel.

A builder writes a card as ``yaml_header(meta) + card_body(name)``: the YAML header (configs,
features) is generated from the data, the prose is this folder's card without its own header.
``read_yaml_header`` reads it back.
"""

from __future__ import annotations

from importlib import resources
from typing import Any


def card_body(name: str) -> str:
    """The text of ``<name>/README.md`` without its YAML header."""
    text = resources.files(__name__).joinpath(name, "README.md").read_text(encoding="utf-8")
    if text.startswith("---"):
        text = text.split("\n---\n", 1)[1]
    return text


def yaml_header(meta: dict[str, Any]) -> str:
    """``meta`` as a card's YAML header block (between ``---`` lines)."""
    import yaml

    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=100) + "---\n"


def read_yaml_header(text: str) -> dict[str, Any]:
    """The YAML header of a card's ``text`` as a mapping; ``ValueError`` says what is wrong."""
    import yaml

    if not text.startswith("---\n"):
        raise ValueError("no YAML header (the card must start with '---')")
    end = text.find("\n---", 4)
    if end < 0:
        raise ValueError("YAML header is not closed with '---'")
    try:
        meta = yaml.safe_load(text[4:end]) or {}
    except yaml.YAMLError as exc:
        raise ValueError(f"invalid YAML header: {exc}") from exc
    if not isinstance(meta, dict):
        raise ValueError("YAML header is not a mapping")
    return meta
