"""The transport is total: hostile payloads give a malformed-payload error, never a crash.

The decoder runs in the trusted check process on bytes the program produced; whatever they are,
``decode`` either rebuilds a value or raises ``PayloadError``/``UnsupportedValue`` (the proxy
turns those into the program's ``RE``), and the proxy's answer to a hostile frame is a
``ProxyFailure`` or the program's own exception. Seeded: the same cases every run. Values a
program can legitimately return (huge ints, NaN, dates, long doubles, strings arrays, long or
endless iterators, circuits QPY cannot read back) cross with their value.
"""

from __future__ import annotations

import base64
import collections
import decimal
import fractions
import itertools
import json
import random

import numpy as np
import pytest

from quantum_codegen_eval.judges.jobs import wire
from quantum_codegen_eval.judges.qiskit_humaneval.jobs import trusted
from quantum_codegen_eval.judges.qiskit_humaneval.jobs.codec import CODEC

SEED = 20261203


def _valid_payloads() -> list:
    from qiskit import QuantumCircuit
    from qiskit.circuit.library import CUGate
    from qiskit.quantum_info import Operator, SparsePauliOp, Statevector

    qc = QuantumCircuit(2, 1)
    qc.h(0)
    qc.cx(0, 1)
    qc.measure(1, 0)
    cu = QuantumCircuit(3)
    cu.append(CUGate(0.1, 0.2, 0.3, 0.4).control(1), [0, 1, 2])
    values = [qc, cu, Statevector.from_label("01"), Operator(qc.remove_final_measurements(False)),
              SparsePauliOp(["XZ", "YY"], [1, 2j]), np.arange(6).reshape(2, 3), np.float32(1.5),
              {"a": [1, (2, 3.5)], "b": {4, 5}}, 10 ** 30, -(10 ** 5000), float("nan"),
              np.datetime64("2024-01-02"), np.array(["ab", "c"]), range(3), (i for i in range(4))]
    return [CODEC.encode(v) for v in values]


def _junk(rng: random.Random, depth: int = 0):
    """A random JSON value shaped like the transport's, with hostile leaves."""
    leaves = [None, True, -1, 0, 2 ** 63, 10 ** 400, 1e308, -0.0, "", "x" * 50, "\x00\ud800",
              "nan", "-inf", "QISKIT", "!!!not base64", base64.b64encode(b"\x93NUMPY\x01\x00").decode()]
    r = rng.random()
    if depth > 6 or r < 0.35:
        return rng.choice(leaves)
    if r < 0.55:
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    tags = sorted(CODEC.decoders) + ["unsupported", "nope", ""]
    out = {"$": rng.choice(tags)}
    for key in rng.sample(["v", "x", "npy", "qpy", "dims", "data", "shape", "fields", "pubs",
                           "metadata", "edges", "nodes", "name", "dtype", "tableau", "label",
                           "entries", "num_qubits", "dt", "circuit", "result", "more", "png",
                           "array", "num_bits", "coeffs", "x", "z", "phase", "dict", "limit"],
                          rng.randrange(5)):
        out[key] = _junk(rng, depth + 1)
    return out


def _mutate(rng: random.Random, data):
    """``data`` with one random change: a field dropped or replaced, a base64 byte flipped."""
    if isinstance(data, dict) and data:
        data = dict(data)
        key = rng.choice(sorted(data))
        value = data[key]
        if isinstance(value, str) and len(value) > 8 and rng.random() < 0.6:
            raw = bytearray(base64.b64decode(value)) if key in ("npy", "qpy", "png") else None
            if raw:
                i = rng.randrange(len(raw))
                raw[i] = (raw[i] + rng.randrange(1, 256)) % 256
                data[key] = base64.b64encode(bytes(raw[:rng.randrange(1, len(raw) + 1)])).decode()
                return data
        data[key] = _mutate(rng, value) if rng.random() < 0.5 else _junk(rng)
        if rng.random() < 0.2:
            del data[key]
        return data
    if isinstance(data, list) and data:
        data = list(data)
        i = rng.randrange(len(data))
        data[i] = _mutate(rng, data[i])
        return data
    return _junk(rng)


def _cases(n: int) -> list:
    rng = random.Random(SEED)
    valid = _valid_payloads()
    return [_junk(rng) if i % 3 == 0 else _mutate(rng, rng.choice(valid)) for i in range(n)]


def test_decode_is_total_on_hostile_payloads():
    outcomes = {"value": 0, "payload": 0, "unsupported": 0}
    for data in _cases(1500):
        try:
            CODEC.decode(data)
            outcomes["value"] += 1
        except wire.WireError:
            outcomes["payload"] += 1
        except wire.UnsupportedValue:
            outcomes["unsupported"] += 1
    # the mix is part of the check: the fuzzing reaches both the decoders and their refusals
    assert outcomes["payload"] > 300 and outcomes["value"] > 100, outcomes


def test_loads_is_total_on_hostile_text():
    hostile = ["[" * 100_000, "\xff", '{"$": "ndarray", "npy": "===="}', '{"$": {"$": "int"}}',
               json.dumps({"$": "dict", "v": [[[1], 2]]}), json.dumps({"$": "set", "v": [[1]]}),
               json.dumps({"$": "graph", "root": {"$": "ref", "i": 0},
                           "nodes": [["tuple", [{"$": "ref", "i": 0}]]]}),  # a tuple in itself
               json.dumps({"$": "graph", "root": {"$": "ref", "i": 5}, "nodes": []})]
    for text in hostile:
        with pytest.raises(wire.WireError):
            CODEC.loads(text)
    # real data over a bound (an integer of more digits than the transport reads) is a limit
    # of the judge's, never a crash either (tests/core/test_wire_codec.py has the others)
    with pytest.raises(wire.TransportLimit):
        CODEC.loads('{"$": "int", "x": "' + "f" * (wire.LIMITS.int_digits + 1) + '"}')


def test_the_proxy_answers_a_hostile_frame_with_a_verdict_not_a_crash():
    rng = random.Random(SEED + 1)
    frames = [json.dumps({"ok": True, "value": d, "mutated": []}).encode() for d in _cases(300)]
    frames += [b"", b"\xff" * 9, b"[]", b'{"ok": 1}', b'{"ok": false}', b'{"ok": false, "exc": 3}',
               b'{"ok": true, "mutated": [[0, {"$": "int", "x": "zz"}]]}',
               b'{"ok": true, "mutated": "x"}', b'{"ok": false, "exc": {"type": "SystemExit"}}',
               b'{"ok": false, "exc": {"type": "' + b"A" * 10_000 + b'"}}',
               b'{"ok": true, "value": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"]
    rng.shuffle(frames)
    for payload in frames:
        proxy = trusted.Proxy(CODEC, None)
        try:
            proxy._answer(0, payload, [[1, 2]], {})
        except trusted.ProxyFailure as exc:
            assert exc.reason in ("payload", "unsupported", "limit")
        except Exception as exc:  # the program's own exception, rebuilt: a builtin or ours
            assert getattr(exc, "_qce_candidate", None), repr(exc)


@pytest.mark.parametrize("value", [
    10 ** 5000, -(2 ** 70), float("nan"), float("-inf"), np.longdouble(1) / 3,
    np.datetime64("2026-12-03T13:00"), np.timedelta64(5, "s"), np.array(["a", "bc"]),
    np.array([b"x"]), np.array(["2026-01-01"], dtype="datetime64[D]"), np.str_("s"),
    np.array(5), b"\x00\xff", bytearray(b"ab"), collections.deque([1, (2,)], maxlen=3),
    fractions.Fraction(-7, 3), decimal.Decimal("1.10"),
], ids=lambda v: f"{type(v).__name__}")
def test_values_a_program_may_return_cross_with_their_value(value):
    back = CODEC.decode(json.loads(CODEC.dumps(value)))
    if isinstance(value, np.ndarray):
        assert back.dtype == value.dtype and back.shape == value.shape
        assert back.tolist() == value.tolist()
    elif value != value:  # NaN
        assert back != back
    else:
        assert back == value and type(back) is type(value)
        assert getattr(back, "maxlen", None) == getattr(value, "maxlen", None)


def test_a_noise_model_with_relaxation_crosses_equal():
    from qiskit_aer.noise import NoiseModel, ReadoutError, depolarizing_error
    from qiskit_ibm_runtime.fake_provider import FakeManilaV2

    nm = NoiseModel.from_backend(FakeManilaV2())  # thermal relaxation: to_dict() fails on it
    nm.add_readout_error(ReadoutError([[0.9, 0.1], [0.3, 0.7]]), [4])
    nm.add_all_qubit_quantum_error(depolarizing_error(0.01, 1), ["h"])
    back = CODEC.loads(CODEC.dumps(nm))
    assert type(back) is NoiseModel and back == nm and back.basis_gates == nm.basis_gates
    assert len(back._custom_noise_passes) == len(nm._custom_noise_passes) == 1
    assert back != NoiseModel.from_backend(FakeManilaV2(), thermal_relaxation=False)


def test_a_long_iterator_crosses_lazily_and_an_endless_one_is_a_limit_only_when_read_past():
    it = CODEC.decode(CODEC.encode(itertools.count()))
    assert list(itertools.islice(it, 5)) == [0, 1, 2, 3, 4]  # a check that reads a few: fine
    with pytest.raises(wire.IteratorLimit):
        for _ in it:
            pass
    finite = CODEC.decode(CODEC.encode(iter(range(wire.LIMITS.iter_items))))
    assert sum(1 for _ in finite) == wire.LIMITS.iter_items
