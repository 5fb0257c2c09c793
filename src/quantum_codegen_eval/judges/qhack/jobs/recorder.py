"""The program's side of a recorded replay: recorders on the solution's functions while the
official ``run()`` and ``check()`` run, each call stored as data (``judges/qhack/record.py``
describes the format and :mod:`.replay` reads it)."""

import itertools
import json

from . import payload, statecache
from .callkey import call_key, is_oracle, mv_keys
from .circuit_emit import multi_controlled
from .gates import REBUILDABLE
from .seeding import rng_restore, rng_state

MAX_CALLS = 100000
MAX_OPS = 20000
_MEAS = {"ProbabilityMP": "probs", "StateMP": "state", "DensityMatrixMP": "density_matrix",
         "ExpectationMP": "expval", "VarianceMP": "var", "SampleMP": "sample",
         "CountsMP": "counts"}
_NAMED_OBS = ("PauliX", "PauliY", "PauliZ", "Hadamard", "Identity")
_WRAPPERS = ("Conditional", "Controlled", "ControlledOp", "Adjoint", "AdjointOperation",
             "AdjointOpObs", "AdjointObs", "Pow", "PowOperation", "PowOpObs", "PowObs")


def _queued(fn, args, kwargs):
    """Call ``fn`` in the active queuing context (nothing is re-queued) and return what it
    returned and the operations and measurements it queued there (``None`` outside any)."""
    import pennylane as qml

    ret, items = statecache.queued_by(fn, args, kwargs)
    if items is None:
        return ret, None, None
    new = qml.queuing.AnnotatedQueue()
    for obj, info in items:
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


def _enc_obs(o, depth=0):
    if depth > 8:
        raise ValueError("observable nested too deeply")
    t = type(o).__name__
    if t in _NAMED_OBS:
        return ["N", t, _wires(o.wires)]
    if t == "Hermitian":
        return ["H", _wires(o.wires), payload.encode(o.parameters[0])]
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


class _OpenOracle:
    # calls go through the recorder's proxy; every attribute (closure, code, defaults, name) is
    # the harness oracle's own, as the solution saw it in the contest
    __slots__ = ("_qce_call", "_qce_oracle")

    def __init__(self, call, oracle):
        self._qce_call, self._qce_oracle = call, oracle

    def __call__(self, *args, **kwargs):
        return self._qce_call(*args, **kwargs)

    def __getattr__(self, name):
        if name in _OpenOracle.__slots__:  # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(self._qce_oracle, name)


class Recorder:
    """Recorders for one program's job. ``spec`` (``RecordCheck.spec()``): ``qfuncs``,
    ``values``, ``binary``, ``expand``, ``classes``, ``sequence`` and ``open_oracle`` of the
    challenge's record check."""

    def __init__(self, spec):
        self.qfuncs = tuple(spec["qfuncs"])
        self.value_funcs = tuple(spec["values"])
        self.binary = tuple(spec["binary"])
        self.expand = bool(spec["expand"])
        self.keep = set(REBUILDABLE) | set(spec["classes"])
        self.calls, self.values, self.seen, self.oracle_ops = {}, {}, {}, {}
        # ``sequence``: every call in order (of a quantum function or a classical one), as an
        # index into its function's distinct (key, entry or value) rows
        self.sequence = bool(spec.get("sequence"))
        self.rows, self.order = {}, {}
        self.open_oracle = bool(spec.get("open_oracle"))
        # the harness's oracle matrices, memoized where the challenge declares them pure
        self.memo = statecache.OracleMemo() if spec.get("oracle_memo") else None
        self.count = 0

    def _oracle_proxy(self, f, pos):
        def oracle(*a, **k):
            r, ops, _ = _queued(f, a, k)
            for o in ops or ():
                self.oracle_ops[id(o)] = (pos, o)
            if self.memo is not None and ops:
                self.memo.pin(ops)
            return r
        return _OpenOracle(oracle, f) if self.open_oracle else oracle

    def _expanded(self, ops, depth=0):
        import pennylane as qml
        from pennylane.measurements import MidMeasureMP

        out = []
        for o in ops:
            plain = not isinstance(o, MidMeasureMP) and id(o) not in self.oracle_ops and \
                type(o).__name__ not in _WRAPPERS + ("MultiControlledX",)
            if plain and depth < 10 and str(o.name) not in self.keep:
                try:
                    with qml.QueuingManager.stop_recording():  # never into the circuit
                        parts = o.decomposition()
                except Exception:
                    parts = None
                if parts:
                    out.extend(self._expanded(parts, depth + 1))
                    continue
            out.append(o)
        return out

    def _enc_op(self, o, refs, depth=0):
        import pennylane as qml
        from pennylane.measurements import MidMeasureMP

        if depth > 12:
            raise ValueError("operations nested too deeply")
        if id(o) in self.oracle_ops:
            return ["ORACLE", self.oracle_ops[id(o)][0], _wires(o.wires)]
        if isinstance(o, MidMeasureMP):
            ref = ["local", len({id(r) for r in refs.values() if r[0] == "local"})]
            refs[id(o)] = ref
            if isinstance(getattr(o, "id", None), str):
                refs[o.id] = ref
            post = getattr(o, "postselect", None)
            return ["M", _wires(o.wires), bool(getattr(o, "reset", False)),
                    None if post is None else int(post)]
        t = type(o).__name__
        if t == "Conditional":
            mrefs = [refs.get(i) for i in mv_keys(o.meas_val)]
            if any(r is None for r in mrefs):
                raise ValueError("a condition on a measurement made outside this call")
            table = [[int(b) for b in k] for k, v in o.meas_val.branches.items() if v]
            then = getattr(o, "then_op", None) or o.base  # renamed in newer PennyLane
            return ["IF", mrefs, table, self._enc_op(then, refs, depth + 1)]
        if t == "MultiControlledX" and self.expand:
            # whole, as the contest's simulator applied it: its matrix would be a QubitUnitary
            # (fireworks_qutropolis rejects one), its decomposition fails without work wires
            controls, values, base = multi_controlled(o)
            return ["C", _wires(controls), values, self._enc_op(base, refs, depth + 1)]
        if t in ("Controlled", "ControlledOp"):
            return ["C", _wires(o.control_wires), [int(v) for v in o.control_values],
                    self._enc_op(o.base, refs, depth + 1)]
        if t in ("Adjoint", "AdjointOperation", "AdjointOpObs", "AdjointObs"):
            return ["ADJ", self._enc_op(o.base, refs, depth + 1)]
        if t in ("Pow", "PowOperation", "PowOpObs", "PowObs"):
            return ["POW", float(o.z), self._enc_op(o.base, refs, depth + 1)]
        if self.expand and str(o.name) not in self.keep:
            # e.g. under qml.adjoint/qml.ctrl: its decomposition
            try:
                with qml.QueuingManager.stop_recording():
                    parts = o.decomposition()
            except Exception:
                parts = None
            if parts:
                return ["SEQ", [self._enc_op(p, refs, depth + 1) for p in parts]]
            try:  # no decomposition (0.28's MultiControlledX without work wires): its matrix
                if 0 < len(o.wires) <= 8:
                    with qml.QueuingManager.stop_recording():
                        mat = o.matrix()
                    return ["QubitUnitary", _wires(o.wires), [payload.encode(mat)]]
            except Exception:
                pass
        return [str(o.name), _wires(o.wires), [payload.encode(p) for p in o.parameters]]

    def _entry(self, ops, meas, ret, args, kwargs):
        from pennylane.measurements import MeasurementValue

        refs = {}
        for pos, a in list(enumerate(args)) + list(kwargs.items()):
            if isinstance(a, MeasurementValue):
                for j, i in enumerate(mv_keys(a)):
                    refs[i] = ["arg", pos, j]
        names = [str(o.name) for o in ops]
        if self.expand:
            ops = self._expanded(ops)
        if len(ops) > MAX_OPS:
            raise ValueError(f"more than {MAX_OPS} operations")
        enc_ops = [self._enc_op(o, refs) for o in ops]
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

    def _qfunc_recorder(self, name, fn):
        def recorded(*args, **kwargs):
            table = self.calls.setdefault(name, {})
            key = call_key(args, kwargs)
            args = [self._oracle_proxy(a, i) if is_oracle(a) else a for i, a in enumerate(args)]
            kwargs = {k: self._oracle_proxy(v, k) if is_oracle(v) else v
                      for k, v in kwargs.items()}
            state = rng_state()
            try:
                ret, ops, meas = _queued(fn, args, kwargs)
            finally:
                rng_restore(state)
            if ops is not None and self.count < MAX_CALLS and (
                    self.sequence or key not in table):
                self.count += 1
                try:
                    entry = self._entry(ops, meas, ret, args, kwargs)
                except Exception as exc:
                    entry = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
                if self.sequence:
                    self._in_order(name, key, entry)
                else:
                    table[key] = entry
            return ret

        recorded.__name__ = getattr(fn, "__name__", name)
        return recorded

    def _in_order(self, name, key, entry):
        index, rows = self.rows.setdefault(name, ({}, []))
        text = json.dumps([key, entry], sort_keys=True)
        if text not in index:
            index[text] = len(rows)
            rows.append([key, entry])
        self.order.setdefault(name, []).append(index[text])

    def _value_recorder(self, name, fn):
        def recorded(*args, **kwargs):
            state = rng_state()
            try:
                ret = fn(*args, **kwargs)
            finally:
                rng_restore(state)
            table = self.values.setdefault(name, {})
            key = call_key(args, kwargs)
            self.seen.setdefault(name, (args, kwargs))
            if (self.sequence or key not in table) and self.count < MAX_CALLS:
                self.count += 1
                try:  # range(8): a list
                    value = payload.encode(list(ret) if type(ret) is range else ret)
                except Exception as exc:
                    value = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
                if self.sequence:
                    self._in_order(name, key, value)
                else:
                    table[key] = value
            return ret

        recorded.__name__ = getattr(fn, "__name__", name)
        return recorded

    def install(self, g):
        """Recorders on the solution functions in ``g`` (the program's globals), before
        ``run()``."""
        for name in self.qfuncs:
            fn = g.get(name)
            if fn is None:
                continue
            if hasattr(fn, "func") and hasattr(fn, "device"):  # a QNode: its quantum function
                fn.func = self._qfunc_recorder(name, fn.func)
            else:
                g[name] = self._qfunc_recorder(name, fn)
        for name in self.value_funcs:
            if callable(g.get(name)):
                g[name] = self._value_recorder(name, g[name])

    def collect(self, g):
        """The record, after ``check()``."""
        for name in self.binary:  # a function of one 0/1 array (a shot): its value on every
            seen = self.seen.get(name)  # bit pattern
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
        if self.sequence:
            rows = {n: r for n, (_, r) in self.rows.items()}
            return {"calls": {n: rows[n] for n in self.qfuncs if n in rows},
                    "values": {n: rows[n] for n in self.value_funcs if n in rows},
                    "order": self.order}
        return {"calls": {n: [[k, v] for k, v in t.items()] for n, t in self.calls.items()},
                "values": {n: [[k, v] for k, v in t.items()] for n, t in self.values.items()}}
