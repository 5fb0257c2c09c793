"""Code of a user's kind for the PennySynth pipeline tests (real code, never a stub):

* :func:`tfidf_embed`: a TF-IDF ``embed`` (scikit-learn) fitted on a corpus, the way a user
  without a code-search model would retrieve densely;
* :func:`generate`: a deterministic "model" for ``synthesize``: it recombines the seed snippets
  of its prompt into a new program and, by a hash of the request, sometimes writes code that
  fails, calls an API PennyLane does not have, copies a seed, or copies a problem it was shown.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from sklearn.feature_extraction.text import TfidfVectorizer

_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def tfidf_embed(corpus: str | Path):
    """``embed(texts)``: TF-IDF vectors of a vocabulary fitted on the corpus's instruction +
    code (a JSONL file in the PennySynth schema, or a dataset folder)."""
    if Path(corpus).is_dir():
        import datasets

        rows = list(datasets.load_dataset(str(corpus), split="train"))
    else:
        rows = [json.loads(line) for line in Path(corpus).read_text().splitlines() if line.strip()]
    vec = TfidfVectorizer(token_pattern=r"[A-Za-z_][A-Za-z0-9_]*", sublinear_tf=True)
    vec.fit([f"{r['instruction']}\n{r['code']}" for r in rows])
    return vec.transform


def _kind(key: str) -> int:
    """What this answer will be: every kind once in twelve consecutive requests."""
    digits = re.search(r"(\d+)$", key)
    number = int(digits.group(1)) if digits else int(hashlib.sha256(key.encode()).hexdigest(), 16)
    return (5 * number) % 12


def _body(code: str) -> list[str]:
    """The statements of a seed after its imports and device line."""
    return [line for line in code.splitlines()
            if line.strip() and not line.startswith(("import ", "from ", "dev = ", "print("))]


def answer(key: str, prompt: str) -> str:
    """One answer: ``Instruction: ...`` then a python block, as the synthesis prompt asks."""
    seeds = [b for b in _BLOCK.findall(prompt) if "<the program>" not in b]
    kind = _kind(key)
    if kind == 0 and seeds:  # a copy of the first seed
        return f"Instruction: Repeat the first example.\n```python\n{seeds[0]}```\n"
    if kind == 1:  # broken: the program raises
        code = "import pennylane as qml\n\nqml.RX(0.1, wires=0)\nraise ValueError('bad wires')\n"
        return f"Instruction: Rotate a qubit.\n```python\n{code}```\n"
    if kind == 2:  # hallucinated API
        code = ("import pennylane as qml\n\ndev = qml.device('default.qubit', wires=2)\n\n\n"
                "@qml.qnode(dev)\ndef c():\n    qml.QuantumMagicGate(wires=[0, 1])\n"
                "    return qml.state()\n")
        return f"Instruction: Apply the magic gate.\n```python\n{code}```\n"
    if kind == 3:  # no code block at all
        return "I cannot write this program."
    if kind == 4 and seeds:  # cut off mid-program (truncated output)
        return f"Instruction: Extend the example.\n```python\n{seeds[0][:len(seeds[0]) // 2]}```\n"
    n = kind - 3  # a new circuit on 2..8 wires: a rotation per wire, then entangling gates
    angle = 0.1 * (1 + int(hashlib.sha256(key.encode()).hexdigest()[:4], 16) % 17)
    lines = ["import pennylane as qml", "", f"dev = qml.device('default.qubit', wires={n})", "",
             "", "@qml.qnode(dev)", "def circuit(theta):"]
    lines += [f"    qml.{'RX' if w % 2 else 'RY'}(theta * {w + 1}, wires={w})" for w in range(n)]
    lines += [f"    qml.CNOT(wires=[{w}, {w + 1}])" for w in range(n - 1)]
    lines += [f"    return qml.expval(qml.PauliZ({n - 1}))", "", "", f"print(circuit({angle:.1f}))"]
    code = "\n".join(lines) + "\n"
    if kind <= 8 and seeds:  # recombined: the seed's program, then the new circuit
        code = seeds[-1].rstrip() + "\n\n\n" + "\n".join(lines[2:]) + "\n"
    return (f"Instruction: Build a {n}-qubit circuit of alternating RY/RX rotations scaled by "
            f"the wire index and a CNOT chain, and return <Z> on the last wire.\n"
            f"```python\n{code}```\n")


def generate(requests) -> list[str]:
    """The batch ``generate`` synthesize calls: one answer per request."""
    return [answer(r.id, r.prompt) for r in requests]
