"""The wire codec of Qiskit HumanEval: the core with numpy and Qiskit, values used as objects
(what cannot cross raises ``UnsupportedValue`` on the trusted side)."""

from ...jobs import wire, wire_numpy, wire_qiskit

CODEC = wire.Codec((wire_numpy, wire_qiskit))
