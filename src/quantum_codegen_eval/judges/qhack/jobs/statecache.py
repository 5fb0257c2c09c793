"""The fast path of a recorded replay. The state cache (trusted job only): a stand-in QNode on
PennyLane's ``default.qubit`` (the device API of PennyLane <= 0.32, with ``apply``) simulates each
distinct (recorded call, oracle matrices) once; later calls reuse the state ``apply()`` reached, and
everything after it (probabilities, the shot drawn from the global NumPy stream by the device's
own ``sample_basis_states``, the measurement results) runs as before.

Why the replayed shots are bit-identical: the operations of a stand-in's circuit are a function
of the recorded call (its key in the record) except what the harness's oracles queue; the cache is
used only when every operation an oracle queued is a parameter-free instance of a harness class
(not PennyLane's), whose matrix is evaluated once per call as ``default.qubit`` does (it is then
pinned on the instance, so the device reads the same array) and is part of the key. ``apply()``
starts from the device's reset state and is deterministic, so the state is what the slow path
computes, bit for bit; no random number is drawn in it. Anything else (another decorator, an
oracle that queues PennyLane gates, an oracle operation the device expanded away, a state that
is not the reset one) runs the device's own ``apply()``.

The oracle memo (both jobs, where the challenge declares it): the harness oracle's ``matrix()``
evaluated once per class definition and wires (:class:`OracleMemo`).
"""

import numpy as np

from .callkey import call_key
from .seeding import rng_restore, rng_state

#: an operation of this package's classes is never the harness's own
_FRAMEWORK = "pennylane"


class _Pin:
    """An oracle operation's matrix, evaluated once, returned for every later ``matrix()``."""

    def __init__(self, mat):
        self.mat = mat

    def __call__(self, *args, **kwargs):
        return self.mat


def _is_data(canon):
    """Whether a call key holds only data (no object, oracle, measurement value or class)."""
    return not any(tag in canon for tag in ('"obj"', '"oracle"', '"mv"', '"cls"'))


def _class_key(cls):
    """The definition of a harness operator class as data: each attribute of its body, a
    function by its code and the values it closes over (``None``: something that is not
    data)."""
    body = vars(cls)
    if "__init__" in body or "__new__" in body:  # it may keep its arguments: not the definition
        return None
    items = []
    for name, value in sorted(body.items()):
        if name in ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__",
                    "__abstractmethods__", "_abc_impl"):  # (the ABC machinery's own)
            continue
        if isinstance(value, (classmethod, staticmethod)):
            value = value.__func__
        if callable(value) and hasattr(value, "__code__"):
            try:  # (the class itself, for super(), is the same definition)
                cells = [c.cell_contents for n, c in zip(value.__code__.co_freevars,
                                                          value.__closure__ or ())
                         if n != "__class__"]
                canon = call_key(cells, {})
            except ValueError:  # an empty cell
                return None
            if not _is_data(canon):
                return None
            items.append((name, id(value.__code__), canon,
                          call_key(list(value.__defaults__ or ()), {})))
        else:
            canon = call_key([value], {})
            if not _is_data(canon):
                return None
            items.append((name, canon))
    return tuple(items)


class OracleMemo:
    """The matrices of the harness's oracle operations, per class definition (code and the
    values its functions close over) and wires: for a harness whose oracle ``matrix()`` is a
    function of these (``RecordCheck.oracle_memo``, declared per challenge from its text)."""

    def __init__(self, enabled=True):
        self.enabled, self.mats, self.hits = enabled, {}, 0

    def key(self, o):
        if not self.enabled:
            return None
        hyper = getattr(o, "hyperparameters", None)
        if hyper:
            return None
        ck = _class_key(type(o))
        return None if ck is None else (ck, tuple(o.wires.tolist()))

    def pin(self, ops):
        """Pin the memoized matrix on each operation in ``ops`` that qualifies (see
        :func:`pin_oracle_ops`)."""
        for o in ops:
            if _qualifies(o):
                self.matrix(o)

    def matrix(self, o):
        """``o.matrix()`` (memoized); ``None`` when computing it drew random numbers (then
        nothing is pinned and the draws are undone: the device draws them where it would)."""
        key = self.key(o)
        mat = None if key is None else self.mats.get(key)
        if mat is not None:
            self.hits += 1
        else:
            import pennylane as qml

            state = rng_state()
            # the device calls it while executing, outside any queuing context: an operation
            # it creates (qml.matrix(qml.RY(...))) must not join the circuit being built
            with qml.QueuingManager.stop_recording():
                mat = o.matrix()
            if not _same_rng(state, rng_state()):
                rng_restore(state)
                return None
            if key is not None:
                self.mats[key] = mat
        o.matrix = _Pin(mat)
        return mat


def _qualifies(o):
    from pennylane.operation import Operator
    from pennylane.ops.qubit.attributes import diagonal_in_z_basis

    return isinstance(o, Operator) and type(o).__module__.split(".")[0] != _FRAMEWORK and \
        not o.data and o not in diagonal_in_z_basis  # (default.qubit reads its eigvals)


def pin_oracle_ops(ops, memo=None):
    """Pin the matrix of each operation an oracle call queued; ``None`` when one of them does
    not qualify (a PennyLane class, parameters, a diagonal gate, a matrix() that draws random
    numbers), else their key. ``memo``: an :class:`OracleMemo`."""
    if not all(_qualifies(o) for o in ops):
        return None
    memo = memo or OracleMemo(enabled=False)
    key = []
    for o in ops:
        mat = memo.matrix(o)
        if mat is None:
            return None
        arr = np.asarray(mat)
        key.append((type(o).__qualname__, tuple(o.wires.tolist()), arr.dtype.str, arr.shape,
                    arr.tobytes()))
    return tuple(key)


def _same_rng(a, b):
    (py_a, np_a), (py_b, np_b) = a, b
    return py_a == py_b and all(np.array_equal(x, y) for x, y in zip(np_a, np_b))


def _walk(op):
    """``op`` and the operations it wraps (``qml.ctrl``, ``qml.adjoint``, ``qml.pow``,
    ``qml.cond``)."""
    while op is not None:
        yield op
        op = getattr(op, "base", None) or getattr(op, "then_op", None)


class StateCache:
    """The cache of one ``default.qubit`` device, installed on its ``apply``."""

    def __init__(self, dev, memo=None):
        self.dev, self.apply_slow, self.memo = dev, dev.apply, memo
        self.fresh = dev._create_basis_state(0)
        self.states = {}
        self.pending = None
        self.hits = self.misses = 0
        dev.apply = self.apply

    @staticmethod
    def usable(dev):
        """The device API this cache knows (default.qubit before PennyLane's new device API)."""
        return getattr(dev, "short_name", None) == "default.qubit" and \
            hasattr(dev, "_create_basis_state") and hasattr(dev, "_apply_operation") and \
            callable(getattr(dev, "apply", None))

    def expect(self, call, oracle_ops, oracle_key):
        """The stand-in built the circuit of recorded call ``call``; ``oracle_ops`` are what its
        oracles queued (pinned, keyed by ``oracle_key``; ``None``: not cacheable)."""
        self.pending = None if oracle_key is None else (call, oracle_ops, oracle_key)

    def clear(self):
        self.pending = None

    def reset(self):
        """Forget the states (a new test: a new record)."""
        self.states, self.pending = {}, None

    def apply(self, operations, rotations=None, **kwargs):
        pending, self.pending = self.pending, None
        key = None if pending is None else self._key(pending, operations, rotations or [])
        if key is None:
            return self.apply_slow(operations, rotations=rotations, **kwargs)
        hit = self.states.get(key)
        if hit is not None:
            self.hits += 1
            self.dev._pre_rotated_state, self.dev._state = hit[0].copy(), hit[1].copy()
            return None
        self.misses += 1
        out = self.apply_slow(operations, rotations=rotations, **kwargs)
        self.states[key] = (self.dev._pre_rotated_state.copy(), self.dev._state.copy())
        return out

    def _key(self, pending, operations, rotations):
        call, oracle_ops, oracle_key = pending
        state = self.dev._state
        if not (isinstance(state, np.ndarray) and state.dtype == self.fresh.dtype and
                np.array_equal(state, self.fresh)):
            return None
        want = {id(o) for o in oracle_ops}
        seen = set()
        shape = []
        for op in list(operations) + list(rotations):
            for o in _walk(op):
                if id(o) in want:
                    seen.add(id(o))
            shape.append((type(op).__name__, str(op.name), tuple(op.wires.tolist())))
        if seen != want:
            return None
        return call, oracle_key, len(operations), tuple(shape)


def queued_by(fn, args, kwargs):
    """Call ``fn`` in the active queuing context (nothing is re-queued); what it returned and
    what it queued there, as ``(object, annotations)`` pairs in queue order (``None`` outside any
    context)."""
    import pennylane as qml

    ctx = qml.QueuingManager.active_context()
    if ctx is None:
        return fn(*args, **kwargs), None
    # keys are the objects themselves (0.28) or identity wrappers around them (later)
    before = {id(getattr(k, "obj", k)) for k in ctx.keys()}
    ret = fn(*args, **kwargs)
    new = [(getattr(k, "obj", k), info) for k, info in list(ctx.items())]
    return ret, [(o, info) for o, info in new if id(o) not in before]


def cached_qnode(qnode, cache, single_tape):
    """``qnode`` (the stand-in under the template's decorator) whose calls end with no pending
    circuit: a cache entry is used only by the execution of the circuit built in the same call.

    ``single_tape``: no recorded circuit measures an observable, so the device never splits one
    into several tapes; PennyLane's default execution cache (``cache=True``: a new cache per
    batch, here of one tape, which can never hit) is then turned off, which only skips hashing
    the tape on every call."""
    base = type(qnode)
    if single_tape and qnode.execute_kwargs.get("cache") is True:
        qnode.execute_kwargs["cache"] = False

    class CachedQNode(base):
        def __call__(self, *args, **kwargs):
            cache.clear()
            try:
                return base.__call__(self, *args, **kwargs)
            finally:
                cache.clear()

    CachedQNode.__name__ = CachedQNode.__qualname__ = base.__name__
    qnode.__class__ = CachedQNode
    return qnode
