"""The hallucination check against the shipped PennyLane API index."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from quantum_codegen_eval.metrics.hallucination import (
    CodeParseError,
    find_hallucinations,
    hallucination_rate,
    index_versions,
    load_index,
    resolve_target,
)

CODE = textwrap.dedent("""\
    import pennylane as qml
    from pennylane import numpy as np
    from pennylane.templates import StronglyEntanglingLayers
    from pennylane import QubitStateVector as QSV
    import pennylane

    dev = qml.device("default.qubit", wires=2)

    @qml.qnode(dev)
    def circuit(x):
        qml.QubitStateVector(np.array([1, 0]), wires=0)
        qml.RX.compute_matrix(x)
        qml.RX.no_such_attribute
        QSV([1, 0], wires=1)
        StronglyEntanglingLayers.shape(n_layers=1, n_wires=2)
        pennylane.transforms.compile
        qml.StatePrep([1, 0], wires=0)
        qml.math.sin(x)
        qml.QuantumMagicGate(wires=0)
        return qml.expval(qml.PauliZ(0))
    """)


def by_name(findings):
    return {(f.name, f.line): f for f in findings}


def test_statuses_on_current_release():
    found = by_name(find_hallucinations(CODE))
    target = index_versions()[-1]
    assert all(f.target == target for f in found.values())
    expect = {
        ("pennylane.numpy", 2): "ok",
        ("pennylane.templates", 3): "ok",
        ("pennylane.templates.StronglyEntanglingLayers", 3): "ok",
        ("pennylane.QubitStateVector", 4): "removed",
        ("qml.device", 7): "ok",
        ("default.qubit", 7): "ok",
        ("qml.qnode", 9): "ok",
        ("qml.QubitStateVector", 11): "removed",
        ("np.array", 11): "ok",
        ("qml.RX.compute_matrix", 12): "ok",
        ("qml.RX.no_such_attribute", 13): "hallucinated",
        ("QSV", 14): "removed",
        ("StronglyEntanglingLayers.shape", 15): "ok",
        ("pennylane.transforms.compile", 16): "ok",
        ("qml.StatePrep", 17): "ok",
        ("qml.math.sin", 18): "ok",
        ("qml.QuantumMagicGate", 19): "hallucinated",
        ("qml.expval", 20): "ok",
        ("qml.PauliZ", 20): "ok",
    }
    assert {k: f.status for k, f in found.items()} == expect
    assert found[("QSV", 14)].path == "pennylane.QubitStateVector"
    assert found[("np.array", 11)].path == "pennylane.numpy.array"
    assert found[("StronglyEntanglingLayers.shape", 15)].path == (
        "pennylane.templates.StronglyEntanglingLayers.shape")
    assert "0.21.0" in found[("qml.QubitStateVector", 11)].versions
    assert found[("qml.QuantumMagicGate", 19)].versions == ()


def test_statuses_on_old_release():
    found = by_name(find_hallucinations(CODE, "0.21"))
    assert found[("qml.QubitStateVector", 11)].status == "ok"
    assert found[("qml.StatePrep", 17)].status == "too_new"
    assert found[("qml.QuantumMagicGate", 19)].status == "hallucinated"
    assert found[("qml.RX.compute_matrix", 12)].status == "too_new"  # added in 0.22
    assert {f.target for f in found.values()} == {"0.21.0"}


def test_alias_forms():
    code = textwrap.dedent("""\
        import pennylane as pl
        import pennylane.numpy as pnp
        from pennylane import Hadamard as H, CNOT
        pl.QubitStateVector([1, 0], wires=0)
        pnp.tensor
        H(wires=0); CNOT(wires=[0, 1])
        other.QubitStateVector
        """)
    got = [(f.name, f.path, f.line, f.status) for f in find_hallucinations(code, "0.45")]
    assert got == [
        ("pennylane.numpy", "pennylane.numpy", 2, "ok"),
        ("pennylane.Hadamard", "pennylane.Hadamard", 3, "ok"),
        ("pennylane.CNOT", "pennylane.CNOT", 3, "ok"),
        ("pl.QubitStateVector", "pennylane.QubitStateVector", 4, "removed"),
        ("pnp.tensor", "pennylane.numpy.tensor", 5, "ok"),
        ("H", "pennylane.Hadamard", 6, "ok"),
        ("CNOT", "pennylane.CNOT", 6, "ok"),
    ]
    assert find_hallucinations("import numpy as np\nnp.foo()\n").findings == ()
    # a bare qml is PennyLane (the community convention) unless something else binds it
    bare = find_hallucinations("qml.Hadamard(0)\nqml.NotImported\n", "0.45")
    assert [(f.path, f.status) for f in bare] == [("pennylane.Hadamard", "ok"),
                                                  ("pennylane.NotImported", "hallucinated")]
    for binding in ("import mylib as qml\n", "qml = object()\n", "def f(qml):\n    pass\n",
                    "from mylib import qml\n", "class qml:\n    pass\n"):
        assert not find_hallucinations(binding + "qml.NotImported\n"), binding
    bad_import = find_hallucinations("from pennylane import MagicGate\n")
    assert [(f.path, f.status) for f in bad_import] == [("pennylane.MagicGate", "hallucinated")]


def test_unparsable_code_is_reported_not_clean():
    with pytest.raises(CodeParseError, match="line 2") as info:
        find_hallucinations("import pennylane as qml\ndef f(:\n    qml.Fake()\n")
    assert info.value.line == 2


def test_hallucination_rate_and_unparsable_policy():
    codes = ["import pennylane as qml\nqml.Hadamard(0)",
             "import pennylane as qml\nqml.Hadamrd(0)",
             "import pennylane as qml\nqml.QubitStateVector([1, 0], wires=0)",
             "def f(:"]
    r = hallucination_rate(codes, "0.45")
    assert (r.rate, r.n_checked, r.n_unparsable, r.n_removed) == (1 / 3, 3, 1, 1)
    assert r.per_solution == ("clean", "hallucinated", "clean", "unparsable")
    assert hallucination_rate(codes, unparsable="hallucinated").rate == 0.5
    assert hallucination_rate(codes, unparsable="clean").rate == 0.25
    broken = codes + ["import pennylane as qml\ndef f(:\n    qml.Hadamrd(0)\n"]
    recovered = hallucination_rate(broken, "0.45", unparsable="recover")
    assert recovered.per_solution[-2:] == ("clean", "hallucinated")  # "def f(:" has no refs
    assert (recovered.n_unparsable, recovered.n_checked, recovered.rate) == (2, 5, 2 / 5)
    assert "pennylane:0.45.1|unparsable:exclude" in r.signature
    with pytest.raises(ValueError, match="unparsable"):
        hallucination_rate(codes, unparsable="skip")
    with pytest.raises(TypeError, match="solution 1 is a bytes"):
        hallucination_rate(["x = 1", b"import pennylane"])


def test_target_resolution():
    versions = index_versions()
    assert versions[resolve_target(None)] == versions[-1]
    assert versions[resolve_target("0.45")] == "0.45.1"
    assert versions[resolve_target("0.34.0")] == "0.34.0"
    assert versions[resolve_target("0.29")] == "0.28.0"
    with pytest.raises(ValueError, match="older than the oldest indexed release"):
        resolve_target("0.20")


def test_shipped_index_records_how_it_was_built():
    index = load_index()
    assert {"0.21.0", "0.28.0", "0.34.0", "0.45.1"} <= set(index["versions"])
    assert index["versions"] == sorted(index["versions"], key=lambda v: tuple(map(int, v.split("."))))
    assert set(index["built_with"]["environments"]) == set(index["versions"])
    assert "pennylane_api_index" in index["built_with"]["builder"]


def test_check_runs_without_pennylane():
    probe = ("import sys; sys.modules['pennylane'] = None\n"
             "from quantum_codegen_eval.metrics.hallucination import find_hallucinations\n"
             "print([f.status for f in find_hallucinations('import pennylane as q\\nq.RX, q.Nope')])")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['ok', 'hallucinated']"


@pytest.mark.slow  # walks the installed PennyLane API in a fresh interpreter
def test_rebuilding_current_release_gives_the_shipped_names():
    pennylane = pytest.importorskip("pennylane")
    from quantum_codegen_eval.loaders import pennylane_api_index as builder

    index = load_index()
    if pennylane.__version__ not in index["versions"]:
        pytest.fail(f"installed PennyLane {pennylane.__version__} is not in the shipped index "
                    f"{index['versions']}: rebuild it (docs/metrics/hallucination.md)")
    walked = builder.walk_in(sys.executable)  # a fresh interpreter: no imports from other tests
    shipped = builder.names_of(index, pennylane.__version__)
    fresh = set(walked["names"]) | {"pennylane"}
    assert not (fresh - shipped) and not (shipped - fresh), (
        f"missing from the shipped index: {sorted(fresh - shipped)[:10]}; "
        f"not found on rebuild: {sorted(shipped - fresh)[:10]}")


def _synthetic_index():
    """Three made-up releases: RX moves home, Old disappears, New appears, math forwards."""
    from quantum_codegen_eval.loaders.pennylane_api_index import combine

    def walk(version, names, aliases=(), fallback=False):
        return {"version": version, "names": dict(names), "aliases": dict(aliases),
                "external": {"numpy": ["sin", "cos"]},
                "fallbacks": {"pennylane.math": "ext:numpy"} if fallback else {}, "errors": []}

    base = {"pennylane.ops": "module", "pennylane.math": "module", "pennylane.np": "external"}
    w1 = walk("1.0.0", {**base, "pennylane.ops.RX": "class", "pennylane.ops.RX.matrix": "attr",
                        "pennylane.RX": "class", "pennylane.Old": "other"},
              {"pennylane.RX": "pennylane.ops.RX", "pennylane.np": "ext:numpy"})
    w2 = walk("2.0.0", {**base, "pennylane.RX": "class", "pennylane.RX.matrix": "attr",
                        "pennylane.RX.decomp": "attr", "pennylane.ops.RX": "class",
                        "pennylane.New": "class", "pennylane.New.run": "attr"},
              {"pennylane.ops.RX": "pennylane.RX", "pennylane.np": "ext:numpy"}, fallback=True)
    w3 = walk("3.0.0", {**base, "pennylane.New": "class"}, {"pennylane.np": "ext:numpy"})
    return combine([w3, w1, w2], {"builder": "test"})


def test_resolution_on_a_synthetic_index():
    from quantum_codegen_eval.loaders.pennylane_api_index import names_of

    index = _synthetic_index()
    assert index["versions"] == ["1.0.0", "2.0.0", "3.0.0"]  # sorted, whatever the input order
    assert "pennylane.RX.decomp" in names_of(index, "2.0.0")
    code = ("import pennylane as qml\n"
            "qml.RX.matrix; qml.ops.RX.matrix; qml.RX.decomp; qml.Old; qml.New.run\n"
            "qml.np.sin; qml.np.tan; qml.math.cos; qml.math.tan; qml.Nope\n")

    def statuses(version):
        return {f.name: (f.status, f.versions)
                for f in find_hallucinations(code, version, index=index)}

    v1, v2, v3 = statuses("1"), statuses("2"), statuses("3")
    # qml.RX.matrix: an alias in 1.0 (home ops.RX), the home in 2.0, gone in 3.0
    assert v1["qml.RX.matrix"] == ("ok", ("1.0.0", "2.0.0"))
    assert v1["qml.ops.RX.matrix"] == ("ok", ("1.0.0", "2.0.0"))
    assert v3["qml.RX.matrix"][0] == "removed"
    assert v1["qml.RX.decomp"][0] == "too_new" and v2["qml.RX.decomp"][0] == "ok"
    assert v2["qml.Old"][0] == "removed" and v1["qml.Old"][0] == "ok"
    assert v1["qml.New.run"][0] == "too_new" and v3["qml.New.run"][0] == "removed"
    assert v1["qml.np.sin"][0] == "ok" and v1["qml.np.tan"][0] == "hallucinated"
    # the numpy fallback of pennylane.math exists in 2.0.0 only
    assert v2["qml.math.cos"][0] == "ok" and v1["qml.math.cos"][0] == "too_new"
    assert v2["qml.math.tan"][0] == "hallucinated"
    assert v2["qml.Nope"] == ("hallucinated", ())


def test_lazy_private_and_optional_dependency_names_are_not_hallucinations():
    code = textwrap.dedent("""\
        import pennylane as qml
        qml.qnn.TorchLayer
        qml.qnn.KerasLayer
        qml.RX._private_helper
        qml._no_such_private
        qml.labs.dla
        qml.labs.no_such_thing
        """)
    found = {f.name: (f.status, f.note) for f in find_hallucinations(code, "0.45")}
    assert found["qml.qnn.TorchLayer"] == ("ok", "lazy")  # class_map of qml.qnn, needs torch
    assert found["qml.qnn.KerasLayer"][0] == "removed"  # real in earlier releases, gone in 0.45
    assert found["qml.RX._private_helper"] == ("private", "")  # below a class: not listed
    assert found["qml._no_such_private"][0] == "hallucinated"  # module privates are listed
    assert found["qml.labs.dla"] == ("ok", "extras")  # qml.labs needs jax: import fails
    assert found["qml.labs.no_such_thing"][0] == "hallucinated"
    old = {f.name: (f.status, f.note) for f in find_hallucinations(code, "0.34")}
    assert old["qml.qnn.KerasLayer"] == ("ok", "lazy")
    real_private = find_hallucinations("import pennylane as qml\nqml.math._multi_dispatch\n", "0.21")
    assert real_private[0].status == "private"


def test_device_names_for_every_indexed_release():
    index = load_index()
    devices = index["supplement"]["devices"]
    for bit, version in enumerate(index_versions()):
        shipped = {d for d, mask in devices.items() if mask >> bit & 1}
        assert {"default.qubit", "default.mixed", "lightning.qubit"} <= shipped, version
        code = ("import pennylane as qml\n"
                + "".join(f"qml.device({d!r}, wires=1)\n" for d in sorted(shipped))
                + "qml.device('default.qubits', wires=1)\nqml.device('lightning.qbit', wires=1)\n")
        statuses = {f.name: f.status for f in find_hallucinations(code, version)
                    if f.path.startswith("device:")}
        assert all(statuses[d] == "ok" for d in shipped), version
        assert statuses["default.qubits"] == statuses["lightning.qbit"] == "hallucinated"
    old = {f.name: f.status for f in find_hallucinations(
        "qml.device('default.qubit.autograd', wires=1)\nqml.device('default.tensor', wires=1)",
        "0.45")}
    assert old == {"qml.device": "ok", "default.qubit.autograd": "removed",
                   "default.tensor": "ok"}
    plugin = find_hallucinations("qml.device('qiskit.aer', wires=2)", devices=["qiskit.*"])
    assert [(f.name, f.status, f.note) for f in plugin][1] == ("qiskit.aer", "ok", "plugin")
    assert find_hallucinations("qml.device('qiskit.aer', wires=2)")[1].status == "hallucinated"


def test_references_recovered_from_code_that_does_not_parse():
    code = textwrap.dedent("""\
        import pennylane as qml
        dev = qml.device("default.qubits", wires=2)
        def circuit(x:
            qml.RX(x, wires=0)
            qml.FancyGate(wires=[0, 1])
            return qml.expval(qml.PauliZ(0))
        """)
    with pytest.raises(CodeParseError):
        find_hallucinations(code)
    found = find_hallucinations(code, "0.45", recover=True)
    got = {(f.name, f.status) for f in found}
    assert {("qml.device", "ok"), ("default.qubits", "hallucinated"), ("qml.RX", "ok"),
            ("qml.FancyGate", "hallucinated"), ("qml.expval", "ok"), ("qml.PauliZ", "ok")} <= got
    assert all(f.recovered for f in found)
    assert not any(f.recovered for f in find_hallucinations("import pennylane as qml\nqml.RX"))


@pytest.mark.slow  # walks the installed PennyLane API in a fresh interpreter
def test_rescanning_the_installed_release_gives_the_shipped_supplement():
    """What this checks: the static scan (lazy names, modules whose import fails, private
    names, devices) of the installed PennyLane equals the shipped supplement's bit for that
    release. It does not re-scan the other releases (their wheels; see the metric card)."""
    pennylane = pytest.importorskip("pennylane")
    from quantum_codegen_eval.loaders import pennylane_api_index as builder

    index = dict(load_index())
    version = pennylane.__version__
    if version not in index["versions"]:
        pytest.fail(f"installed PennyLane {version} is not in the shipped index")
    bit = index["versions"].index(version)
    fresh = builder.combine_supplement(index, [builder.scan_release(version)])

    def names(sup, b):
        out, stack = set(), [("pennylane", sup["tree"])]
        while stack:
            prefix, children = stack.pop()
            for k, node in children.items():
                if node[0] >> b & 1:
                    out.add((f"{prefix}.{k}", node[1]))
                if len(node) > 2:
                    stack.append((f"{prefix}.{k}", node[2]))
        return out, {d for d, m in sup["devices"].items() if m >> b & 1}

    assert names(fresh, bit) == names(index["supplement"], bit)
    assert len(names(fresh, bit)[0]) > 1000
