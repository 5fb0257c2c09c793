"""Recorded replay: trusted checks for challenges whose official ``check()`` calls the solution's
quantum functions with arguments (from the test, from random draws, oracles, mid-circuit
measurement values) or its small classical helpers.

The program's job installs recorders on the solution functions named by a :class:`RecordCheck`,
then runs the official ``run()`` and ``check()`` as the notebook would. Each call of a recorded
quantum function (a QNode's quantum function, or a plain one) is stored once per distinct
argument key as data: its operations (name, wires, parameters; mid-circuit measurements,
``qml.cond`` conditions as truth tables over the measurements they read, ``qml.ctrl`` /
``qml.adjoint`` / ``qml.pow`` wrappers, oracle arguments as placeholders), its measurements and what it
returned. Each call of a recorded classical function stores its return value.

The trusted job loads the harness (imports, given code, the official ``run()`` and ``check()``),
replaces the solution functions with stand-ins that rebuild the recorded circuit for the call's
arguments (QNodes under the template's own decorator and device, oracles substituted by the
harness's real ones) or return the recorded value, and runs the official ``run()`` (when no
classical solution code stands between it and the recorded functions) and ``check()``. What the
check measures is simulated there; a call the program did not record is a wrong answer. Random
draws of the harness see the same seeded stream in both processes: recorders restore the global
``numpy``/``random`` state after each solution call, and stand-ins draw nothing.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ...formats.qhack_template import parse as _parse
from .circuits import STANDARD_GATES
from .program import chunks_of

#: operations a stand-in can rebuild by name as ``Cls(*params, wires=wires)`` (besides the
#: harness's own operation classes a challenge names)
REBUILDABLE = STANDARD_GATES + (
    "QubitUnitary", "BasisState", "StatePrep", "QubitStateVector", "MottonenStatePreparation",
    "DepolarizingChannel", "AmplitudeDamping", "PhaseDamping", "BitFlip", "PhaseFlip", "QFT",
    "ISWAP", "SISWAP", "SQISW", "ECR", "IsingXY", "PSWAP", "CPhase", "SingleExcitation",
    "DoubleExcitation", "QubitCarry", "QubitSum",
    # no decomposition (Barrier's is empty), and a recorded matrix would lose what they are
    "Barrier", "GlobalPhase")

#: the call key (both processes): arguments as canonical JSON; measurement values and oracles by
#: position, arrays by value
KEY_COMMON = r'''
import json as _rj
import pennylane as qml
from pennylane.measurements import MeasurementValue as _RMV


def _is_oracle(x):
    return callable(x) and not isinstance(x, (type, _RMV)) and not hasattr(x, "shape")


def _canon(x, pos=None, depth=0):
    if depth > 20:
        raise ValueError("arguments nested too deeply")
    if isinstance(x, _RMV):
        return {"mv": pos}
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, complex):
        return {"c": [x.real, x.imag]}
    if hasattr(x, "tolist") and hasattr(x, "shape"):
        return {"a": _canon(x.tolist(), None, depth + 1)}
    if hasattr(x, "item") and hasattr(x, "dtype"):
        return _canon(x.item(), pos, depth + 1)
    if isinstance(x, (list, tuple, range)) or type(x).__name__ == "Wires":
        return [_canon(v, None, depth + 1) for v in x]
    if isinstance(x, dict):
        return {"d": [[str(k), _canon(v, None, depth + 1)] for k, v in sorted(x.items(), key=str)]}
    if isinstance(x, type):
        return {"cls": x.__name__}
    if _is_oracle(x):
        return {"oracle": pos}
    return {"obj": type(x).__name__}


def call_key(args, kwargs):
    return _rj.dumps([[_canon(a, i) for i, a in enumerate(args)],
                      [[k, _canon(v, k)] for k, v in sorted(kwargs.items())]])


def _mv_items(mv):
    """The measurements a measurement value reads (objects on new PennyLane, ids on old)."""
    items = getattr(mv, "measurements", None)
    return list(items) if items is not None else list(mv.measurement_ids)


def _mv_keys(mv):
    """Keys of the measurements a value reads: their ids (strings) on old PennyLane, else the
    identity of the measurement objects (newer releases leave ``id`` unset)."""
    return [m if isinstance(m, str) else id(m) for m in _mv_items(mv)]


def _rng_state():
    import random
    import numpy
    return random.getstate(), numpy.random.get_state()


def _rng_restore(state):
    import random
    import numpy
    random.setstate(state[0])
    numpy.random.set_state(state[1])


def seed_all(seed):
    import random
    import numpy
    random.seed(seed)
    numpy.random.seed(seed)
'''

#: the program's job: ``install(g)`` before ``run()``, ``collect(g)`` after ``check()``
RECORD_EMIT = KEY_COMMON + r'''
from pennylane.measurements import MeasurementProcess as _RMP
from pennylane.measurements import MidMeasureMP as _RMid

CALLS, VALUES, SEEN, ORACLE_OPS = {}, {}, {}, {}
MAX_CALLS = 100000
MAX_OPS = 20000
_MEAS = {"ProbabilityMP": "probs", "StateMP": "state", "DensityMatrixMP": "density_matrix",
         "ExpectationMP": "expval", "VarianceMP": "var", "SampleMP": "sample",
         "CountsMP": "counts"}
_NAMED_OBS = ("PauliX", "PauliY", "PauliZ", "Hadamard", "Identity")
_COUNT = [0]


def _queued(fn, args, kwargs):
    """Call ``fn`` in the active queuing context (nothing is re-queued) and return what it
    returned and the operations and measurements it queued there (``None`` outside any)."""
    ctx = qml.QueuingManager.active_context()
    if ctx is None:
        return fn(*args, **kwargs), None, None
    # keys are the objects themselves (0.28) or identity wrappers around them (later)
    before = {id(getattr(k, "obj", k)) for k in ctx.keys()}
    ret = fn(*args, **kwargs)
    new = qml.queuing.AnnotatedQueue()
    for key, info in list(ctx.items()):
        obj = getattr(key, "obj", key)
        if id(obj) not in before:
            new.append(obj, **info)
    parts = qml.queuing.process_queue(new)
    ops = list(parts[2]) + list(parts[0]) if len(parts) == 3 else list(parts[0])
    return ret, ops, list(parts[1])


def _wires(ws):
    out = []
    for w in (ws.tolist() if hasattr(ws, "tolist") else list(ws)):
        if isinstance(w, str):
            out.append(w)
        elif isinstance(w, int) or hasattr(w, "__index__"):
            out.append(int(w))
        else:
            raise ValueError("wire labels must be integers or strings")
    return out


def _oracle_proxy(f, pos):
    def oracle(*a, **k):
        r, ops, _ = _queued(f, a, k)
        for o in ops or ():
            ORACLE_OPS[id(o)] = (pos, o)
        return r
    return oracle


def _enc_obs(o, depth=0):
    if depth > 8:
        raise ValueError("observable nested too deeply")
    t = type(o).__name__
    if t in _NAMED_OBS:
        return ["N", t, _wires(o.wires)]
    if t == "Hermitian":
        return ["H", _wires(o.wires), encode(o.parameters[0])]
    if t in ("Tensor", "Prod"):
        return ["T", [_enc_obs(x, depth + 1) for x in (o.obs if t == "Tensor" else o.operands)]]
    if t == "Hamiltonian":
        return ["S", [float(c) for c in o.coeffs], [_enc_obs(x, depth + 1) for x in o.ops]]
    if t == "Sum":
        return ["+", [_enc_obs(x, depth + 1) for x in o.operands]]
    if t == "SProd":
        return ["*", float(o.scalar), _enc_obs(o.base, depth + 1)]
    raise ValueError(f"the observable {t} cannot be recorded")


def _enc_meas(m):
    kind = _MEAS.get(type(m).__name__)
    if kind is None or getattr(m, "mv", None) is not None:
        raise ValueError(f"the measurement {type(m).__name__} cannot be recorded")
    obs = getattr(m, "obs", None)
    ws = _wires(m.wires) if obs is None else []
    if kind == "state" and ws:  # PennyLane 0.28: qml.density_matrix is a StateMP with wires
        kind = "density_matrix"
    return [kind, ws, None if obs is None else _enc_obs(obs)]


def _expanded(ops, depth=0):
    out = []
    for o in ops:
        plain = not isinstance(o, _RMid) and id(o) not in ORACLE_OPS and type(o).__name__ not in (
            "Conditional", "Controlled", "ControlledOp", "Adjoint", "AdjointOperation",
            "AdjointOpObs", "AdjointObs", "Pow", "PowOperation", "PowOpObs", "PowObs")
        if plain and depth < 10 and str(o.name) not in KEEP:
            try:
                with qml.QueuingManager.stop_recording():  # never into the circuit
                    parts = o.decomposition()
            except Exception:
                parts = None
            if parts:
                out.extend(_expanded(parts, depth + 1))
                continue
        out.append(o)
    return out


def _enc_op(o, refs, depth=0):
    if depth > 12:
        raise ValueError("operations nested too deeply")
    if id(o) in ORACLE_OPS:
        return ["ORACLE", ORACLE_OPS[id(o)][0], _wires(o.wires)]
    if isinstance(o, _RMid):
        ref = ["local", len({id(r) for r in refs.values() if r[0] == "local"})]
        refs[id(o)] = ref
        if isinstance(getattr(o, "id", None), str):
            refs[o.id] = ref
        post = getattr(o, "postselect", None)
        return ["M", _wires(o.wires), bool(getattr(o, "reset", False)),
                None if post is None else int(post)]
    t = type(o).__name__
    if t == "Conditional":
        mrefs = [refs.get(i) for i in _mv_keys(o.meas_val)]
        if any(r is None for r in mrefs):
            raise ValueError("a condition on a measurement made outside this call")
        table = [[int(b) for b in k] for k, v in o.meas_val.branches.items() if v]
        then = getattr(o, "then_op", None) or o.base  # renamed in newer PennyLane
        return ["IF", mrefs, table, _enc_op(then, refs, depth + 1)]
    if t in ("Controlled", "ControlledOp"):
        return ["C", _wires(o.control_wires), [int(v) for v in o.control_values],
                _enc_op(o.base, refs, depth + 1)]
    if t in ("Adjoint", "AdjointOperation", "AdjointOpObs", "AdjointObs"):
        return ["ADJ", _enc_op(o.base, refs, depth + 1)]
    if t in ("Pow", "PowOperation", "PowOpObs", "PowObs"):
        return ["POW", float(o.z), _enc_op(o.base, refs, depth + 1)]
    if EXPAND and str(o.name) not in KEEP:  # e.g. under qml.adjoint/qml.ctrl: its decomposition
        try:
            with qml.QueuingManager.stop_recording():
                parts = o.decomposition()
        except Exception:
            parts = None
        if parts:
            return ["SEQ", [_enc_op(p, refs, depth + 1) for p in parts]]
        try:  # no decomposition (0.28's MultiControlledX without work wires): its matrix
            if 0 < len(o.wires) <= 8:
                with qml.QueuingManager.stop_recording():
                    mat = o.matrix()
                return ["QubitUnitary", _wires(o.wires), [encode(mat)]]
        except Exception:
            pass
    return [str(o.name), _wires(o.wires), [encode(p) for p in o.parameters]]


def _entry(ops, meas, ret, args, kwargs):
    refs = {}
    for pos, a in list(enumerate(args)) + list(kwargs.items()):
        if isinstance(a, _RMV):
            for j, i in enumerate(_mv_keys(a)):
                refs[i] = ["arg", pos, j]
    names = [str(o.name) for o in ops]
    if EXPAND:
        ops = _expanded(ops)
    if len(ops) > MAX_OPS:
        raise ValueError(f"more than {MAX_OPS} operations")
    enc_ops = [_enc_op(o, refs) for o in ops]
    enc_meas = [_enc_meas(m) for m in meas]

    def index(m):
        for i, x in enumerate(meas):
            if x is m:
                return i
        raise ValueError("it returns something other than its measurements")

    if ret is None:
        enc_ret = None
    elif isinstance(ret, (list, tuple)):
        enc_ret = {"seq": "tuple" if isinstance(ret, tuple) else "list",
                   "items": [index(m) for m in ret]}
    else:
        enc_ret = index(ret)
    return {"ops": enc_ops, "meas": enc_meas, "ret": enc_ret, "names": names}


def _qfunc_recorder(name, fn):
    def recorded(*args, **kwargs):
        table = CALLS.setdefault(name, {})
        key = call_key(args, kwargs)
        args = [_oracle_proxy(a, i) if _is_oracle(a) else a for i, a in enumerate(args)]
        kwargs = {k: _oracle_proxy(v, k) if _is_oracle(v) else v for k, v in kwargs.items()}
        state = _rng_state()
        try:
            ret, ops, meas = _queued(fn, args, kwargs)
        finally:
            _rng_restore(state)
        if ops is not None and key not in table and _COUNT[0] < MAX_CALLS:
            _COUNT[0] += 1
            try:
                table[key] = _entry(ops, meas, ret, args, kwargs)
            except Exception as exc:
                table[key] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        return ret

    recorded.__name__ = getattr(fn, "__name__", name)
    return recorded


def _value_recorder(name, fn):
    def recorded(*args, **kwargs):
        state = _rng_state()
        try:
            ret = fn(*args, **kwargs)
        finally:
            _rng_restore(state)
        table = VALUES.setdefault(name, {})
        key = call_key(args, kwargs)
        SEEN.setdefault(name, (args, kwargs))
        if key not in table and _COUNT[0] < MAX_CALLS:
            _COUNT[0] += 1
            try:
                table[key] = encode(list(ret) if type(ret) is range else ret)  # range(8): a list
            except Exception as exc:
                table[key] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        return ret

    recorded.__name__ = getattr(fn, "__name__", name)
    return recorded


def install(g):
    for name in QFUNCS:
        fn = g.get(name)
        if fn is None:
            continue
        if hasattr(fn, "func") and hasattr(fn, "device"):  # a QNode: record its quantum function
            fn.func = _qfunc_recorder(name, fn.func)
        else:
            g[name] = _qfunc_recorder(name, fn)
    for name in VALUE_FUNCS:
        if callable(g.get(name)):
            g[name] = _value_recorder(name, g[name])


def collect(g):
    import itertools
    for name in BINARY:  # a function of one 0/1 array (a shot): its value on every bit pattern
        seen = SEEN.get(name)
        if not seen or len(seen[0]) != 1 or seen[1] or not hasattr(seen[0][0], "copy"):
            continue
        first = seen[0][0]
        if not 0 < getattr(first, "size", 0) <= 12:
            continue
        for bits in itertools.product((0, 1), repeat=first.size):
            arr = first.copy()
            arr.reshape(-1)[:] = bits
            try:
                g[name](arr)
            except Exception:
                pass
    return {"calls": {n: [[k, v] for k, v in t.items()] for n, t in CALLS.items()},
            "values": {n: [[k, v] for k, v in t.items()] for n, t in VALUES.items()}}
'''

#: the trusted job: stand-ins that replay the record, then the official run() and check()
REPLAY = KEY_COMMON + r'''
import functools as _ft
import operator as _opr

import numpy as _np

_official_check = check
MAX_OPS = 20000
_NAMED_OBS = ("PauliX", "PauliY", "PauliZ", "Hadamard", "Identity")


def _ws(ws):
    assert isinstance(ws, list) and len(ws) <= 64 and len(set(map(repr, ws))) == len(ws), \
        "malformed wires"
    for w in ws:
        assert (type(w) is int and 0 <= w < 1024) or (type(w) is str and 0 < len(w) <= 40), \
            f"bad wire label {str(w)[:40]}"
    return ws


def _num(x):
    assert type(x) in (int, float), "malformed number"
    return x


def _class(name):
    assert isinstance(name, str), "malformed operation"
    cls = getattr(qml, name, None) if name in REBUILDABLE else (
        globals().get(name) if name in HARNESS_CLASSES else None)
    assert isinstance(cls, type) and issubclass(cls, qml.operation.Operator), \
        f"the operation {name[:60]} cannot be rebuilt from data (use the template's gates)"
    return cls


class _Ctx:
    def __init__(self, args, kwargs):
        self.args, self.kwargs, self.local = args, kwargs, []

    def arg(self, pos):
        if isinstance(pos, str):
            assert pos in self.kwargs, "malformed argument reference"
            return self.kwargs[pos]
        assert type(pos) is int and 0 <= pos < len(self.args), "malformed argument reference"
        return self.args[pos]


def _condition(refs, table, ctx):
    assert isinstance(refs, list) and isinstance(table, list) and 0 < len(refs) <= 16
    items = []
    for ref in refs:
        assert isinstance(ref, list) and ref and ref[0] in ("arg", "local"), "malformed condition"
        if ref[0] == "arg":
            mv = ctx.arg(ref[1])
            assert isinstance(mv, _RMV), "a condition on an argument that is not a measurement"
            got = _mv_items(mv)
            assert type(ref[2]) is int and 0 <= ref[2] < len(got), "malformed condition"
            items.append(got[ref[2]])
        else:
            assert type(ref[1]) is int and 0 <= ref[1] < len(ctx.local), "malformed condition"
            items.append(ctx.local[ref[1]])
    truth = {tuple(b) for b in table if isinstance(b, list) and len(b) == len(refs)}

    def fn(*bits):
        return tuple(int(b) for b in bits) in truth

    return _RMV(items, fn)


def _build(item, ctx, oracles, depth=0):
    assert isinstance(item, list) and item and depth <= 12, "malformed operation"
    kind = item[0]
    if kind == "ORACLE":
        assert len(item) == 3 and item[1] in oracles, "an oracle call the harness did not pass"
        oracles[item[1]](wires=_ws(item[2]))
    elif kind == "M":
        assert len(item) == 4, "malformed measurement"
        ws, kw = _ws(item[1]), {}
        if item[2]:
            kw["reset"] = True
        if item[3] is not None:
            kw["postselect"] = int(item[3])
        mv = qml.measure(ws[0] if len(ws) == 1 else ws, **kw)
        ctx.local.append(_mv_items(mv)[0])
    elif kind == "IF":
        assert len(item) == 4, "malformed condition"
        cond = _condition(item[1], item[2], ctx)
        qml.cond(cond, lambda: _build(item[3], ctx, oracles, depth + 1))()
    elif kind == "C":
        assert len(item) == 4 and isinstance(item[2], list), "malformed controlled operation"
        qml.ctrl(lambda: _build(item[3], ctx, oracles, depth + 1), control=_ws(item[1]),
                 control_values=[int(bool(v)) for v in item[2]])()
    elif kind == "ADJ":
        assert len(item) == 2, "malformed adjoint"
        qml.adjoint(lambda: _build(item[1], ctx, oracles, depth + 1))()
    elif kind == "SEQ":
        assert len(item) == 2 and isinstance(item[1], list) and len(item[1]) <= MAX_OPS, \
            "malformed operation"
        for part in item[1]:
            _build(part, ctx, oracles, depth + 1)
    elif kind == "POW":
        assert len(item) == 3 and type(item[1]) in (int, float) and abs(item[1]) <= 64, \
            "malformed power"
        with qml.queuing.AnnotatedQueue() as q:
            _build(item[2], ctx, oracles, depth + 1)
        for op in qml.queuing.process_queue(q)[0]:
            qml.pow(op, float(item[1]).is_integer() and int(item[1]) or item[1])
    else:
        assert len(item) == 3 and isinstance(item[2], list) and len(item[2]) <= 8, \
            "malformed operation"
        cls = _class(kind)
        params = [_qce_decode(p) for p in item[2]]
        cls(*params, wires=_ws(item[1]))


def _obs(item, depth=0):
    assert isinstance(item, list) and item and depth <= 8, "malformed observable"
    kind = item[0]
    if kind == "N":
        assert item[1] in _NAMED_OBS, "malformed observable"
        return getattr(qml, item[1])(wires=_ws(item[2]))
    if kind == "H":
        return qml.Hermitian(_qce_decode(item[2]), wires=_ws(item[1]))
    if kind == "T":
        return _ft.reduce(_opr.matmul, [_obs(x, depth + 1) for x in item[1]])
    if kind == "S":
        return qml.Hamiltonian([_num(c) for c in item[1]], [_obs(x, depth + 1) for x in item[2]])
    if kind == "+":
        return _ft.reduce(_opr.add, [_obs(x, depth + 1) for x in item[1]])
    if kind == "*":
        return _num(item[1]) * _obs(item[2], depth + 1)
    raise AssertionError("malformed observable")


def _measure(item):
    assert isinstance(item, list) and len(item) == 3, "malformed measurement"
    kind, ws, obs = item
    o = None if obs is None else _obs(obs)
    if kind == "probs":
        return qml.probs(wires=_ws(ws)) if o is None else qml.probs(op=o)
    if kind == "state":
        return qml.state()
    if kind == "density_matrix":
        return qml.density_matrix(wires=_ws(ws))
    if kind in ("expval", "var"):
        assert o is not None, "malformed measurement"
        return getattr(qml, kind)(o)
    if kind in ("sample", "counts"):
        return getattr(qml, kind)(o) if o is not None else getattr(qml, kind)(wires=_ws(ws))
    raise AssertionError("malformed measurement")


def _replay(name, entry, args, kwargs):
    assert isinstance(entry, dict), f"{name}(): malformed record"
    assert "error" not in entry, f"{name}() could not be recorded: {str(entry['error'])[:300]}"
    ops, meas, names = entry.get("ops"), entry.get("meas"), entry.get("names")
    assert isinstance(ops, list) and len(ops) <= MAX_OPS and isinstance(meas, list) and \
        len(meas) <= 64 and isinstance(names, list), f"{name}(): malformed record"
    for bad in FORBID:
        assert bad not in names, f"{name}() uses {bad}"
    ctx = _Ctx(args, kwargs)
    oracles = {p: a for p, a in list(enumerate(args)) + list(kwargs.items()) if _is_oracle(a)}
    for item in ops:
        _build(item, ctx, oracles)
    built = [_measure(m) for m in meas]
    ret = entry.get("ret")
    if ret is None:
        return None
    if type(ret) is int:
        assert 0 <= ret < len(built), f"{name}(): malformed record"
        return built[ret]
    assert isinstance(ret, dict) and isinstance(ret.get("items"), list), "malformed record"
    seq = []
    for i in ret["items"]:
        assert type(i) is int and 0 <= i < len(built), f"{name}(): malformed record"
        seq.append(built[i])
    return tuple(seq) if ret.get("seq") == "tuple" else seq


def _table(record, field, names):
    got = record.get(field)
    assert isinstance(got, dict), "no record"
    out = {}
    for name in names:
        rows = got.get(name, [])
        assert isinstance(rows, list), "malformed record"
        out[name] = {}
        for row in rows:
            assert isinstance(row, list) and len(row) == 2 and isinstance(row[0], str), \
                "malformed record"
            out[name][row[0]] = row[1]
    return out


def _qfunc_stand_in(name, table):
    def replay(*args, **kwargs):
        key = call_key(args, kwargs)
        assert key in table, f"{name}(): a call the program did not record ({key[:120]})"
        return _replay(name, table[key], args, kwargs)

    replay.__name__ = name
    fn = replay
    for deco in reversed(DECORATORS.get(name, ())):
        fn = eval(deco, globals())(fn)
    return fn


def _real(x):
    if isinstance(x, _np.ndarray) and x.shape == () and x.dtype.kind in "iuf":
        x = x.item()
    return type(x) in (int, float) and bool(_np.isfinite(x))


def _value_rule(name, value, rule):
    """What the template asks of a classical helper's value (a value that makes the official
    check vacuous, such as an empty array broadcast against the answers, is a wrong answer)."""
    if rule == "number":
        assert _real(value), f"{name}() must return a finite real number"
    else:  # ["numbers", n]
        n = rule[1]
        seq = value.tolist() if isinstance(value, _np.ndarray) and value.ndim == 1 else value
        assert isinstance(seq, (list, tuple)) and len(seq) == n and all(map(_real, seq)), \
            f"{name}() must return {n} finite real numbers"


def _value_stand_in(name, table):
    def replay(*args, **kwargs):
        key = call_key(args, kwargs)
        assert key in table, f"{name}(): a call the program did not record ({key[:120]})"
        assert not (isinstance(table[key], dict) and "error" in table[key]), \
            f"{name}() could not be recorded"
        value = _qce_decode(table[key])
        if name in VALUE_RULES:
            _value_rule(name, value, VALUE_RULES[name])
        return value

    replay.__name__ = name
    return replay


def _same_shape(out, expected):
    try:
        want = _rj.loads(expected)
    except (TypeError, ValueError):
        return
    if not isinstance(want, (int, float, list)) or isinstance(want, bool):
        return
    assert isinstance(out, str), "run() did not return a string"
    got = _rj.loads(out)
    assert _np.shape(got) == _np.shape(want), "the output does not have the expected shape"


def check(data, expected):
    assert isinstance(data, dict) and isinstance(data.get("record"), dict), "nothing recorded"
    record = data["record"]
    for name, table in _table(record, "calls", QFUNCS).items():
        globals()[name] = _qfunc_stand_in(name, table)
    for name, table in _table(record, "values", VALUE_FUNCS).items():
        globals()[name] = _value_stand_in(name, table)
    seed = TEST_SEED  # the judge's seed for this test, as in the program's job
    if HIDDEN_DRAWS:  # the harness's draws reach no recorded call: a seed the program never saw
        seed = HIDDEN_SEED
    if RERUN:
        seed_all(seed)
        out = run(TEST_INPUT)
        _same_shape(out, expected)
    else:
        out = _qce_decode(data.get("output"))
    seed_all(seed + 1)
    return _official_check(out, expected)
'''


@dataclass(frozen=True)
class RecordCheck:
    """A recorded-replay check.

    ``qfuncs``: solution quantum functions and QNodes recorded and replayed; ``values``: classical
    solution functions whose return values are recorded (``binary``: those of them taking one
    0/1 array, a shot, are also called on every bit pattern of it); ``rerun``: the trusted job
    runs the official ``run()`` (False when ``run()`` reaches classical solution code: the
    program's output is then compared); ``expand``: operations a stand-in cannot rebuild are
    decomposed first (off where the check restricts the gate set or counts operations: such an
    operation is then a wrong answer, as upstream); ``forbid``: names the recorded (not
    decomposed) operations may not have; ``classes``: the harness's own operation classes;
    ``hidden_draws``: the harness's random draws reach no argument of a recorded call, so the
    trusted job seeds them afresh (a circuit that read the draw in the program's process, e.g.
    the error the harness queued before it, is replayed against a draw it never saw);
    ``value_rules``: what a recorded classical value must be, per function: ``"number"`` (a
    finite real) or ``("numbers", n)`` (n finite reals), where the template asks it and another
    value would make the official check vacuous."""

    qfuncs: tuple[str, ...]
    values: tuple[str, ...] = ()
    binary: tuple[str, ...] = ()
    rerun: bool = True
    expand: bool = True
    forbid: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    hidden_draws: bool = False
    value_rules: tuple[tuple[str, Any], ...] = ()

    def header(self, decorators: dict[str, list[str]] | None = None) -> str:
        keep = tuple(REBUILDABLE) + self.classes
        return (f"QFUNCS = {self.qfuncs!r}\nVALUE_FUNCS = {self.values!r}\n"
                f"BINARY = {self.binary!r}\nRERUN = {self.rerun!r}\nEXPAND = {self.expand!r}\n"
                f"FORBID = {self.forbid!r}\nHARNESS_CLASSES = {self.classes!r}\n"
                f"HIDDEN_DRAWS = {self.hidden_draws!r}\n"
                f"VALUE_RULES = {dict(self.value_rules)!r}\n"
                f"REBUILDABLE = {tuple(REBUILDABLE)!r}\nKEEP = set({keep!r})\n"
                f"DECORATORS = {decorators or {}!r}\n")

    def emit_source(self) -> str:
        return self.header() + RECORD_EMIT

    def check_source(self, decorators: dict[str, list[str]]) -> str:
        return self.header(decorators) + REPLAY


RECORD_CHECKS: dict[str, RecordCheck] = {
    # quantum functions inside the harness's QNodes; setting_new_robot conditions on the
    # harness's mid-circuit measurement
    "2023/a_tale_of_timbits_400": RecordCheck(
        ("bell_preparation", "emergency_gate_U", "setting_new_robot")),
    "2023/fall_of_sqynet_100": RecordCheck(("trotterize",), forbid=("ApproxTimeEvolution",)),
    # only RX, RY, RZ, CNOT and depolarizing channels; random couplings in check()
    "2023/fall_of_sqynet_400": RecordCheck(("heisenberg_trotter",), expand=False),
    # 40,000 calls of model() on a grid; generate_coefficients() is classical
    # "a list of 8 different values": with fewer, check()'s loop over them proves nothing and a
    # constant model passes its continuity test
    "2023/office_hijinks_200": RecordCheck(
        ("model",), values=("generate_coefficients",),
        value_rules=(("generate_coefficients", ("numbers", 8)),)),
    # U() queues a PauliX on a random wire inside the harness's circuit, before circuit_right:
    # circuit_right could read it from the queue and undo it without correcting anything
    "2023/office_hijinks_300": RecordCheck(("circuit_left", "circuit_right"), hidden_draws=True),
    # the harness's oracles (one per random draw) replace the recorded placeholder; the classical
    # process_output is known on every possible shot
    "2023/office_hijinks_400": RecordCheck(("circuit",), values=("process_output",),
                                           binary=("process_output",)),
    # process_output's answers go through np.allclose: an empty array per shot broadcasts to
    # nothing and passes
    "2023/office_hijinks_500": RecordCheck(("circuit",), values=("process_output",),
                                           binary=("process_output",),
                                           value_rules=(("process_output", "number"),)),
    "2024/fireworks_qutropolis": RecordCheck(("is_safe_configuration",)),
    # GHZ_fidelity (classical) computes the output: the program's output is compared
    "2024/GHZ_inn": RecordCheck(("GHZ_circuit",), rerun=False, expand=False),
    "2024/hockey_night_cave": RecordCheck(("save_percentage",), expand=False),
    "2024/market_quantum_trinkets": RecordCheck(("cloning_machine",), rerun=False, expand=False),
    "2024/to_view_or_not_to_view": RecordCheck(("or_circuit",)),
    "2024/wormhole_airdrome": RecordCheck(("wormhole_teleportation",), expand=False,
                                          classes=("fSim", "SQRTX", "SQRTY", "Wormhole")),
}


def template_statements(problem: Any) -> str:
    """The template's own top-level statements inside its editable chunks (``dev = ...`` placed
    where the contestant writes helpers): the stand-ins' decorators may need them. Template text
    only, each guarded (a statement that needs the contestant's code is skipped)."""
    out = []
    for chunk in chunks_of(problem):
        if chunk.kind != "editable":
            continue
        try:
            tree = _parse(chunk.text)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)):
                body = "\n".join("    " + ln for ln in ast.unparse(node).splitlines())
                out.append(f"try:\n{body}\nexcept Exception:\n    pass\n")
    return "\n".join(out)


def decorators(problem: Any, names: tuple[str, ...]) -> dict[str, list[str]]:
    """The decorators the template puts on each of ``names`` (``["qml.qnode(dev)"]``): the
    stand-in of a QNode is a QNode of the template's own device, never the solution's."""
    out: dict[str, list[str]] = {}
    for chunk in chunks_of(problem):
        if chunk.kind != "editable":
            continue
        try:
            tree = _parse(chunk.text)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in names and node.decorator_list:
                out[node.name] = [ast.unparse(d) for d in node.decorator_list]
    return out
