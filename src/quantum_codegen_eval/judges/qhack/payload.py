"""Tagged JSON for the values a QHack ``run()`` returns: encoded in the sandbox, decoded (bounded)
by the judge and by its trusted check job.

This module needs only the standard library (numpy when an array is met) and is also embedded as
source text into the sandbox runner and the trusted check job, which run in the era interpreters
where this package is not installed. Tags: ``{"str": s}``, ``{"int": n}``, ``{"float": x}`` (with
``"nan"``/``"inf"``/``"-inf"``), ``{"complex": [re, im]}``, ``{"bool": b}``, ``{"none": 0}``,
``{"list": [...]}``, ``{"tuple": [...]}``, ``{"dict": [[k, v], ...]}``,
``{"ndarray": {"dtype", "shape", "data"}}`` (numeric dtypes, base64 of the raw bytes; PennyLane
tensors are arrays), ``{"object": {"type", "repr"}}`` for anything else (never equal to an answer).

>>> decode(encode([1, (2.5, "x"), None, 1j]))
[1, (2.5, 'x'), None, 1j]
"""

import base64
import math

MAX_DEPTH = 40
MAX_NODES = 200_000
MAX_TEXT = 2_000_000
MAX_ARRAY_BYTES = 32_000_000
MAX_DIMS = 8
NUMERIC_KINDS = "biufc"


class PayloadError(ValueError):
    """A payload that breaks the format or its bounds."""


def _float(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def encode(obj, _depth=0, _count=None):
    """``obj`` as tagged JSON data (raises :class:`PayloadError` when it is too large/deep)."""
    count = _count if _count is not None else [0]
    count[0] += 1
    if count[0] > MAX_NODES or _depth > MAX_DEPTH:
        raise PayloadError("output too large or too deeply nested")
    t = type(obj)
    if obj is None:
        return {"none": 0}
    if t is bool:
        return {"bool": obj}
    if t is int:
        if obj.bit_length() > 4096:
            raise PayloadError("integer too large")
        return {"int": obj}
    if t is float:
        return {"float": _float(obj)}
    if t is complex:
        return {"complex": [_float(obj.real), _float(obj.imag)]}
    if t is str:
        if len(obj) > MAX_TEXT:
            raise PayloadError("string too long")
        return {"str": obj}
    if t in (list, tuple):
        return {t.__name__: [encode(x, _depth + 1, count) for x in obj]}
    if t is dict:
        return {"dict": [[encode(k, _depth + 1, count), encode(v, _depth + 1, count)]
                         for k, v in obj.items()]}
    mod = getattr(t, "__module__", "") or ""
    if mod.split(".")[0] in ("numpy", "pennylane", "autograd"):
        import numpy

        if isinstance(obj, numpy.generic):
            return encode(obj.item(), _depth, count)
        if isinstance(obj, numpy.ndarray):
            arr = numpy.asarray(obj)
            if arr.dtype.kind in NUMERIC_KINDS:
                if arr.nbytes > MAX_ARRAY_BYTES or arr.ndim > MAX_DIMS:
                    raise PayloadError("array too large")
                # numpy.array, not ascontiguousarray: that one makes a 0-d array 1-d
                arr = numpy.array(arr, dtype=arr.dtype.newbyteorder("<"), order="C")
                return {"ndarray": {"dtype": arr.dtype.str, "shape": list(arr.shape),
                                    "data": base64.b64encode(arr.tobytes()).decode("ascii")}}
            return {"ndarray": {"dtype": "object", "shape": list(arr.shape),
                                "items": [encode(x, _depth + 1, count)
                                          for x in arr.reshape(-1).tolist()]}}
    try:
        text = str(repr(obj))[:2000]
    except BaseException:  # noqa: BLE001 - any object may reach here
        text = "?"
    return {"object": {"type": str(getattr(t, "__name__", "?"))[:200], "repr": text[:2000]}}


class Opaque:
    """A value the program returned that has no data form (compares equal to nothing)."""

    def __init__(self, type_name, text):
        self.type_name, self.text = type_name, text

    def __repr__(self):
        return f"<{self.type_name} {self.text[:200]}>"

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__


def _unfloat(x):
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise PayloadError("bad float")
    if isinstance(x, str):
        if x not in ("nan", "inf", "-inf"):
            raise PayloadError("bad float")
        return float(x)
    return float(x)


def decode(data, _depth=0, _count=None):
    """The value encoded by :func:`encode` (raises :class:`PayloadError` on anything else)."""
    count = _count if _count is not None else [0]
    count[0] += 1
    if count[0] > MAX_NODES or _depth > MAX_DEPTH:
        raise PayloadError("payload too large or too deeply nested")
    if not isinstance(data, dict) or len(data) != 1:
        raise PayloadError("not a tagged value")
    (tag, v), = data.items()
    if tag == "none":
        return None
    if tag == "bool" and isinstance(v, bool):
        return v
    if tag == "int" and type(v) is int:
        return v
    if tag == "float":
        return _unfloat(v)
    if tag == "complex" and isinstance(v, list) and len(v) == 2:
        return complex(_unfloat(v[0]), _unfloat(v[1]))
    if tag == "str" and isinstance(v, str) and len(v) <= MAX_TEXT:
        return v
    if tag in ("list", "tuple") and isinstance(v, list):
        items = [decode(x, _depth + 1, count) for x in v]
        return items if tag == "list" else tuple(items)
    if tag == "dict" and isinstance(v, list):
        out = {}
        for kv in v:
            if not isinstance(kv, list) or len(kv) != 2:
                raise PayloadError("bad dict item")
            k = decode(kv[0], _depth + 1, count)
            try:
                out[k] = decode(kv[1], _depth + 1, count)
            except TypeError as exc:
                raise PayloadError("unhashable dict key") from exc
        return out
    if tag == "ndarray" and isinstance(v, dict):
        return _array(v, _depth, count)
    if tag == "object" and isinstance(v, dict):
        return Opaque(str(v.get("type", "?"))[:200], str(v.get("repr", ""))[:2000])
    raise PayloadError(f"bad tag {str(tag)[:40]!r}")


def _array(v, depth, count):
    import numpy

    shape = v.get("shape")
    if (not isinstance(shape, list) or len(shape) > MAX_DIMS
            or not all(type(n) is int and 0 <= n <= MAX_ARRAY_BYTES for n in shape)):
        raise PayloadError("bad array shape")
    size = 1
    for n in shape:
        size *= n
    if v.get("dtype") == "object":
        items = v.get("items")
        if not isinstance(items, list) or len(items) != size:
            raise PayloadError("array items do not match its shape")
        arr = numpy.empty(size, dtype=object)
        for i, x in enumerate(items):
            arr[i] = decode(x, depth + 1, count)
        return arr.reshape(shape)
    try:
        dtype = numpy.dtype(str(v.get("dtype"))[:16])
    except TypeError as exc:
        raise PayloadError("bad array dtype") from exc
    if dtype.kind not in NUMERIC_KINDS or dtype.hasobject:
        raise PayloadError("bad array dtype")
    data = v.get("data")
    if not isinstance(data, str) or len(data) > MAX_ARRAY_BYTES * 4 // 3 + 8:
        raise PayloadError("bad array data")
    try:
        raw = base64.b64decode(data, validate=True)
    except ValueError as exc:
        raise PayloadError("bad array data") from exc
    if len(raw) != size * dtype.itemsize:
        raise PayloadError("array data does not match its shape")
    return numpy.frombuffer(raw, dtype=dtype).reshape(shape).copy()
