"""Second red-team round: programs against the QCoder judge, each with the verdict it deserves.

Classes (beyond ``test_adversarial.py`` and ``test_ume_escapes_and_hidden_values.py``): depth limits and banned gates
dodged through a non-integer ``AnnotatedOperation`` power (a dense block the judge used to count
as one layer and not look into); attribute reads by name through pattern matching
(``__match_args__`` with a metaclass ``__instancecheck__``); dynamic code run *by a library* at
the program's request (``typing.get_type_hints`` on string annotations, ``numpy.f2py``'s
``myeval``); NFKC-normalised identifiers; non-finite parameters; oracle abuse through renaming,
redefinition and nested powers; and correct programs in unusual styles (numpy scalars as qubit
indices and angles, numpy ints returned by the classical problems, registers, ``repeat``,
``power``, ``inverse``, ``to_instruction``, classes, global state, printing), which must get AC.
"""

from __future__ import annotations

import pytest
from redteam import assert_verdict

from quantum_codegen_eval.judges.qcoder.specs import get_spec

pytestmark = pytest.mark.upstream

H = "from qiskit import QuantumCircuit\n\n"
A1 = "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n"


def _with(body: str, solve: str = A1) -> str:
    return solve.replace("    qc = QuantumCircuit(1)\n", body + "    qc = QuantumCircuit(1)\n", 1)


def _wrapped_in_power(pid: str, p: float, times: int = 1, pad: int = 40) -> str:
    """The reference, padded past the depth limit with H-H pairs, then applied as ``times``
    non-integer powers ``p`` of itself (numerically the same unitary)."""
    ref = get_spec(pid).reference.replace("def solve(", "def _solve(")
    return ref + (
        "\n\ndef solve(*args):\n    inner = _solve(*args)\n"
        f"    for _ in range({pad}):\n        inner.h(0)\n        inner.h(0)\n"
        "    out = QuantumCircuit(inner.num_qubits)\n"
        f"    g = inner.to_gate().power({p!r}, annotated=True)\n"
        f"    for _ in range({times}):\n        out.append(g, range(inner.num_qubits))\n"
        "    return out\n")


# the subclass jail-break with every attribute read by a class pattern whose positional
# sub-patterns name it in __match_args__ (a metaclass makes any object match)
MATCH_ARGS = H + (
    "class _Any(type):\n    def __instancecheck__(cls, obj):\n        return True\n\n\n"
    "def _read(obj, name):\n"
    "    class P(metaclass=_Any):\n        __match_args__ = (name,)\n"
    "    match obj:\n        case P(v):\n            return v\n\n\n"
    "def solve():\n"
    "    base = _read(_read((), '__cla' + 'ss__'), '__ba' + 'se__')\n"
    "    for c in _read(base, '__subcla' + 'sses__')():\n"
    "        if c.__name__ == '_wrap_close':\n"
    "            _read(c.__init__, '__glo' + 'bals__')['getcwd']()\n"
    "    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n")

# the same with no literal __match_args__: the metaclass puts a computed key in the namespace
MATCH_ARGS_COMPUTED = H + (
    "class _Any(type):\n    def __instancecheck__(cls, obj):\n        return True\n\n"
    "    def __new__(mcs, name, bases, ns):\n        ns['__match' + '_args__'] = ('__glo' + 'bals__',)\n"
    "        return super().__new__(mcs, name, bases, ns)\n\n\n"
    "class P(metaclass=_Any):\n    pass\n\n\n"
    "def solve():\n    match QuantumCircuit.__init__:\n        case P(g):\n"
    "            g['__name__']\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n")
# numpy reads (and writes) memory at the address an object's __array_interface__ claims
ARRAY_INTERFACE = "import numpy as np\n" + H + (
    "class Raw:\n    def __init__(self, addr):\n"
    "        self.__array_interface__ = {'data': (addr, True), 'shape': (16,), 'typestr': '|u1',\n"
    "                                    'version': 3}\n\n\n"
    + _with("    np.asarray(Raw(id(QuantumCircuit))).tobytes()\n"))

# a generator's code object, its names rewritten: ``marker`` becomes ``__globals__`` at run time
CODE_REPLACE = H + (
    "def _g():\n    yield QuantumCircuit.__init__.marker\n\n\n"
    "def solve():\n    c = _g().gi_code\n"
    "    c = c.replace(co_names=tuple('__glo' + 'bals__' if x == 'marker' else x\n"
    "                                 for x in c.co_names))\n"
    "    g = type(solve)(c, {'QuantumCircuit': QuantumCircuit})()\n"
    "    next(g)\n    qc = QuantumCircuit(1)\n    qc.h(0)\n    return qc\n")

# dynamic code evaluated by a library on the program's behalf (no exec/eval in the program)
TYPE_HINTS = ("import numpy.lib._arraypad_impl as _p\n" + H
              + "def _f(x: '[c for c in ().__class__.__base__.__subclasses__() "
                "if c.__name__ == \"_wrap_close\"][0].__init__.__globals__[\"getcwd\"]()'):\n"
                "    pass\n\n\n" + _with("    try:\n        _p.typing.get_type_hints(_f)\n    except Exception:\n"
                        "        pass\n"))
F2PY_EVAL = ("import numpy.f2py.crackfortran as _cf\n" + H
             + _with("    try:\n        _cf.myeval('[c for c in ().__class__.__base__.__subclasses__() "
                     "if c.__name__ == \"_wrap_close\"][0].__init__.__globals__[\"getcwd\"]()', "
                     "{}, {})\n    except Exception:\n        pass\n"))
NFKC = H + _with("    ｅｘｅｃ('x = 1')\n")  # the parser normalises the name to exec

STATIC = [  # (id, problem, code, status, text in message): decided before anything runs
    ("match-args-attribute-reads", "QPC001_A1", MATCH_ARGS, "UME", "__match_args__"),
    ("match-args-computed-in-a-metaclass", "QPC001_A1", MATCH_ARGS_COMPUTED, "UME",
     "positional class pattern"),
    ("array-interface-raw-memory", "QPC001_A1", ARRAY_INTERFACE, "UME", "__array_interface__"),
    ("generator-code-replaced", "QPC001_A1", CODE_REPLACE, "UME", "gi_code"),
    ("typing-get-type-hints-eval", "QPC001_A1", TYPE_HINTS, "UME", "get_type_hints"),
    ("f2py-myeval", "QPC001_A1", F2PY_EVAL, "UME", "myeval"),
    ("nfkc-exec", "QPC001_A1", NFKC, "UME", "exec"),
]

def _erase_channel(how: str) -> str:
    """A refused import whose exception is swallowed, then the channel truncated through numpy
    (numpy opens the file itself: the program never calls open)."""
    return "import numpy as np\n" + H + _with(
        "    try:\n        import smtplib\n    except ImportError:\n        pass\n"
        f"    try:\n        {how}\n    except Exception:\n        pass\n")


RUNTIME = [  # the same with the static check switched off: the run-time guard on its own
    ("rt-erase-channel-tofile", "QPC001_A1", _erase_channel("np.zeros(0).tofile('ume.log')"),
     "UME", "smtplib"),
    ("rt-erase-channel-savetxt", "QPC001_A1", _erase_channel("np.savetxt('ume.log', [])"),
     "UME", "smtplib"),
    ("rt-erase-channel-memmap", "QPC001_A1",
     _erase_channel("np.memmap('ume.log', mode='w+', shape=(1,))"), "UME", "smtplib"),
    ("rt-erase-channel-scipy-savemat", "QPC001_A1",
     _erase_channel("__import__('scipy.io').io.savemat('ume.log', {})"), "UME", "smtplib"),
    ("rt-generator-code-replaced", "QPC001_A1", CODE_REPLACE, "UME",
     "object.__getattr__"),
    ("rt-typing-get-type-hints-eval", "QPC001_A1", TYPE_HINTS, "UME", "compile"),
    ("rt-f2py-myeval", "QPC001_A1", F2PY_EVAL, "UME", "compile"),
]

PROGRAMS = [  # judged on the circuit (static check on)
    ("fractional-power-hides-depth", "QPC005_B1", _wrapped_in_power("QPC005_B1", 1.000000001),
     "DLE", "depth"),
    ("two-half-powers-hide-depth", "QPC002_B4", _wrapped_in_power("QPC002_B4", 0.5, 2),
     "DLE", "depth"),
    ("fractional-power-hides-swap", "QPC002_B3",
     "from qiskit import QuantumCircuit\nfrom qiskit.circuit.library.standard_gates import SwapGate\n\n"
     "def solve():\n    qc = QuantumCircuit(2)\n"
     "    qc.append(SwapGate().power(1.000000001, annotated=True), [0, 1])\n    return qc\n",
     "UGE", "SwapGate"),
    ("half-swaps-hide-swap", "QPC002_B3",
     "from qiskit import QuantumCircuit\nfrom qiskit.circuit.library.standard_gates import SwapGate\n\n"
     "def solve():\n    qc = QuantumCircuit(2)\n    s = SwapGate().power(0.5, annotated=True)\n"
     "    qc.append(s, [0, 1])\n    qc.append(s, [0, 1])\n    return qc\n", "UGE", "SwapGate"),
    ("nan-angle", "QPC001_A1", H + "def solve():\n    qc = QuantumCircuit(1)\n"
     "    qc.rx(float('nan'), 0)\n    qc.h(0)\n    return qc\n", "RE", "nan"),
    ("infinite-global-phase", "QPC001_A1", H + "def solve():\n    qc = QuantumCircuit(1)\n"
     "    qc.h(0)\n    qc.global_phase = float('inf')\n    return qc\n", "RE", "nan"),
    ("delay-renamed", "QPC001_A1", H + "def solve():\n    qc = QuantumCircuit(1)\n    qc.h(0)\n"
     "    qc.delay(10, 0)\n    qc.data[-1].operation.name = 'id'\n    return qc\n", "UGE", "Delay"),
    # reset is allowed in state preparation since 2026-12-03 (test_contest_rules.py): X, then
    # reset and H is |+>, what QPC001_A1 asks for; inside an instruction it is still a reset
    ("reset-inside-an-instruction", "QPC001_A1",
     H + "def solve():\n    sub = QuantumCircuit(1)\n    sub.reset(0)\n    sub.h(0)\n"
     "    qc = QuantumCircuit(1)\n    qc.x(0)\n    qc.append(sub.to_instruction(), [0])\n    return qc\n",
     "AC", ""),
    ("prepare-state", "QPC001_A1", H + "def solve():\n    qc = QuantumCircuit(1)\n"
     "    qc.prepare_state([2 ** -0.5, 2 ** -0.5], [0])\n    return qc\n", "UGE", "StatePreparation"),
    ("classical-control-flow", "QPC001_A1", H + "def solve():\n    qc = QuantumCircuit(1, 1)\n"
     "    qc.h(0)\n    with qc.if_test((qc.clbits[0], 1)):\n        qc.x(0)\n    return qc\n",
     "UGE", "classical"),
    ("self-containing-definition", "QPC001_A1",  # a definition cycle: QPY cannot write it
     H + "def solve():\n    sub = QuantumCircuit(1)\n    sub.h(0)\n    g = sub.to_gate()\n"
     "    inner = QuantumCircuit(1)\n    inner.append(g, [0])\n    g.definition = inner\n"
     "    qc = QuantumCircuit(1)\n    qc.append(g, [0])\n    return qc\n", "RE", ""),
    # the oracle renamed is the program's own gate, but its definition holds the oracle gate
    # (since 2026-12-03, see test_oracle_routes.py): one counted use of the oracle, AC (was WA)
    ("rename-the-oracle-to-x", "QPC003_Ex1",
     get_spec("QPC003_Ex1").reference.replace(
         "    qc.compose(o, inplace=True)\n",
         "    o.data[0].operation.name = 'x'\n    qc.compose(o, inplace=True)\n"), "AC", ""),
    # renamed and used three times: three counted uses, over the limit of one
    ("rename-the-oracle-thrice", "QPC003_Ex1",
     get_spec("QPC003_Ex1").reference.replace(
         "    qc.compose(o, inplace=True)\n",
         "    o.data[0].operation.name = 'x'\n" + "    qc.compose(o, inplace=True)\n" * 3),
     "DLE", "3 applications"),
    ("redefine-the-oracle", "QPC003_Ex1",  # a definition carried by the oracle is ignored
     get_spec("QPC003_Ex1").reference.replace(
         "    qc.compose(o, inplace=True)\n",
         "    d = QuantumCircuit(n + 1)\n    d.z(n)\n    o.data[0].operation.definition = d\n"
         "    qc.compose(o, inplace=True)\n    qc.compose(o, inplace=True)\n"), "DLE",
     "2 applications"),
    ("oracle-power-of-power", "QPC003_Ex1",
     get_spec("QPC003_Ex1").reference.replace(
         "qc.compose(o, inplace=True)",
         "qc.append(o.to_gate().power(-1, annotated=True).power(3, annotated=True)"
         ".power(-1, annotated=True), range(n + 1))"), "DLE", "3 applications"),
]

EX1 = get_spec("QPC003_Ex1").reference
A2 = "def solve(n):\n    qc = QuantumCircuit(n)\n    qc.h(range(n))\n    return qc\n"

GOOD = [  # correct programs in unusual but legal styles: AC
    ("numpy-scalars-as-indices-and-angles", "QPC001_A2",
     "import numpy as np\n" + H + "def solve(n):\n    qc = QuantumCircuit(int(np.int64(n)))\n"
     "    for q in np.arange(n):\n        qc.ry(np.float64(np.pi) / np.int32(2), q)\n"
     "        qc.rz(np.float32(0.0), q)\n    return qc\n"),
    ("numpy-index-array", "QPC001_A2",
     "import numpy as np\n" + H + "def solve(n):\n    qc = QuantumCircuit(n)\n"
     "    qc.h(np.arange(n, dtype=np.int64).tolist())\n    qc.barrier()\n    qc.id(0)\n    return qc\n"),
    ("registers", "QPC001_A2",
     "from qiskit import QuantumCircuit, QuantumRegister\n\n"
     "def solve(n):\n    r = QuantumRegister(n, 'data')\n    qc = QuantumCircuit(r)\n"
     "    qc.h(r)\n    return qc\n"),
    ("sub-instruction-repeat-power-inverse", "QPC001_A2",
     H + "from qiskit.circuit.library.standard_gates import XGate, HGate\n\n"
     "def solve(n):\n    sub = QuantumCircuit(1, name='my_h')\n    sub.h(0)\n"
     "    qc = QuantumCircuit(n)\n    for q in range(n):\n"
     "        qc.append(sub.to_instruction(), [q])\n"
     "        qc.append(XGate().power(2, annotated=True), [q])\n"
     "        qc.compose(sub.repeat(2), [q], inplace=True)\n"
     "        for _ in range(2):\n            qc.append(HGate().inverse().inverse(), [q])\n"
     "    return qc.inverse().inverse()\n"),
    ("class-global-state-print", "QPC001_A2",
     H + "import math\n\nCOUNT = {'calls': 0}\n\n\nclass Builder:\n    def __init__(self, n):\n"
     "        self.qc = QuantumCircuit(n, name=f'b{n}')\n\n    def run(self):\n"
     "        for q in range(self.qc.num_qubits):\n            self.qc.ry(math.pi / 2, q)\n"
     "        return self.qc\n\n\ndef solve(n: int) -> QuantumCircuit:\n    COUNT['calls'] += 1\n"
     "    print('case', COUNT['calls'], 'n =', n)\n    return Builder(n).run()\n"),
    ("compose-front-and-qubits", "QPC001_A2",
     H + "def solve(n):\n    qc = QuantumCircuit(n)\n    layer = QuantumCircuit(n)\n"
     "    layer.h(range(n))\n    qc.compose(layer, qubits=list(range(n))[::-1], front=True, inplace=True)\n"
     "    return qc\n"),
    ("oracle-as-gate-and-instruction", "QPC003_Ex1",
     EX1.replace("qc.compose(o, inplace=True)", "qc.append(o.to_gate(label='oracle'), range(n + 1))")),
    ("oracle-as-instruction", "QPC003_Ex1",
     EX1.replace("qc.compose(o, inplace=True)",
                 "qc.append(o.to_instruction(), list(range(n + 1)))")),
    ("oracle-compose-with-qubits", "QPC003_Ex1",
     EX1.replace("qc.compose(o, inplace=True)",
                 "qc = qc.compose(o, qubits=range(n + 1))")),
    ("mcx-with-a-dirty-ancilla", "QPC001_A2",  # QPY reads MCXVChain(dirty) back as clean
     H + "def solve(n):\n    qc = QuantumCircuit(n)\n    if n >= 5:\n        qc.x([0, 1, 2, 4])\n"
     "        qc.mcx([0, 1, 2], 3, [4], mode='v-chain-dirty')\n        qc.mcx([0, 1, 2], 3)\n"
     "        qc.x([0, 1, 2, 4])\n    qc.h(range(n))\n    return qc\n"),
    ("match-statement-on-builtins", "QPC001_A2",
     H + "def solve(n):\n    qc = QuantumCircuit(n)\n    match n:\n"
     "        case int(k) if k > 0:\n            qc.h(range(k))\n        case _:\n"
     "            pass\n    match [0, 1]:\n        case [a, b]:\n            qc.id(a)\n"
     "    return qc\n"),
    ("print-and-draw-the-circuit", "QPC001_A2",
     H + "def solve(n):\n    qc = QuantumCircuit(n)\n    qc.h(qc.qubits)\n    print(qc)\n"
     "    print(qc.draw(output='text'), qc.depth(), qc.size(), dict(qc.count_ops()))\n"
     "    return qc\n"),
    ("negative-index-qubit-objects-reverse-bits", "QPC001_A2",
     "from __future__ import annotations\nfrom math import pi as PI\n" + H
     + "def solve(n: int) -> QuantumCircuit:\n    qc = QuantumCircuit(n)\n"
     "    qc.ry(PI / 2, -1)\n    for q in qc.qubits[:-1]:\n        qc.h(q)\n"
     "    return qc.reverse_bits()\n"),
    ("oracle-appended-as-circuit-and-iand", "QPC003_Ex1",
     EX1.replace("qc.compose(o, inplace=True)", "qc.append(o, range(n + 1))")),
    ("oracle-and-operator", "QPC003_Ex1",
     EX1.replace("    qc.compose(o, inplace=True)\n", "    qc &= o\n")),
    ("solve-is-a-lambda-over-helpers", "QPC001_A2",
     H + "def _layer(n):\n    qc = QuantumCircuit(n)\n    qc.h(range(n))\n    return qc\n\n\n"
     "solve = lambda n: _layer(n).decompose().decompose()\n"),
    ("own-gate-class-through-the-json-fallback", "QPC001_A2",  # QPY cannot read CUGate.control
     H + "from qiskit.circuit.library.standard_gates import CUGate\n\n\n"
     "class MyH(type(QuantumCircuit(1).to_gate())):\n    def __init__(self):\n"
     "        super().__init__('myh', 1, [])\n\n    def _define(self):\n"
     "        d = QuantumCircuit(1)\n        d.h(0)\n        self.definition = d\n\n\n"
     "def solve(n):\n    qc = QuantumCircuit(n)\n    for q in range(n):\n"
     "        qc.append(MyH(), [q])\n    if n >= 3:\n"
     "        qc.append(CUGate(0, 0, 0, 0).control(1), [0, 1, 2])\n    return qc\n"),
    ("scipy-stats-optimize-linalg", "QPC001_A2",  # scipy.stats builds code (frozen distributions)
     "import numpy as np\nfrom scipy import stats, optimize, linalg\n" + H
     + "def solve(n):\n    stats.norm(loc=0.0, scale=1.0).pdf(0.0)\n"
     "    stats.binom(3, 0.5).pmf(1)\n    r = optimize.minimize_scalar(lambda t: (np.sin(t / 2) ** 2 - 0.5) ** 2,\n"
     "                                 bounds=(0, np.pi), method='bounded')\n"
     "    linalg.expm(np.zeros((2, 2)))\n    qc = QuantumCircuit(n)\n"
     "    for q in range(n):\n        qc.ry(float(r.x), q)\n    return qc\n"),
    ("classical-numpy-ints", "QPC004_C1",
     "import numpy as np\n\ndef solve(n, a, L):\n    out = []\n    x = a % L\n"
     "    for _ in range(n):\n        out.append(np.int64(x) if L < 2 ** 62 else x)\n"
     "        x = x * x % L\n    return out\n"),
    ("classical-numpy-int-scalar", "QPC004_C2",
     "import numpy as np\n\ndef solve(a, L):\n    x = pow(a, -1, L)\n"
     "    return np.int64(x) if L < 2 ** 62 else x\n"),
]
GOOD = [(name, pid, code, "AC", "") for name, pid, code in GOOD]


@pytest.fixture(scope="module")
def verdicts(qsandbox, qcoder_records, verdict_table):
    return verdict_table(qsandbox, qcoder_records, STATIC + PROGRAMS + GOOD, RUNTIME)


@pytest.mark.parametrize("case", STATIC + RUNTIME + PROGRAMS + GOOD, ids=lambda c: c[0])
def test_exact_verdict(verdicts, case):
    name, _pid, _code, status, text = case
    assert_verdict(verdicts[name], status, text, name=name)
