"""Red-team round on the routes issue 17 opened: values that used to fall into judge errors (or
``RE``) and the blame by origin. Each attack has its exact verdict; the correct programs in
unusual styles (gates QPY could not read back, deep definitions, 0-d arrays, a stub quoted in a
string) must get ``AC``. Everything runs through the real judge, batched in one ``judge_many``.
"""

from __future__ import annotations

import pytest
from redteam import assert_verdict, humaneval_task, judge_cases

from quantum_codegen_eval.benchmarks import qiskit_humaneval as qhe
from quantum_codegen_eval.verdict import with_error_class

SQUARE = humaneval_task("square", 'def square(x):\n    """x squared."""',
                        "def check(candidate):\n    assert candidate(7) == 49\n", "square")
EVENS = humaneval_task("evens", 'def evens(n):\n    """The even numbers below n, in order."""',
                       "def check(candidate):\n    assert list(candidate(7)) == [0, 2, 4, 6]\n", "evens")
FIRST = humaneval_task("first", 'def naturals():\n    """All natural numbers, lazily."""',
                       "def check(candidate):\n    it = iter(candidate())\n"
                       "    assert [next(it) for _ in range(5)] == [0, 1, 2, 3, 4]\n", "naturals")
CZ = humaneval_task("cz", 'from qiskit import QuantumCircuit\nfrom qiskit.quantum_info import Operator\n'
                    'def cz_circuit():\n    """A 2-qubit circuit equal to CZ."""',
                    "def check(candidate):\n    qc = candidate()\n    ref = QuantumCircuit(2)\n"
                    "    ref.cz(0, 1)\n    assert Operator(qc).equiv(Operator(ref))\n", "cz_circuit")
CCZ = humaneval_task("ccz", 'from qiskit import QuantumCircuit\nfrom qiskit.quantum_info import Operator\n'
                     'def ccz_circuit():\n    """A 3-qubit circuit equal to CCZ."""',
                     "def check(candidate):\n    qc = candidate()\n    ref = QuantumCircuit(3)\n"
                     "    ref.ccz(0, 1, 2)\n    assert Operator(qc).equiv(Operator(ref))\n", "ccz_circuit")
CHAIN = humaneval_task("chain", 'def inc(x):\n    """x plus one."""',
                       "def check(candidate):\n    assert candidate(candidate(1)) == 3\n", "inc")
NESTED = humaneval_task("nested", 'def nested():\n    """[[1]] (a list holding a list holding 1)."""',
                        "def check(candidate):\n    assert candidate() == [[1]]\n", "nested")

#: CZ as an open-controlled Z between X gates, the controlled gate labelled (QPY could not
#: read a labelled open-control gate back: a judge error before)
_OPEN_CZ = ("\n    from qiskit.circuit.library import ZGate\n    qc = QuantumCircuit(2)\n    qc.x(0)\n"
            "    qc.append(ZGate().control(1, ctrl_state={state}, label='open'), [0, 1])\n"
            "    qc.x(0)\n    return qc\n")
#: CCZ as a controlled CU(0, 0, pi, 0) (= controlled CZ; QPY could not read it back)
_CU_CCZ = ("\n    import math\n    from qiskit.circuit.library import CUGate\n    qc = QuantumCircuit(3)\n"
           "    qc.append(CUGate(0, 0, {lam}, 0).control(1), [0, 1, 2])\n    return qc\n")
#: CZ wrapped in definitions nested 150 deep (QPY reads about 100 levels)
_DEEP_CZ = ("\n    from qiskit.circuit import Gate\n    inner = QuantumCircuit(2)\n    inner.{gate}(0, 1)\n"
            "    gate = inner.to_gate(label='level0')\n    for i in range(150):\n"
            "        wrap = QuantumCircuit(2, name=f'w{{i}}')\n        wrap.append(gate, [0, 1])\n"
            "        gate = wrap.to_gate()\n    qc = QuantumCircuit(2)\n    qc.append(gate, [0, 1])\n"
            "    return qc\n")

ATTACKS = [
    # --- values that used to be judge errors, now decided by check() as upstream would
    ("a wrong gate QPY could not read back", CZ, _OPEN_CZ.format(state=1), "WA", "check() raised"),
    ("a wrong controlled CUGate", CCZ, _CU_CCZ.format(lam="math.pi / 2"), "WA", "check() raised"),
    ("a wrong circuit in definitions nested 150 deep", CZ, _DEEP_CZ.format(gate="cx"),
     "WA", "check() raised"),
    ("an endless generator compared with a list", SQUARE,
     "\n    import itertools\n    return itertools.count()\n", "WA", "check() raised"),
    ("a huge int", SQUARE, "\n    return 7 ** 100_000\n", "WA", "check() raised"),
    ("a date for a number", SQUARE, "\n    import numpy as np\n    return np.datetime64('2049')\n",
     "WA", "check() raised"),
    ("a list nested 3000 deep", NESTED,
     "\n    x = 1\n    for _ in range(3000):\n        x = [x]\n    return x\n", "WA", "check() raised"),
    ("a dict holding itself", NESTED, "\n    d = {}\n    d['me'] = d\n    return d\n",
     "WA", "check() raised"),
    # --- blame: hiding a failure in another class
    ("None where a circuit is expected", CZ, "\n    return None\n", "WA", "check() raised"),
    ("catching its own AttributeError and returning garbage", CZ,
     "\n    try:\n        return QuantumCircuit(2).cz_gate(0, 1)\n    except AttributeError:\n"
     "        return 'cz'\n", "WA", "check() raised"),
    ("a generator raising midway", EVENS,
     "\n    def gen():\n        yield 0\n        raise ValueError('midway')\n    return gen()\n",
     "RE", "ValueError"),
]

CORRECT = [
    ("a labelled open-control gate", CZ, _OPEN_CZ.format(state=0)),
    ("a controlled CUGate", CCZ, _CU_CCZ.format(lam="math.pi")),
    ("definitions nested 150 deep", CZ, _DEEP_CZ.format(gate="cz")),
    ("an endless generator read lazily", FIRST, "\n    import itertools\n    return itertools.count()\n"),
    ("a call on its own result (a stand-in passed on as an argument)", CHAIN,
     "\n    return x + 1\n"),
    ("an iterator of its own class", EVENS,
     "\n    class Evens:\n        def __init__(self):\n            self.i = -2\n"
     "        def __iter__(self):\n            return self\n        def __next__(self):\n"
     "            self.i += 2\n            if self.i >= n:\n                raise StopIteration\n"
     "            return self.i\n    return Evens()\n"),
    ("a deque", EVENS, "\n    import collections\n    return collections.deque(range(0, n, 2))\n"),
    ("a Fraction", SQUARE, "\n    from fractions import Fraction\n    return Fraction(x * x, 1)\n"),
    ("a 0-d numpy array", SQUARE, "\n    import numpy as np\n    return np.array(x * x)\n"),
    ("the stub quoted in a string at column 0", SQUARE,
     "\n    note = '''\ndef square(x):\n    return 0\n'''\n    return x * x\n"),
    ("a full program with a decorated definition", SQUARE,
     "```python\nimport functools\n\n\n@functools.lru_cache(maxsize=None)\ndef square(x):\n"
     "    return x * x\n```"),
    ("a list nested 3000 deep, correct where it is read", NESTED,
     "\n    deep = 1\n    for _ in range(3000):\n        deep = [deep]\n    return [[1]]\n"),
]


@pytest.fixture(scope="module")
def verdicts(sandbox):
    return judge_cases(qhe.make_judge(time_limit=30.0), sandbox,
                       [(name, task, body) for name, task, body, *_ in ATTACKS + CORRECT])


@pytest.mark.parametrize("name, status, fragment", [(a[0], a[3], a[4]) for a in ATTACKS],
                         ids=[a[0] for a in ATTACKS])
def test_attack_gets_its_verdict(verdicts, name, status, fragment):
    v = with_error_class(verdicts[name])
    assert_verdict(v, status, fragment, name=name)
    if status == "WA":
        assert v.error_class == "reasoning"


@pytest.mark.parametrize("name", [c[0] for c in CORRECT])
def test_correct_program_in_an_unusual_style_passes(verdicts, name):
    assert_verdict(verdicts[name], "AC", name=name)
