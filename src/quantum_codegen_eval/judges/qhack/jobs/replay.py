"""The trusted side of a recorded replay: the solution's functions in the harness's namespace
replaced by stand-ins that rebuild the circuits the program recorded (:mod:`.recorder`) or return
the values it recorded, then the official ``run()`` and ``check()`` (``judges/qhack/record.py``
describes it)."""

import functools
import json
import operator

import numpy as np

from . import payload, statecache
from .callkey import call_key, is_oracle, mv_items
from .gates import REBUILDABLE
from .seeding import seed_all

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


class _Ctx:
    """One replayed call: its arguments, the measurements it made so far, and where operation
    classes come from (``find_class``: PennyLane's rebuildable ones and the harness's own)."""

    def __init__(self, args, kwargs, find_class):
        self.args, self.kwargs, self.local, self.find_class = args, kwargs, [], find_class

    def arg(self, pos):
        if isinstance(pos, str):
            assert pos in self.kwargs, "malformed argument reference"
            return self.kwargs[pos]
        assert type(pos) is int and 0 <= pos < len(self.args), "malformed argument reference"
        return self.args[pos]


def _condition(refs, table, ctx):
    from pennylane.measurements import MeasurementValue

    assert isinstance(refs, list) and isinstance(table, list) and 0 < len(refs) <= 16
    items = []
    for ref in refs:
        assert isinstance(ref, list) and ref and ref[0] in ("arg", "local"), "malformed condition"
        if ref[0] == "arg":
            mv = ctx.arg(ref[1])
            assert isinstance(mv, MeasurementValue), \
                "a condition on an argument that is not a measurement"
            got = mv_items(mv)
            assert type(ref[2]) is int and 0 <= ref[2] < len(got), "malformed condition"
            items.append(got[ref[2]])
        else:
            assert type(ref[1]) is int and 0 <= ref[1] < len(ctx.local), "malformed condition"
            items.append(ctx.local[ref[1]])
    truth = {tuple(b) for b in table if isinstance(b, list) and len(b) == len(refs)}

    def fn(*bits):
        return tuple(int(b) for b in bits) in truth

    return MeasurementValue(items, fn)


def _build(item, ctx, oracles, depth=0):
    import pennylane as qml

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
        ctx.local.append(mv_items(mv)[0])
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
        cls = ctx.find_class(kind)
        params = [payload.decode(p) for p in item[2]]
        cls(*params, wires=_ws(item[1]))


def _queuing(oracle, queued):
    """``oracle``, noting in ``queued`` what each of its calls queued (``None``: outside a
    queuing context)."""
    def call(*args, **kwargs):
        ret, ops = statecache.queued_by(oracle, args, kwargs)
        if ops is None:
            queued.append(None)
        else:
            queued.extend(o for o, _ in ops)
        return ret
    return call


def _obs(item, depth=0):
    import pennylane as qml

    assert isinstance(item, list) and item and depth <= 8, "malformed observable"
    kind = item[0]
    if kind == "N":
        assert item[1] in _NAMED_OBS, "malformed observable"
        return getattr(qml, item[1])(wires=_ws(item[2]))
    if kind == "H":
        return qml.Hermitian(payload.decode(item[2]), wires=_ws(item[1]))
    if kind == "T":
        return functools.reduce(operator.matmul, [_obs(x, depth + 1) for x in item[1]])
    if kind == "S":
        return qml.Hamiltonian([_num(c) for c in item[1]], [_obs(x, depth + 1) for x in item[2]])
    if kind == "+":
        return functools.reduce(operator.add, [_obs(x, depth + 1) for x in item[1]])
    if kind == "*":
        return _num(item[1]) * _obs(item[2], depth + 1)
    raise AssertionError("malformed observable")


def _measure(item):
    import pennylane as qml

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


def _replay(name, entry, args, kwargs, forbid, find_class, cache=None, call=None):
    """The recorded circuit ``entry`` rebuilt for this call; with ``cache`` (a
    :class:`.statecache.StateCache`), the oracles' operations are pinned and the circuit is
    announced to it as recorded call ``call``."""
    assert isinstance(entry, dict), f"{name}(): malformed record"
    assert "error" not in entry, f"{name}() could not be recorded: {str(entry['error'])[:300]}"
    ops, meas, names = entry.get("ops"), entry.get("meas"), entry.get("names")
    assert isinstance(ops, list) and len(ops) <= MAX_OPS and isinstance(meas, list) and \
        len(meas) <= 64 and isinstance(names, list), f"{name}(): malformed record"
    for bad in forbid:
        assert bad not in names, f"{name}() uses {bad}"
    ctx = _Ctx(args, kwargs, find_class)
    oracles = {p: a for p, a in list(enumerate(args)) + list(kwargs.items()) if is_oracle(a)}
    queued = []
    if cache is not None:
        oracles = {p: _queuing(f, queued) for p, f in oracles.items()}
    for item in ops:
        _build(item, ctx, oracles)
    built = [_measure(m) for m in meas]
    if cache is not None:
        cacheable = None not in queued
        cache.expect(call, queued,
                     statecache.pin_oracle_ops(queued, cache.memo) if cacheable else None)
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


def _sequence(record, field, names):
    """A ``sequence`` record: per function, its distinct ``[key, entry]`` rows (``[key, value]``
    in ``values``) and the row of each call in order."""
    got, order = record.get(field), record.get("order")
    assert isinstance(got, dict) and isinstance(order, dict), "no record"
    out = {}
    for name in names:
        rows, seq = got.get(name, []), order.get(name, [])
        assert isinstance(rows, list) and isinstance(seq, list), "malformed record"
        for row in rows:
            assert isinstance(row, list) and len(row) == 2 and isinstance(row[0], str), \
                "malformed record"
        assert all(type(i) is int and 0 <= i < len(rows) for i in seq), "malformed record"
        out[name] = (rows, seq)
    return out


def _by_key(name, table):
    """The recorded entry (and its identity) of a call: the one recorded for its arguments."""
    def entry(key):
        assert key in table, f"{name}(): a call the program did not record ({key[:120]})"
        return table[key], key

    return entry


def _in_order(name, rows, order):
    """The recorded entry or value (and its identity) of a call: the n-th call's is the n-th
    recorded call's, made with the same arguments."""
    made = [0]

    def entry(key):
        n = made[0]
        made[0] += 1
        assert n < len(order), f"{name}(): a call the program did not record (call {n + 1})"
        row = rows[order[n]]
        assert row[0] == key, f"{name}(): call {n + 1} was recorded with other arguments"
        return row[1], order[n]

    return entry


def _real(x):
    if isinstance(x, np.ndarray) and x.shape == () and x.dtype.kind in "iuf":
        x = x.item()
    return type(x) in (int, float) and bool(np.isfinite(x))


def _value_rule(name, value, rule):
    """What the template asks of a classical helper's value (a value that makes the official
    check vacuous, such as an empty array broadcast against the answers, is a wrong answer)."""
    if rule == "number":
        assert _real(value), f"{name}() must return a finite real number"
    else:  # ["numbers", n]
        n = rule[1]
        seq = value.tolist() if isinstance(value, np.ndarray) and value.ndim == 1 else value
        assert isinstance(seq, (list, tuple)) and len(seq) == n and all(map(_real, seq)), \
            f"{name}() must return {n} finite real numbers"


def _value_stand_in(name, values, rule):
    """``values(key)``: the recorded value of a call and its identity."""
    def replay(*args, **kwargs):
        got, _ = values(call_key(args, kwargs))
        assert not (isinstance(got, dict) and "error" in got), f"{name}() could not be recorded"
        value = payload.decode(got)
        if rule is not None:
            _value_rule(name, value, rule)
        return value

    replay.__name__ = name
    return replay


def _same_shape(out, expected):
    try:
        want = json.loads(expected)
    except (TypeError, ValueError):
        return
    if not isinstance(want, (int, float, list)) or isinstance(want, bool):
        return
    assert isinstance(out, str), "run() did not return a string"
    got = json.loads(out)
    assert np.shape(got) == np.shape(want), "the output does not have the expected shape"


class Replay:
    """The recorded-replay check of one challenge in the harness's namespace ``ns`` (its
    imports, given code, template statements and the official ``run()``/``check()``). ``spec``
    (``RecordCheck.spec(decorators)``): ``qfuncs``, ``values``, ``rerun``, ``forbid``,
    ``classes``, ``hidden_draws``, ``value_rules``, ``sequence`` and the template's
    ``decorators``."""

    def __init__(self, ns, spec):
        self.ns, self.spec = ns, spec
        self.official_check = ns["check"]
        self.caches = {}  # id(device) -> statecache.StateCache (``spec["state_cache"]``)
        self.memo = statecache.OracleMemo(enabled=bool(spec.get("oracle_memo")))

    def _class(self, name):
        import pennylane as qml

        assert isinstance(name, str), "malformed operation"
        cls = getattr(qml, name, None) if name in REBUILDABLE else (
            self.ns.get(name) if name in self.spec["classes"] else None)
        assert isinstance(cls, type) and issubclass(cls, qml.operation.Operator), \
            f"the operation {name[:60]} cannot be rebuilt from data (use the template's gates)"
        return cls

    def _qfunc_stand_in(self, name, entries, recorded):
        """``entries(key)``: the recorded entry of a call and its identity; ``recorded``: every
        recorded entry."""
        forbid = self.spec["forbid"]
        cache = []  # the device's state cache, once the stand-in is known to be its QNode

        def replay(*args, **kwargs):
            entry, which = entries(call_key(args, kwargs))
            return _replay(name, entry, args, kwargs, forbid, self._class,
                           cache[0] if cache else None, (name, which))

        replay.__name__ = name
        fn = replay
        decos = self.spec["decorators"].get(name, ())
        for deco in reversed(decos):
            fn = eval(deco, self.ns)(fn)  # template text: the template's own decorator
        dev = getattr(fn, "device", None)
        if self.spec.get("state_cache") and len(decos) == 1 and \
                getattr(fn, "func", None) is replay and statecache.StateCache.usable(dev):
            if id(dev) not in self.caches:
                self.caches[id(dev)] = statecache.StateCache(dev, self.memo)
            cache.append(self.caches[id(dev)])
            single = all(isinstance(e, dict) and isinstance(e.get("meas"), list) and
                         all(isinstance(m, list) and len(m) == 3 and m[2] is None
                             for m in e["meas"]) for e in recorded)
            fn = statecache.cached_qnode(fn, cache[0], single)
        return fn

    def check(self, data, expected, test):
        """``test``: the test's ``input``, ``seed`` and ``hidden_seed``."""
        spec, ns = self.spec, self.ns
        assert isinstance(data, dict) and isinstance(data.get("record"), dict), "nothing recorded"
        record = data["record"]
        for cache in self.caches.values():
            cache.reset()
        rules = dict(spec["value_rules"])
        if spec.get("sequence"):
            for name, (rows, order) in _sequence(record, "calls", spec["qfuncs"]).items():
                ns[name] = self._qfunc_stand_in(name, _in_order(name, rows, order),
                                                [e for _, e in rows])
            for name, (rows, order) in _sequence(record, "values", spec["values"]).items():
                ns[name] = _value_stand_in(name, _in_order(name, rows, order), rules.get(name))
        else:
            for name, table in _table(record, "calls", spec["qfuncs"]).items():
                ns[name] = self._qfunc_stand_in(name, _by_key(name, table), table.values())
            for name, table in _table(record, "values", spec["values"]).items():
                ns[name] = _value_stand_in(name, _by_key(name, table), rules.get(name))
        seed = test.get("seed", 0)  # the judge's seed for this test, as in the program's job
        if spec["hidden_draws"]:  # the harness's draws reach no recorded call: a seed the
            seed = test.get("hidden_seed", 0)  # program never saw
        if spec["rerun"]:
            seed_all(seed)
            out = ns["run"](test.get("input"))
            _same_shape(out, expected)
        else:
            out = payload.decode(data.get("output"))
        seed_all(seed + 1)
        return self.official_check(out, expected)
