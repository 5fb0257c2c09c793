"""Answers to the bundled sample's Bell-circuit task, for tests that need a quick real verdict."""

BELL = "sample/qk_bell_circuit"
#: AC in about a second
RIGHT = ("```python\ndef bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n"
         "    return qc\n```")
#: WA: a Hadamard, no CNOT
WRONG = "```python\ndef bell_circuit():\n    qc = QuantumCircuit(2)\n    qc.h(0)\n    return qc\n```"
#: runs 120 s: still running when a test interrupts the run
SLEEP = "```python\ndef bell_circuit():\n    import time\n    time.sleep(120)\n```"
