"""judges/jobs/wire*.py, the one wire codec: seeded random values cross unchanged (both policies,
numpy and Qiskit extensions), seeded corruptions of real payloads give ``WireError`` /
``UnsupportedValue`` and nothing else, forged sizes cost no memory, and the codec runs in the
oldest era interpreter (Python 3.9, numpy 1.20)."""

from __future__ import annotations

import base64
import collections
import decimal
import fractions
import json
import math
import random
import subprocess
import tracemalloc

import numpy as np
import pytest

from quantum_codegen_eval.judges import _embed
from quantum_codegen_eval.judges.jobs import wire, wire_numpy
from quantum_codegen_eval.judges.qhack.jobs import payload as qhack_codec
from quantum_codegen_eval.judges.qiskit_humaneval.jobs.codec import CODEC as HUMANEVAL

SEED = 20261203
PLAIN = wire.Codec((wire_numpy,))
CODECS = {"objects": PLAIN, "opaque": qhack_codec.CODEC, "qiskit": HUMANEVAL}
DTYPES = ["<i1", "<i8", ">i4", "<u2", "<u8", "<f2", "<f4", ">f8", "<c8", "<c16", "|b1", "<U3",
          "|S2", "<M8[s]", "<m8[ms]"]


def _array(rng: random.Random):
    dtype = np.dtype(rng.choice(DTYPES))
    shape = tuple(rng.randrange(4) for _ in range(rng.randrange(4)))
    size = math.prod(shape)
    raw = bytes(rng.randrange(256) for _ in range(size * dtype.itemsize))
    arr = np.frombuffer(raw, dtype=dtype).reshape(shape) if size else np.zeros(shape, dtype)
    return arr.T if rng.random() < 0.3 else arr  # not C-contiguous too


def _leaf(rng: random.Random, opaque: bool):
    kind = rng.randrange(16)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 2**53 - 1, 2**53, -(2**70), 10**400, rng.randrange(-9, 9)])
    if kind == 2:
        return rng.choice([0.0, -0.0, 1e308, 5e-324, math.inf, -math.inf, math.nan, rng.random()])
    if kind == 3:
        return complex(rng.choice([1.5, math.nan, -math.inf]), rng.random())
    if kind == 4:
        return "".join(chr(rng.choice([65, 0, 0x263A, 0x1F600, 0xD800, 34, 92]))
                       for _ in range(rng.randrange(6)))
    if kind == 5:
        return rng.choice([b"", b"\x00\xff", bytearray(b"ab")])
    if kind == 6:
        return range(rng.randrange(-3, 3), rng.randrange(5), rng.choice([1, 2, -1]))
    if kind == 7:
        return fractions.Fraction(rng.randrange(-9, 9), rng.randrange(1, 9))
    if kind == 8:
        return decimal.Decimal(rng.choice(["1.10", "-0", "1e-999", "NaN", "Infinity"]))
    if kind in (9, 10, 11):
        return _array(rng)
    if kind == 12:
        scalar = _array(rng).reshape(-1)
        return scalar[0] if scalar.size else np.float32(2.5)
    if kind == 13:
        return np.array(rng.random()) if rng.random() < 0.5 else np.longdouble(1) / 3
    if kind == 14 and opaque:
        return np.array([1, "a", None], dtype=object)
    return rng.randrange(100)


def _value(rng: random.Random, opaque: bool, depth: int = 0):
    if depth > 4 or rng.random() < 0.4:
        return _leaf(rng, opaque)
    kind = rng.randrange(7)
    items = [_value(rng, opaque, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 0:
        return items
    if kind == 1:
        return tuple(items)
    keys = [rng.choice([1, "k", (1, "t"), None, 2.5, frozenset({3})]) for _ in items]
    if kind == 2:
        return dict(zip(keys, items, strict=True))
    if kind == 3:
        return set(keys)
    if kind == 4:
        return frozenset(keys)
    if kind == 5:
        return collections.deque(items, maxlen=rng.choice([None, 5]))
    return {"nested": items}


def _same(a, b) -> bool:
    """Equal in value and type (arrays: dtype, shape and bytes; NaN equals NaN)."""
    if isinstance(a, np.ndarray):
        if a.dtype == object:
            return (isinstance(b, np.ndarray) and b.shape == a.shape
                    and all(_same(x, y) for x, y in zip(a.reshape(-1), b.reshape(-1), strict=True)))
        return (type(b) is np.ndarray and a.dtype == b.dtype and a.shape == b.shape
                and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes())
    if type(a) is not type(b):
        return False
    if isinstance(a, np.generic):  # by text: a long double's padding bytes are arbitrary
        return a.dtype == b.dtype and repr(a) == repr(b)
    if isinstance(a, (float, complex)):
        return repr(a) == repr(b)
    if isinstance(a, (list, tuple, collections.deque)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True)) and \
            getattr(a, "maxlen", None) == getattr(b, "maxlen", None)
    if isinstance(a, dict):
        return len(a) == len(b) and all(k in b and _same(v, b[k]) for k, v in a.items())
    if isinstance(a, decimal.Decimal):
        return str(a) == str(b)
    return a == b


def _as_opaque_sees(value):
    """What an ``opaque`` codec gives back: numpy scalars of plain dtypes as Python numbers."""
    if isinstance(value, np.generic) and value.dtype.kind in "biufc":
        return value.item()
    if isinstance(value, (list, tuple, collections.deque)):
        out = [_as_opaque_sees(v) for v in value]
        return type(value)(out) if not isinstance(value, collections.deque) else \
            collections.deque(out, maxlen=value.maxlen)
    if type(value) is dict:
        return {k: _as_opaque_sees(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("policy", ["objects", "opaque"])
def test_random_values_cross_unchanged(policy):
    rng = random.Random(SEED)
    codec = CODECS[policy]
    for i in range(400):
        value = _value(rng, policy == "opaque")
        text = json.dumps(codec.encode(value), allow_nan=False)  # JSON-safe: no NaN literal
        back = codec.decode(json.loads(text))
        want = _as_opaque_sees(value) if policy == "opaque" else value
        assert _same(want, back), (i, value, back)
        assert codec.loads(codec.dumps(value)) is not None or back is None


def test_deep_and_self_containing_values_cross_as_graphs():
    deep: list = []
    for _ in range(3 * wire.LIMITS.depth):
        deep = [deep, (1, "x")]
    loop: list = [1]
    loop.append(loop)
    for codec in (PLAIN, qhack_codec.CODEC):
        assert codec.decode(json.loads(json.dumps(codec.encode(deep)))) == deep
        back = codec.decode(codec.encode(loop))
        assert back[0] == 1 and back[1] is back


def test_unknown_objects_follow_the_codec_policy():
    class Thing:
        def __repr__(self):
            return "Thing()"

    with pytest.raises(wire.UnsupportedValue, match="Thing"):
        PLAIN.decode(PLAIN.encode([1, Thing()]))
    back = qhack_codec.decode(qhack_codec.encode([1, Thing()]))
    assert back[0] == 1 and isinstance(back[1], wire.Opaque) and back[1] != back[1]
    assert "Thing()" in repr(back[1])
    with pytest.raises(wire.UnsupportedValue, match="object"):  # object arrays: opaque only
        PLAIN.decode({"$": "objarray", "shape": [1], "v": [1]})


def _valid_payloads() -> list:
    from qiskit import QuantumCircuit
    from qiskit.quantum_info import Operator, SparsePauliOp, Statevector

    qc = QuantumCircuit(2, 1)
    qc.h(0)
    qc.cx(0, 1)
    qc.measure(1, 0)
    rng = random.Random(SEED + 1)
    values = [qc, Statevector.from_label("01"), Operator(np.eye(2)),
              SparsePauliOp(["XZ", "YY"], [1, 2j])]
    values += [_value(rng, False) for _ in range(40)]
    return [HUMANEVAL.encode(v) for v in values]


def _b64_mutations(rng: random.Random, text: str) -> str:
    try:
        raw = bytearray(base64.b64decode(text, validate=True))
    except ValueError:  # corrupted already
        return text + "A"
    choice = rng.randrange(4)
    if choice == 0 and raw:
        for _ in range(rng.randrange(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
    elif choice == 1:
        raw = raw[:rng.randrange(len(raw) + 1)]
    elif choice == 2:
        raw += bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
    else:
        return text[: rng.randrange(len(text) + 1)] + rng.choice(["", "=", "!", "A"])
    return base64.b64encode(bytes(raw)).decode()


JUNK = [None, True, -1, 0, 2**63, 10**400, 1e308, -0.0, "", "x" * 50, "\x00\ud800", "nan",
        "-inf", [], {}, {"$": "nope"}, {"$": 5}, {"$": "unsupported"}, [[[[]]]],
        {"$": "ref", "i": 0}, {"$": "ndarray", "npy": ""}]


def _corrupt(rng: random.Random, data):
    """``data`` with one seeded corruption somewhere in it."""
    if isinstance(data, dict) and data and rng.random() < 0.7:
        key = rng.choice(sorted(data))
        out = dict(data)
        if rng.random() < 0.15:
            del out[key]
        elif key in ("npy", "qpy", "b64", "png") and isinstance(data[key], str):
            out[key] = _b64_mutations(rng, data[key])
        elif key == "$" and rng.random() < 0.5:
            out[key] = rng.choice(sorted(HUMANEVAL.decoders))
        else:
            out[key] = _corrupt(rng, data[key])
        return out
    if isinstance(data, list) and data and rng.random() < 0.7:
        out = list(data)
        i = rng.randrange(len(out))
        choice = rng.randrange(4)
        if choice == 0:
            del out[i]
        elif choice == 1:
            out.append(rng.choice(JUNK))
        else:
            out[i] = _corrupt(rng, out[i])
        return out
    if rng.random() < 0.1:
        for _ in range(rng.randrange(60, 400)):
            data = {"$": "tuple", "v": [data]} if rng.random() < 0.5 else [data]
        return data
    return rng.choice(JUNK)


def test_corrupted_payloads_raise_only_wire_errors():
    rng = random.Random(SEED)
    payloads = _valid_payloads()
    outcomes = collections.Counter()
    for _ in range(3000):
        data = rng.choice(payloads)
        for _ in range(rng.randrange(1, 4)):
            data = _corrupt(rng, data)
        for codec in (HUMANEVAL, qhack_codec.CODEC):
            try:
                codec.decode(data)
                outcomes["value"] += 1
            except wire.WireError:
                outcomes["malformed"] += 1
            except wire.UnsupportedValue:
                outcomes["unsupported"] += 1
    assert outcomes["malformed"] > 1000 and outcomes["value"] > 100, outcomes


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    json.dumps({"$": "objarray", "shape": [2**40, 2**40], "v": []}),
    json.dumps({"$": "graph", "root": {"$": "ref", "i": 0}, "nodes": [["tuple", [{"$": "ref",
                                                                                   "i": 0}]]]}),
    json.dumps({"$": "range", "v": [0, 10**30, 0]}), b"\xff\xfe", "nul", 5,
])
def test_loads_bounds_every_claim(text):
    with pytest.raises(wire.WireError):
        qhack_codec.CODEC.loads(text)  # the core is the same in every codec
    if "objarray" in str(text):  # a codec that uses values as objects refuses object arrays
        with pytest.raises(wire.UnsupportedValue):
            HUMANEVAL.loads(text)


def test_real_data_over_the_bounds_is_a_limit_of_the_judge():
    """Items, string characters, integer digits and nesting counted on what was received and
    parsed are really there: past the bound a limit of the judge's (``TransportLimit``: a judge
    limitation where the judge reports one), not a malformed value; QHack's payload decoding
    keeps its one error."""
    from quantum_codegen_eval.judges.qhack.jobs import payload

    for text, what in (("[" + "0," * wire.LIMITS.items + "0]", "items"),
                       ('"' + "x" * (wire.LIMITS.string + 1) + '"', "characters"),
                       ('{"$": "int", "x": "' + "f" * (wire.LIMITS.int_digits + 1) + '"}',
                        "hexadecimal digits"),
                       ("[" * (wire.LIMITS.depth + 2) + "]" * (wire.LIMITS.depth + 2), "nested")):
        with pytest.raises(wire.TransportLimit, match=what):
            HUMANEVAL.loads(text)
        with pytest.raises(payload.PayloadError):
            payload.decode(json.loads(text))


def test_forged_sizes_cost_no_memory():
    header = repr({"descr": "<f8", "fortran_order": False, "shape": (2**20, 2**20)}).encode()
    raw = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"\0" * 64
    forged = [{"$": "ndarray", "npy": base64.b64encode(raw).decode()},
              {"$": "int", "x": "f" * wire.LIMITS.int_digits},
              {"$": "deque", "v": [], "maxlen": 2**62},
              {"$": "range", "v": [0, 2**62, 1]}]
    tracemalloc.start()
    try:
        for data in forged:
            try:
                HUMANEVAL.decode(data)
            except wire.WireError:
                pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak


def test_qcoder_style_formats_share_the_error_and_limits():
    """Another format (a job module) raises the same error with the same limits."""
    assert issubclass(wire.WireError, ValueError)
    assert wire.LIMITS.qubits and wire.LIMITS.instructions and wire.LIMITS.depth
    assert "LIMITS" in wire.__doc__ and "WireError" in wire.__doc__


@pytest.mark.era
@pytest.mark.parametrize("year", [2022, 2024])
def test_the_codec_runs_in_the_era_interpreters(year):
    from quantum_codegen_eval.benchmarks import _qhack_envs as eras

    rng = random.Random(SEED)
    values = [_value(rng, True) for _ in range(60)]
    data = json.dumps([qhack_codec.encode(v) for v in values])
    # the era interpreter decodes what this side encoded and encodes it again: same data
    script = (_embed.modules_source(qhack_codec)
              + f"from {qhack_codec.__name__} import decode, encode\n"
              + "import json, sys\n"
              + "print(json.dumps([encode(decode(x)) for x in json.load(sys.stdin)]))\n")
    out = subprocess.run([str(eras.env_python(f"qhack-{year}")), "-I", "-c", script],
                         input=data, capture_output=True, text=True, check=True)
    back = [qhack_codec.decode(x) for x in json.loads(out.stdout)]
    for value, got in zip(values, back, strict=True):
        assert _same(_as_opaque_sees(value), got), (value, got)
