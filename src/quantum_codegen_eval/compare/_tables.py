"""A table of the comparison and its four renderings: Markdown, LaTeX (booktabs, ready to
``\\input``), CSV and JSON.

Cells are plain values (str, int, float, None); ``None`` prints as a dash. The LaTeX is a
``tabular`` only (no float, no caption) so that a paper wraps it in its own ``table``; it needs
``\\usepackage{booktabs}``. Every cell is escaped (``& % $ # _ { } ~ ^ \\`` and ``<`` ``>`` ``|``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from ..report import inline, strict_json

_LATEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
          "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
          "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}


#: non-ASCII characters the tables print, in plain (pdf)LaTeX
_LATEX_TEXT = {"−": "$-$", "–": "--", "—": "---", "±": r"$\pm$", "×": r"$\times$", "…": r"\dots{}",
               "µ": r"$\mu$", "≤": r"$\leq$", "≥": r"$\geq$"}


def latex_escape(text: str) -> str:
    """``text`` safe inside a LaTeX tabular cell for pdflatex: specials escaped, control
    characters dropped, Latin-1 letters kept (LaTeX's default UTF-8 input reads them), a few
    symbols spelled in LaTeX, any other character shown as ``?``."""
    out = []
    for ch in str(text):
        if not ch.isprintable():
            continue
        if ch in _LATEX:
            out.append(_LATEX[ch])
        elif ch in _LATEX_TEXT:
            out.append(_LATEX_TEXT[ch])
        elif ord(ch) < 0x80 or (0xC0 <= ord(ch) <= 0xFF and ch.isalpha()):
            out.append(ch)
        else:
            out.append("?")
    return "".join(out)


@dataclass(frozen=True)
class Interval:
    """A value with its interval, printed ``v [low, high]``; CSV and JSON keep the three."""

    value: float
    low: float
    high: float


#: column formats: pct (0-1 shown as %, one decimal), score (three decimals), p (p-value),
#: signed_pct (a difference in percentage points, with its sign), text (as is)
FORMATS = ("pct", "score", "p", "signed_pct", "text")


def _number(value: float, fmt: str) -> str:
    if fmt == "pct":
        return f"{100 * value:.1f}"
    if fmt == "signed_pct":
        return f"{100 * value:+.1f}"
    if fmt == "score":
        return f"{value:.3f}"
    if fmt == "p":
        return "<0.001" if value < 0.001 else f"{value:.3f}"
    return f"{value:g}"


@dataclass
class Table:
    """``name`` (file stem), ``title``, ``header``, ``rows`` of raw values (str, int, float,
    :class:`Interval`, None) and one format per column (:data:`FORMATS`); ``notes`` are printed
    under the Markdown table and kept in the JSON (caveats, definitions)."""

    name: str
    title: str
    header: list[str]
    rows: list[list[Any]]
    formats: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def _cell(self, value: Any, col: int) -> str:
        fmt = self.formats[col] if col < len(self.formats) else "text"
        if value is None:
            return "–"
        if isinstance(value, Interval):
            return (f"{_number(value.value, fmt)} [{_number(value.low, fmt)}, "
                    f"{_number(value.high, fmt)}]")
        if isinstance(value, float) and fmt != "text":
            return _number(value, fmt)
        return str(value)

    def cells(self) -> list[list[str]]:
        """The rows as the tables print them (intervals ``v [low, high]``, None as a dash)."""
        return [[self._cell(c, i) for i, c in enumerate(row)] for row in self.rows]

    def to_markdown(self) -> str:
        lines = [f"### {inline(self.title)}", "",
                 "| " + " | ".join(inline(h) for h in self.header) + " |",
                 "|" + "|".join("---" for _ in self.header) + "|"]
        lines += ["| " + " | ".join(inline(self._cell(c, i)) for i, c in enumerate(row)) + " |"
                  for row in self.rows]
        if self.notes:
            lines += [""] + [inline(n, 2000) for n in self.notes]
        return "\n".join(lines) + "\n"

    def to_latex(self) -> str:
        spec = "l" + "r" * (len(self.header) - 1)
        lines = [f"% {latex_escape(self.title)}"] + [f"% {line}" for note in self.notes
                                                    for line in str(note).splitlines()]
        lines += [f"\\begin{{tabular}}{{{spec}}}", r"\toprule",
                 " & ".join(latex_escape(h) for h in self.header) + r" \\", r"\midrule"]
        for row in self.rows:
            cells = ["--" if c is None else latex_escape(self._cell(c, i)) for i, c in enumerate(row)]
            lines.append(" & ".join(cells) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        return "\n".join(lines) + "\n"

    def to_csv(self) -> str:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        spans = [any(isinstance(r[i], Interval) for r in self.rows if i < len(r))
                 for i in range(len(self.header))]
        writer.writerow([x for h, wide in zip(self.header, spans, strict=True)
                         for x in ((h, f"{h} low", f"{h} high") if wide else (h,))])
        for row in self.rows:
            out: list[Any] = []
            for c, wide in zip(row, spans, strict=True):
                if isinstance(c, Interval):
                    out += [repr(c.value), repr(c.low), repr(c.high)]
                else:
                    out += ["" if c is None else (repr(c) if isinstance(c, float) else c)]
                    out += ["", ""] if wide else []
            writer.writerow(out)
        return buf.getvalue()

    def to_dict(self) -> dict[str, Any]:
        rows = [[{"value": c.value, "low": c.low, "high": c.high} if isinstance(c, Interval)
                 else c for c in row] for row in self.rows]
        return {"name": self.name, "title": self.title, "header": self.header, "rows": rows,
                "formats": self.formats, "notes": self.notes}

    def to_json(self) -> str:
        return strict_json(self.to_dict(), indent=2)
