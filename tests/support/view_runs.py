"""The viewer's test material: system ``B``'s answers to the bundled sample's Qiskit tasks (one
of them a completion that tries to inject markup and script into the page, and a prediction
whose id does the same), system ``A``'s (the sample's own), and where a Chromium is."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

#: what a hostile completion holds; none of it may run in the page
#: (each would mark the page's <body> with data-pwned if it ran)
INJECT_CODE = ('from qiskit import QuantumCircuit\n\n'
               '# </script><script>document.body.dataset.pwned = "code"</script>\n'
               'def bell_circuit():\n'
               '    label = "\\"><img src=x onerror=\\"document.body.dataset.pwned=1\\">"\n'
               '    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n    return qc\n')
INJECT_ID = '<img src=x onerror="document.body.dataset.pwned=2">\u2028</script>'
INJECT_TEXT = "<script>document.body.dataset.pwned = 'prose'</script>"


def system_b() -> list[dict]:
    """System B's answers to the sample's Qiskit tasks (two per task, as A has)."""
    return [
        {"id": "sample/qk_bell_circuit", "completion": f"{INJECT_TEXT}\n```python\n{INJECT_CODE}```\n"},
        {"id": "sample/qk_bell_circuit", "completion": "```python\nfrom qiskit import QuantumCircuit\n\n"
         "def bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    return qc\n```\n"},
        {"id": "sample/qk_ghz_circuit", "completion": "```python\nfrom qiskit import QuantumCircuit\n\n"
         "def ghz_circuit(n):\n    qc = QuantumCircuit(n)\n    qc.h(0)\n    for i in range(n - 1):\n"
         "        qc.cx(i, i + 1)\n    return qc\n```\n"},
        {"id": "sample/qk_ghz_circuit", "completion": "```python\ndef ghz_circuit(n):\n    return 1 / 0\n```\n"},
        {"id": "sample/qk_basis_state", "completion": "```python\nfrom qiskit import QuantumCircuit\n\n"
         "def basis_state(bits):\n    qc = QuantumCircuit(len(bits))\n    for i, b in enumerate(bits):\n"
         "        if b == '1':\n            qc.x(i)\n    return qc\n```\n"},
        {"id": "sample/qk_basis_state", "completion": "I cannot write this circuit."},
        {"id": "sample/qk_sampled_counts", "completion": "```python\ndef sampled_counts(shots):\n"
         "    return {'00': shots}\n```\n"},
        {"id": "sample/qk_sampled_counts", "completion": "```python\ndef sampled_counts(shots):\n"
         "    return {'00': shots // 2, '11': shots - shots // 2}\n```\n"},
        {"id": INJECT_ID, "completion": "def f():\n    return 1\n"},
    ]


def system_a() -> list[dict]:
    from quantum_codegen_eval.benchmarks import sample

    ids = set(sample.problems("qiskit"))
    rows = [json.loads(line) for line in Path(sample.predictions_path()).read_text().splitlines()
            if line.strip()]
    return [r for r in rows if r.get("id") in ids]


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if path := shutil.which(name):
            return path
    return None
