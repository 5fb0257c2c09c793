"""Programs for the bundled sample's Qiskit tasks, with known verdicts, for the tests of other
tools' files and harnesses (tests/integrations): two right (AC), one wrong (WA), one that is
not Python (RE: a syntax error)."""

from sample_answers import BELL, RIGHT

NO_CODE = "I cannot write this program."
PROGRAMS = {
    BELL: RIGHT,
    "sample/qk_basis_state": ("    qc = QuantumCircuit(len(bits))\n"
                              "    for i, b in enumerate(reversed(bits)):\n"
                              "        if b == '1':\n            qc.x(i)\n    return qc\n"),
    # a Hadamard on the first qubit only: not a GHZ state
    "sample/qk_ghz_circuit": "```python\ndef ghz_circuit(n):\n    qc = QuantumCircuit(n)\n"
                             "    qc.h(0)\n    return qc\n```",
    "sample/qk_sampled_counts": NO_CODE,
}
EXPECTED = {BELL: "AC", "sample/qk_basis_state": "AC", "sample/qk_ghz_circuit": "WA",
            "sample/qk_sampled_counts": "RE"}


def statuses(report) -> dict[str, str]:
    """sample key -> verdict status of a report."""
    return {row["key"]: row["status"] for row in report.per_sample}
