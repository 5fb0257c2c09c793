"""Docstring example extraction and near-duplicate normalisation (pure, no sandbox)."""

from __future__ import annotations

import inspect

from quantum_codegen_eval.loaders.pennysynth import (
    _self_contained,
    cluster_key,
    docstring_examples,
    normalise,
)

BASE = '''
dev = qml.device("default.qubit", wires=2)

@qml.qnode(dev)
def circuit(x):
    qml.RX(x, wires=0)
    qml.CNOT(wires=[0, 1])
    return qml.expval(qml.PauliZ(1))

print(circuit(0.5))
'''

SAME = '''
device=qml.device('lightning.qubit',wires=2)   # another device name, a comment
@qml.qnode(device)
def my_circ(angle):
    """A docstring."""
    qml.RX(angle,wires=0)
    qml.CNOT(wires=[0,1])
    return qml.expval(qml.PauliZ(1))
print(my_circ(1.25))
'''


def test_renamed_reformatted_copy_is_a_duplicate():
    assert normalise(BASE) == normalise(SAME)
    assert cluster_key(BASE) == cluster_key(SAME)
    assert "pennylane.RX" in normalise(BASE) and "wires=[0, 1]" in normalise(BASE)
    aliased = "import pennylane as qp\n" + SAME.replace("qml.", "qp.")
    assert cluster_key("import pennylane as qml\n" + BASE) == cluster_key(aliased)


def test_near_duplicates_with_different_circuits_stay_distinct():
    variants = {
        "other gate": BASE.replace("qml.RX", "qml.RY"),
        "swapped wires": BASE.replace("wires=[0, 1]", "wires=[1, 0]"),
        "other wire": BASE.replace("qml.RX(x, wires=0)", "qml.RX(x, wires=1)"),
        "gate order": BASE.replace("    qml.RX(x, wires=0)\n    qml.CNOT(wires=[0, 1])",
                                   "    qml.CNOT(wires=[0, 1])\n    qml.RX(x, wires=0)"),
        "extra gate": BASE.replace("    qml.CNOT", "    qml.Hadamard(wires=1)\n    qml.CNOT"),
        "other observable": BASE.replace("qml.PauliZ(1)", "qml.PauliX(1)"),
        "more wires": BASE.replace("wires=2)", "wires=3)"),
    }
    keys = {name: cluster_key(code) for name, code in variants.items()}
    keys["base"] = cluster_key(BASE)
    assert len(set(keys.values())) == len(keys), keys


def test_imported_names_are_kept():
    a = "from pennylane import RX\nRX(0.1, wires=0)\n"
    b = "from pennylane import RY\nRY(0.1, wires=0)\n"
    assert cluster_key(a) != cluster_key(b)
    assert cluster_key("import numpy as np\nnp.sin(1)") != cluster_key(
        "import numpy as np\nnp.cos(1)")
    assert cluster_key("import numpy as np\nnp.sin(1)") != cluster_key("import math\nmath.sin(1)")
    assert normalise("x = 1\ny = x + 1") == normalise("a = 1\nb = a + 1")
    assert normalise("x = 1\ny = x + 1") != normalise("x = 1\ny = 1 + 1")


DOC = inspect.cleandoc('''Apply a rotation.

    The circuit below uses it:

    .. code-block:: python

        dev = qml.device("default.qubit", wires=1)

        @qml.qnode(dev)
        def circuit(x):
            qml.RX(x, wires=0)
            return qml.expval(qml.PauliZ(0))

    We can evaluate it:

    >>> circuit(0.1)
    np.float64(0.995...)
    >>> for i in range(2):
    ...     print(i)
    0
    1
    >>> qml.RX(0.1, wires="a").foo
    Traceback (most recent call last):
    AttributeError: ...

    .. code-block:: text

        not python
''')


def test_docstring_examples_and_dependencies():
    examples = docstring_examples(DOC)
    assert [prose for prose, _ in examples] == ["The circuit below uses it:", "We can evaluate it:"]
    first, second = (code for _, code in examples)
    assert first.startswith('dev = qml.device("default.qubit", wires=1)')
    assert second == "circuit(0.1)\nfor i in range(2):\n    print(i)\n"  # outputs and raises dropped
    blocks = [first, second]
    assert _self_contained(blocks, 0).startswith("import pennylane as qml\n\ndev =")
    program = _self_contained(blocks, 1)
    assert program.startswith("import pennylane as qml\n\ndev =") and program.endswith(second)
    exec(compile(program, "example", "exec"), {})  # the made-up example really runs
