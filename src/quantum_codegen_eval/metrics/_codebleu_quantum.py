"""Quantum-aware pieces of ``variant="quantum"`` CodeBLEU: tokens and the key set K(c).

Everything is regex-based on comment-free source, so it works on code that does not parse
(LLM output often does not) and needs neither PennyLane nor Qiskit installed. A bare ``qml.``
means PennyLane when nothing else binds the name ``qml`` (:func:`qml_convention`).

>>> src = "import pennylane as pl\\nfrom pennylane import RX\\ndev = pl.device('default.qubit', wires=1)\\n"
>>> src += "RX(0.1, wires=0)\\nreturn pl.expval(pl.PauliZ(0))"
>>> quantum_tokens(src, "pennylane")[-8:-3]
['return', 'qml.expval', '(', 'qml.PauliZ', '(']
>>> sorted(key_set(src, "pennylane"))
['device:default.qubit', 'qml.PauliZ', 'qml.RX', 'qml.expval']
"""

from __future__ import annotations

import re

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = rf"{_NAME}(?:\s*\.\s*{_NAME})*"
_STRING = (
    r"[rbuRBUfF]{0,2}(?:'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\")"
)
_NUMBER = r"\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?j?|\.\d+(?:[eE][+-]?\d+)?j?"
_OP = r"\*\*=?|//=?|->|:=|[-+*/%&|^<>!=@]=|<<=?|>>=?|\S"
_TOKEN_RE = re.compile(rf"(?P<c>#[^\n]*)|(?P<s>{_STRING})|(?P<n>{_NUMBER})|(?P<d>{_DOTTED})|{_OP}")

# --- PennyLane ------------------------------------------------------------------------------

_PL_IMPORT = re.compile(r"^\s*import\s+pennylane(?:\s+as\s+(\w+))?\s*$", re.M)
_PL_FROM = re.compile(r"^\s*from\s+(pennylane(?:\.\w+)*)\s+import\s+\(?([^)\n]+)\)?", re.M)
PL_MEASUREMENTS = frozenset(
    "expval var probs sample counts state density_matrix vn_entropy mutual_info purity "
    "classical_shadow shadow_expval measure".split()
)
PL_TRANSFORMS = frozenset("adjoint ctrl cond apply".split())
_PL_NOT_OPS = frozenset("QNode Device".split())


# Anything other than ``import pennylane as qml`` that binds the name ``qml``.
_QML_BOUND = re.compile(
    r"\bas\s+qml\b"  # import x as qml, with ... as qml, except E as qml
    r"|^\s*from\s+[\w.]+\s+import\b[^\n]*\bqml\b"  # from x import qml
    r"|^\s*import\s+qml\b"
    r"|\b(?:def|class)\s+qml\b|\bfor\s+(?:[\w\s,]*,\s*)?qml\b"
    r"|^\s*(?:[\w\s,]*,\s*)?qml\s*(?:,[\w\s,]*)?(?::[^=\n]*)?=(?!=)"  # qml = ..., a, qml = ...
    r"|\(\s*qml\s*[,)=:]|,\s*qml\s*[,)=:]",  # a parameter named qml
    re.M,
)


def qml_convention(src: str) -> bool:
    """Whether a bare ``qml.`` means PennyLane: ``import pennylane as qml``, or nothing else binds
    ``qml`` (a model's answer to a template usually omits the template's imports).

    >>> qml_convention("qml.RX(0.1, wires=0)"), qml_convention("import qiskit as qml\\nqml.x")
    (True, False)
    """
    if re.search(r"\bimport\s+pennylane\s+as\s+qml\b", src):
        return True
    if not re.search(r"\bqml\s*\.", src):
        return False
    return _QML_BOUND.search(re.sub(r"\bimport\s+pennylane\s+as\s+qml\b", "", src)) is None


def pennylane_aliases(src: str) -> tuple[set[str], dict[str, str]]:
    """Module aliases of ``pennylane`` and names imported from it (``name -> qml.path``)."""
    modules = {"qml"} if qml_convention(src) else set()
    for m in _PL_IMPORT.finditer(src):
        modules.add(m.group(1) or "pennylane")
    names: dict[str, str] = {}
    for m in _PL_FROM.finditer(src):
        prefix = "qml" + m.group(1)[len("pennylane") :]
        for part in m.group(2).split(","):
            bits = part.split()
            if not bits or not re.fullmatch(_NAME, bits[0]):
                continue
            local = bits[2] if len(bits) == 3 and bits[1] == "as" else bits[0]
            names[local] = f"{prefix}.{bits[0]}"
    return modules, names


def canonical_pennylane(dotted: str, modules: set[str], names: dict[str, str]) -> str | None:
    """``pl.RX`` / ``RX`` (imported) -> ``qml.RX``; None for non-PennyLane names."""
    head, dot, _ = dotted.partition(".")
    head = head.strip()
    if not ((dot and head in modules) or head in names):
        return None  # (what the lines below give, without splitting every name)
    parts = [p.strip() for p in dotted.split(".")]
    if parts[0] in modules and len(parts) > 1:
        return ".".join(["qml", *parts[1:]])
    if parts[0] in names:
        return ".".join([names[parts[0]], *parts[1:]])
    return None


def _is_pl_key(path: str) -> bool:
    last = path.rsplit(".", 1)[-1]
    if last in PL_MEASUREMENTS or last in PL_TRANSFORMS:
        return True
    return last[:1].isupper() and last not in _PL_NOT_OPS and not last.endswith("Optimizer")


# --- Qiskit ---------------------------------------------------------------------------------

QISKIT_GATE_METHODS = frozenset(
    "barrier ccx ccz ch cp crx cry crz cs csdg cswap csx cu cx cy cz dcx delay ecr h id iswap "
    "mcp mcrx mcry mcrz mcx ms p pauli prepare_state initialize r rcccx rccx reset rv rx rxx ry "
    "ryy rz rzx rzz s sdg swap sx sxdg t tdg u unitary x y z append compose".split()
)
QISKIT_MEASURE_METHODS = frozenset(
    "measure measure_all measure_active get_counts get_statevector get_unitary get_memory "
    "get_probabilities probabilities_dict sample_counts expectation_value".split()
)
QISKIT_BACKENDS = frozenset(
    "AerSimulator QasmSimulator StatevectorSimulator UnitarySimulator BasicSimulator "
    "BasicAer Aer Statevector DensityMatrix Operator Sampler Estimator StatevectorSampler "
    "StatevectorEstimator SamplerV2 EstimatorV2 BackendSampler BackendEstimator".split()
)
_GATE_CLASS = re.compile(r"^(?:[A-Z][A-Za-z0-9]*Gate|Barrier|Measure|Reset|Initialize)$")
_BACKEND_NAME = re.compile(r"get_backend\s*\(\s*['\"]([\w.]+)['\"]")
_METHOD_KW = re.compile(r"\bmethod\s*=\s*['\"](\w+)['\"]")


# --- shared ---------------------------------------------------------------------------------

_WS = re.compile(r"\s+")


def _raw_tokens(src: str) -> list[tuple[str, str]]:
    """(kind, text) pairs; kind is 'd' dotted name, 's' string, 'n' number, 'o' operator."""
    out = []
    for m in _TOKEN_RE.finditer(src):
        kind = m.lastgroup or "o"
        if kind != "c":
            out.append((kind, m.group(0)))
    return out


# Gate methods that only circuits have (``append``, ``compose``, ``id``, ``p``, ... are left out:
# lists and other objects have them too).
_CIRCUIT_ONLY = QISKIT_GATE_METHODS - frozenset(
    "append compose id p r delay reset initialize unitary prepare_state pauli".split()
) | frozenset("measure measure_all measure_active add_register draw num_qubits".split())
_CIRCUIT_ASSIGN = re.compile(rf"^\s*({_NAME})\s*=\s*(?:\w+\.)*QuantumCircuit\s*\(", re.M)
CIRCUIT = "circuit"  # the one name every circuit variable gets in lang="qiskit" tokens


def circuit_names(src: str) -> set[str]:
    """Variables that hold a circuit: assigned from ``QuantumCircuit(...)`` or receivers of a
    circuit-only method call (``qc.h(``, ``circ.measure_all(``).

    >>> sorted(circuit_names("qc = QuantumCircuit(2)\\nbell.h(0)\\nxs.append(1)"))
    ['bell', 'qc']
    """
    names = set(_CIRCUIT_ASSIGN.findall(src))
    toks = _raw_tokens(src)
    for i, (kind, text) in enumerate(toks):
        if kind == "d" and "." in text and i + 1 < len(toks) and toks[i + 1][1] == "(":
            parts = [p.strip() for p in text.split(".")]
            if len(parts) == 2 and parts[1] in _CIRCUIT_ONLY:
                names.add(parts[0])
    return names


def quantum_tokens(src: str, lang: str) -> list[str]:
    """Code tokens with dotted names kept whole; PennyLane names canonicalised to ``qml.*``;
    for Qiskit, circuit variables renamed to ``circuit`` (``qc.h`` and ``circ.h`` both become
    ``circuit.h``), so the name of a circuit does not count, what is done to it does."""
    toks = _raw_tokens(src)
    if lang == "qiskit":
        circuits = circuit_names(src)
        out = []
        for k, t in toks:
            if k == "d":
                t = _WS.sub("", t)
                head, dot, rest = t.partition(".")
                if head in circuits:
                    t = CIRCUIT + dot + rest
            out.append(t)
        return out
    modules, names = pennylane_aliases(src)
    out = []
    for kind, text in toks:
        if kind == "d":
            text = _WS.sub("", text)
            text = canonical_pennylane(text, modules, names) or text
        out.append(text)
    return out


def is_quantum_token(token: str, lang: str) -> bool:
    """Whether a token gets the quantum weight in the weighted n-gram component."""
    if lang == "qiskit":
        last = token.rsplit(".", 1)[-1]
        if "." in token and (last in QISKIT_GATE_METHODS or last in QISKIT_MEASURE_METHODS):
            return True
        return bool(_GATE_CLASS.match(last)) or last in QISKIT_BACKENDS or last.startswith("save_")
    return token.startswith("qml.")


def key_set(src: str, lang: str) -> set[str]:
    """K(c): the quantum content of a program, as a set of strings.

    PennyLane: ``qml.<Name>`` for every operation/template (capitalised name, optimisers and
    ``QNode`` excluded), measurement (``expval``, ``probs``, ``state``, ...) and transform
    (``adjoint``, ``ctrl``, ``cond``); ``device:<name>`` for each ``qml.device("<name>", ...)``.
    Qiskit: ``gate:<method>`` for ``<obj>.<gate method>(``, ``gate:<Class>`` for gate classes,
    ``backend:<Class>`` / ``backend:<name>`` / ``method:<sim method>`` for simulators and
    backends, ``measure:<name>`` for measurements, results and ``save_*`` calls.
    """
    toks = _raw_tokens(src)
    keys: set[str] = set()
    if lang == "qiskit":
        for i, (kind, text) in enumerate(toks):
            if kind != "d":
                continue
            text = _WS.sub("", text)
            last = text.rsplit(".", 1)[-1]
            called = i + 1 < len(toks) and toks[i + 1][1] == "("
            if last.startswith("save_") and called:
                keys.add(f"measure:{last}")
            elif last in QISKIT_MEASURE_METHODS and called:
                keys.add(f"measure:{last}")
            elif "." in text and last in QISKIT_GATE_METHODS and called:
                keys.add(f"gate:{last}")
            elif _GATE_CLASS.match(last):
                keys.add(f"gate:{last}")
            elif last in QISKIT_BACKENDS or re.match(r"^Fake[A-Z]\w*$", last):
                keys.add(f"backend:{last}")
        keys.update(f"backend:{m}" for m in _BACKEND_NAME.findall(src))
        keys.update(f"method:{m}" for m in _METHOD_KW.findall(src))
        return keys
    modules, names = pennylane_aliases(src)
    for i, (kind, text) in enumerate(toks):
        if kind != "d":
            continue
        path = canonical_pennylane(_WS.sub("", text), modules, names)
        if path is None:
            continue
        if path.endswith(".device") and i + 2 < len(toks) and toks[i + 1][1] == "(":
            kind2, arg = toks[i + 2]
            if kind2 == "s":
                keys.add("device:" + arg.lstrip("rbuRBUfF").strip("'\""))
        elif _is_pl_key(path):
            keys.add("qml." + path.rsplit(".", 1)[-1])
    return keys


_QISKIT_CODE = re.compile(r"^\s*(?:from|import)\s+qiskit\b|\bQuantumCircuit\s*\(", re.M)
_PENNYLANE_CODE = re.compile(r"^\s*(?:from|import)\s+pennylane\b|\bqml\s*\.", re.M)


def looks_like(src: str) -> str | None:
    """``"qiskit"`` or ``"pennylane"`` when the code plainly uses one of them (and not the
    other), else None: used to warn when ``lang`` does not match the code."""
    q, p = bool(_QISKIT_CODE.search(src)), bool(_PENNYLANE_CODE.search(src))
    if q != p:
        return "qiskit" if q else "pennylane"
    return None


def jaccard(a: set[str], b: set[str]) -> float:
    """|a & b| / |a | b|, with J(empty, empty) = 1 (identical, nothing quantum to disagree on).

    >>> jaccard(set(), set()), jaccard({"qml.RX"}, set()), jaccard({"a", "b"}, {"b"})
    (1.0, 0.0, 0.5)
    """
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)
