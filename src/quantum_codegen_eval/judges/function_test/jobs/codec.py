"""The wire codec of the function-test judges (Qiskit HumanEval, Quantum Katas): the core with
numpy and Qiskit, values used as objects (what cannot cross raises ``UnsupportedValue`` on the
trusted side)."""

from ...jobs import wire, wire_numpy, wire_qiskit

CODEC = wire.Codec((wire_numpy, wire_qiskit))
