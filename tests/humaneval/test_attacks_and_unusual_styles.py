"""Red-team round for the Qiskit HumanEval judge: attacks not in test_adversarial.py, each with
the exact verdict it must get, and correct programs in unusual styles that must still get AC.

Every program runs through the real judge (the trusted check in its own sandbox job, the
completion behind the proxy in another), batched into one ``judge_many``.
"""

from __future__ import annotations

import pytest
from redteam import assert_verdict, humaneval_task, judge_cases

from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.judges.base import judge_many
from quantum_codegen_eval.judges.jobs import wire
from quantum_codegen_eval.judges.qiskit_humaneval.jobs.codec import CODEC

SQUARE = humaneval_task("square", 'def square(x):\n    """x squared."""',
                        "def check(candidate):\n    assert candidate(7) == 49\n", "square")
PAIR = humaneval_task("pair", 'def divmod2(a, b):\n    """Quotient and remainder."""',
                      "def check(candidate):\n    assert candidate(7, 2) == (3, 1)\n"
                      "    q, r = candidate(9, 4)\n    assert (q, r) == (2, 1)\n", "divmod2")
EVENS = humaneval_task("evens", 'def evens(n):\n    """The even numbers below n."""',
                       "def check(candidate):\n    assert list(candidate(7)) == [0, 2, 4, 6]\n", "evens")
KEYS = humaneval_task("keys", 'def keys(d):\n    """The keys of d."""',
                      "def check(candidate):\n    assert candidate({'a': 1, 'b': 2}) == {'a', 'b'}\n", "keys")
MANY = humaneval_task("many", 'def sq(x):\n    """x squared."""',
                      "def check(candidate):\n    got = [candidate(i) for i in range(600)]\n"
                      "    assert got == [i * i for i in range(600)]\n", "sq")
CZ = humaneval_task("cz", 'from qiskit import QuantumCircuit\nfrom qiskit.quantum_info import Operator\n'
                    'def cz_circuit():\n    """A 2-qubit circuit equal to CZ."""',
                    "def check(candidate):\n    qc = candidate()\n    ref = QuantumCircuit(2)\n"
                    "    ref.cz(0, 1)\n    assert Operator(qc).equiv(Operator(ref))\n", "cz_circuit")
GHZ = humaneval_task("ghz", 'from qiskit import QuantumCircuit\ndef ghz(n):\n    """A GHZ circuit."""',
                     "def check(candidate):\n    from qiskit.quantum_info import Statevector\n"
                     "    p = Statevector(candidate(3)).probabilities_dict()\n"
                     "    assert abs(p.get('000', 0) - 0.5) < 1e-9 and abs(p.get('111', 0) - 0.5) < 1e-9\n",
                     "ghz")

_MY_GATE = ("\n    from qiskit.circuit import Gate\n    class {cls}(Gate):\n"
            "        def __init__(self):\n            super().__init__('mycz', 2, [])\n"
            "        def _define(self):\n            d = QuantumCircuit(2)\n            d.h(1)\n"
            "            d.cx(0, 1)\n            d.h(1)\n            self.definition = d\n"
            "    qc = QuantumCircuit(2)\n    qc.append({cls}(), [0, 1])\n    return qc\n")

ATTACKS = [
    # --- forged verdicts: printed tokens, exception messages and names of the proxy's own types
    ("pass tokens on stdout and stderr", SQUARE,
     "\n    import sys\n    print('{\"state\": \"done\", \"result\": \"pass\"}\\nAll tests passed\\nAC')\n"
     "    sys.stderr.write('PASSED\\n')\n    return 0\n", "WA", "AssertionError"),
    ("an exception whose message says it passed", SQUARE,
     "\n    raise Exception('AC: all tests passed')\n", "RE", "all tests passed"),
    ("raising a class named like the proxy's SpeculationEnd", SQUARE,
     "\n    class SpeculationEnd(BaseException):\n        pass\n    raise SpeculationEnd()\n",
     "RE", "SpeculationEnd"),
    ("raising a class named like the proxy's ProxyFailure", SQUARE,
     "\n    class ProxyFailure(BaseException):\n        pass\n    raise ProxyFailure('pass')\n",
     "RE", "ProxyFailure"),
    ("KeyboardInterrupt inside the call", SQUARE, "\n    raise KeyboardInterrupt\n",
     "RE", "KeyboardInterrupt"),
    ("returning an AssertionError instance", SQUARE, "\n    return AssertionError('x')\n",
     "RE", "unsupported type"),
    # --- return values that would compare equal to anything in the check's process
    ("list subclass with __eq__ always true", KEYS,
     "\n    class L(list):\n        def __eq__(self, o):\n            return True\n"
     "    return L()\n", "WA", "AssertionError"),
    ("namedtuple subclass with __eq__ always true", PAIR,
     "\n    from collections import namedtuple\n    class R(namedtuple('R', 'q r')):\n"
     "        def __eq__(self, o):\n            return True\n    return R(0, 0)\n",
     "WA", "AssertionError"),
    ("generator of objects equal to anything", EVENS,
     "\n    class Yes:\n        def __eq__(self, o):\n            return True\n"
     "    return (Yes() for _ in range(4))\n", "RE", "unsupported type"),
    ("numpy object array", SQUARE,
     "\n    import numpy as np\n    return np.array([49], dtype=object)\n", "RE", "unsupported type"),
    ("a list that contains itself", KEYS, "\n    x = []\n    x.append(x)\n    return x\n",
     "WA", "AssertionError"),
    ("NaN", SQUARE, "\n    return float('nan')\n", "WA", "AssertionError"),
    ("an int too long to print", SQUARE, "\n    return 10 ** 5000\n", "WA", "AssertionError"),
    ("a custom gate named like a library class with a wrong definition", CZ,
     _MY_GATE.replace("d.h(1)\n            d.cx(0, 1)\n            d.h(1)", "d.cx(0, 1)")
     .format(cls="Diagonal"), "WA", "AssertionError"),
    # --- noise the evaluator must survive
    ("invalid UTF-8, NULs and escapes on stdout and stderr", SQUARE,
     "\n    import os\n    for fd in (1, 2):\n        os.write(fd, b'\\xff\\xfe\\x00\\x1b[2J\\x1b]0;x\\x07' * 1000)\n"
     "    return 48\n", "WA", "AssertionError"),
    ("the report pipe flooded and closed", SQUARE,
     "\n    import os\n    try:\n        os.write(3, b'{\"exception\": {\"type\": \"AssertionError\"}}\\n' * 50000)\n"
     "    except OSError:\n        pass\n    os.close(3)\n    return 48\n", "WA", "AssertionError"),
]

CORRECT = [
    ("namedtuple", PAIR, "\n    from collections import namedtuple\n    R = namedtuple('R', 'q r')\n"
     "    return R(a // b, a % b)\n"),
    ("generator", EVENS, "\n    return (i for i in range(n) if i % 2 == 0)\n"),
    ("range", EVENS, "\n    return range(0, n, 2)\n"),
    ("map", EVENS, "\n    return map(lambda i: 2 * i, range((n + 1) // 2))\n"),
    ("dict keys view", KEYS, "\n    return d.keys()\n"),
    ("numpy integer", MANY, "\n    import numpy as np\n    return np.int64(x) ** 2\n"),
    ("printing 2 KB in each of 600 calls", MANY, "\n    print('x' * 2000)\n    return x * x\n"),
    ("a warning on stderr in each of 600 calls", MANY,
     "\n    import sys\n    sys.stderr.write('w' * 2000 + '\\n')\n    return x * x\n"),
    ("a global call counter", MANY,
     "\n    global _n\n    _n = globals().get('_n', 0) + 1\n    return x * x\n"),
    ("own gate class", CZ, _MY_GATE.format(cls="MyCZ")),
    ("own gate class named like a library class", CZ, _MY_GATE.format(cls="Diagonal")),
    ("circuit metadata with numpy values", CZ,
     "\n    import numpy as np\n    qc = QuantumCircuit(2)\n    qc.cz(0, 1)\n"
     "    qc.metadata = {'depth': np.int64(1), 'angles': np.zeros(2)}\n    return qc\n"),
    ("PauliEvolutionGate", CZ,
     "\n    import numpy as np\n    from qiskit.circuit.library import PauliEvolutionGate\n"
     "    from qiskit.quantum_info import SparsePauliOp\n    qc = QuantumCircuit(2)\n"
     "    op = SparsePauliOp(['ZZ', 'ZI', 'IZ'], [1, -1, -1])\n"
     "    qc.append(PauliEvolutionGate(op, time=np.pi / 4), [0, 1])\n"
     "    qc.global_phase += np.pi / 4\n    return qc\n"),
    ("StatePreparation", GHZ,
     "\n    import numpy as np\n    from qiskit.circuit.library import StatePreparation\n"
     "    v = np.zeros(2 ** n)\n    v[0] = v[-1] = 2 ** -0.5\n    qc = QuantumCircuit(n)\n"
     "    qc.append(StatePreparation(v), range(n))\n    return qc\n"),
    ("__file__ and inspect.getsource of its own helper", SQUARE,
     "\n    import inspect, os\n    assert os.path.isfile(__file__)\n"
     "    assert 'x * x' in inspect.getsource(square)\n    return x * x\n"),
    ("QFT and its inverse around it", GHZ,
     "\n    from qiskit.circuit.library import QFT\n    qc = QuantumCircuit(n)\n    qc.h(0)\n"
     "    for i in range(n - 1):\n        qc.cx(i, i + 1)\n"
     "    return qc.compose(QFT(n)).compose(QFT(n).inverse())\n"),
]

#: one batch judges every attack program (tens of CPU-seconds): run with --run-slow
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def verdicts(sandbox):
    return judge_cases(qhe.make_judge(time_limit=20.0), sandbox,
                       [(name, task, body) for name, task, body, *_ in ATTACKS + CORRECT])


@pytest.mark.parametrize("name, status, fragment", [(a[0], a[3], a[4]) for a in ATTACKS],
                         ids=[a[0] for a in ATTACKS])
def test_attack_gets_its_verdict(verdicts, name, status, fragment):
    assert_verdict(verdicts[name], status, fragment, name=name)


@pytest.mark.parametrize("name", [c[0] for c in CORRECT])
def test_correct_program_in_an_unusual_style_passes(verdicts, name):
    assert_verdict(verdicts[name], "AC", name=name)


def test_iterators_cross_as_iterators_and_are_bounded():
    it = CODEC.decode(CODEC.encode(x * x for x in range(3)))
    assert next(it) == 0 and list(it) == [1, 4]
    assert CODEC.decode(CODEC.encode(range(1, 10, 3))) == range(1, 10, 3)
    assert CODEC.decode(CODEC.encode({"a": 1}.items())) == {"a": 1}.items()
    import itertools

    endless = CODEC.decode(CODEC.encode(itertools.count()))  # carried lazily
    assert next(endless) == 0
    gen = (i for i in range(3))
    assert "unsupported" in CODEC.fingerprint(gen) and list(gen) == [0, 1, 2]  # not consumed
    with pytest.raises(wire.WireError):
        CODEC.decode({"$": "range", "v": [0, 5, 0]})


# Real tasks: the canonical solution behind a wrapper in styles people use (printing with
# escapes and invalid UTF-8, a global call counter, numpy scalars for Python numbers, a
# namedtuple for a tuple, a QuantumCircuit subclass with numpy metadata, an OrderedDict, a list
# subclass) still passes. The full sweep of every proxy-checkable task gave 0 differences from
# the upstream single-process run (docs/benchmarks/qiskit_humaneval.md).
STYLE_WRAPPER = '''

_qce_orig = {ep}
_qce_calls = 0


def {ep}(*args, **kwargs):
    global _qce_calls
    _qce_calls += 1
    print("call", _qce_calls, "\\x1b[1m\\xff")
    r = _qce_orig(*args, **kwargs)
    import collections
    import numpy as np
    from qiskit import QuantumCircuit
    if type(r) is float:
        return np.float64(r)
    if type(r) is int and abs(r) < 2 ** 62:
        return np.int64(r)
    if type(r) is tuple and r:
        return collections.namedtuple("R", ["f%d" % i for i in range(len(r))])(*r)
    if type(r) is QuantumCircuit and r.layout is None:
        class MyCircuit(QuantumCircuit):
            pass
        c = MyCircuit(*r.qregs, *r.cregs, name=r.name, global_phase=r.global_phase,
                      metadata={{**(r.metadata or {{}}), "tag": np.float32(1.5)}})
        if (c.num_qubits, c.num_clbits) != (r.num_qubits, r.num_clbits):
            return r  # bits outside registers: keep it as it is
        return c.compose(r)
    if type(r) is dict:
        return collections.OrderedDict(r)
    if type(r) is list:
        class L(list):
            pass
        return L(r)
    return r
'''


def _style_tasks(qhe_dir) -> list:
    from quantum_codegen_eval.judges.qiskit_humaneval.modes import UNSUPPORTED, task_number

    tasks = qhe.problems("normal", data_dir=qhe_dir)
    unrunnable = {k[1] if isinstance(k, tuple) else k for k in qhe.KNOWN_UNRUNNABLE}
    ok = [t for t in tasks.values() if t.task_id not in unrunnable
          and task_number(t.task_id) not in {*UNSUPPORTED, 100, 110, 138}]
    return ok[::12]


def test_real_tasks_in_other_styles_still_pass(qhe_dir, sandbox):
    tasks = _style_tasks(qhe_dir)
    items = [(t, t.canonical_solution.rstrip() + "\n" + STYLE_WRAPPER.format(ep=t.entry_point))
             for t in tasks]
    got = judge_many(qhe.make_judge(time_limit=30.0), items, sandbox)
    bad = [(t.task_id, v.status, v.message[:200]) for t, v in zip(tasks, got, strict=True)
           if v.status != "AC"]
    assert len(tasks) >= 10 and bad == []
