"""Operation names the trusted jobs rebuild a circuit from (and the program's jobs expand to)."""

#: emitted operations are expanded until every one is in this set (or the oracle placeholder)
STANDARD_GATES = ("Identity", "Hadamard", "PauliX", "PauliY", "PauliZ", "S", "T", "SX", "CNOT",
                  "CZ", "CY", "SWAP", "Toffoli", "CSWAP", "RX", "RY", "RZ", "PhaseShift",
                  "ControlledPhaseShift", "CRX", "CRY", "CRZ", "Rot", "U1", "U2", "U3",
                  "IsingXX", "IsingYY", "IsingZZ", "MultiRZ")

#: operations a recorded replay can rebuild by name as ``Cls(*params, wires=wires)`` (besides the
#: harness's own operation classes a challenge names)
REBUILDABLE = STANDARD_GATES + (
    "QubitUnitary", "BasisState", "StatePrep", "QubitStateVector", "MottonenStatePreparation",
    "DepolarizingChannel", "AmplitudeDamping", "PhaseDamping", "BitFlip", "PhaseFlip", "QFT",
    "ISWAP", "SISWAP", "SQISW", "ECR", "IsingXY", "PSWAP", "CPhase", "SingleExcitation",
    "DoubleExcitation", "QubitCarry", "QubitSum",
    # no decomposition (Barrier's is empty), and a recorded matrix would lose what they are
    "Barrier", "GlobalPhase")

#: the operation name of the placeholder the program's job hands the solution for an oracle
ORACLE = "QCEOracle"

#: the tag of an emitted controlled operation, ``[CONTROLLED, control wires, control values,
#: base]`` (a circuit check allows it where the official check does not restrict the gate set)
CONTROLLED = "C"
