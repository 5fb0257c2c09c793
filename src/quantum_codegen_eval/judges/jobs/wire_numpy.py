"""The wire codec's numpy extension: arrays as ``.npy`` bytes (read back with
``allow_pickle=False``, header checked first), scalars by dtype and value.

Tags: ``{"$": "ndarray", "npy": base64}`` (numbers, booleans, strings, bytes, dates, durations;
PennyLane and autograd tensors are arrays), ``{"$": "npscalar", "dtype", "v"}``, ``{"$": "np0d",
"npy"}`` (a scalar of no plain Python type: a date, a long double), and, in an ``opaque`` codec
only, ``{"$": "objarray", "shape", "v"}`` (an object array item by item). Fingerprints carry
plain arrays by their values. A job module: numpy is imported only when a value is met.
"""

from __future__ import annotations

import io
import math
import sys
from typing import Any

from .wire import SKIP, Decoder, Encoder, TransportLimit, UnsupportedValue, WireError, b64, unb64

#: dtypes carried as numbers
PLAIN_KINDS = frozenset("biufc")
#: array dtypes that cross (npy without pickles): numbers, strings, bytes, dates, durations
ARRAY_KINDS = frozenset("biufcUSMm")


def encode(enc: Encoder, value: Any, depth: int) -> Any:
    np = sys.modules.get("numpy")
    if np is None:  # nothing is a numpy value before numpy is imported
        return SKIP
    if isinstance(value, np.generic) and value.dtype.kind in ARRAY_KINDS:
        item = value.item()
        if value.dtype.kind in PLAIN_KINDS and type(item) in (bool, int, float, complex):
            if enc.opaque:  # compared, not used: its Python value
                return enc.enc(item, depth)
            return {"$": "npscalar", "dtype": value.dtype.str, "v": enc.enc(item, depth)}
        return {"$": "np0d", "npy": npy(np.asarray(value))}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in ARRAY_KINDS or value.dtype.hasobject:
            if enc.opaque and value.dtype.hasobject and value.dtype.kind == "O":
                items = enc.bounded(value.reshape(-1).tolist())
                return {"$": "objarray", "shape": list(value.shape),
                        "v": [enc.enc(x, depth + 1) for x in items]}
            raise UnsupportedValue(f"numpy array of dtype {value.dtype}")
        if enc.fp and value.dtype.kind in PLAIN_KINDS:
            return {"$": "ndarray", "shape": list(value.shape), "dtype": value.dtype.str,
                    "v": enc.enc(value.tolist(), depth)}
        return {"$": "ndarray", "npy": npy(value)}
    return SKIP


def npy(array: Any) -> str:
    import numpy as np

    buf = io.BytesIO()
    np.save(buf, np.asarray(array, order="C"), allow_pickle=False)  # a 0-d array stays 0-d
    return b64(buf.getvalue())


def _check_header(data: bytes, d: Decoder) -> None:
    from numpy.lib import format as npf

    buf = io.BytesIO(data)
    try:
        version = npf.read_magic(buf)
        if version == (1, 0):
            shape, _order, dtype = npf.read_array_header_1_0(buf)
        elif version == (2, 0):
            shape, _order, dtype = npf.read_array_header_2_0(buf)
        else:
            raise WireError(f"array: npy version {version} not accepted")
    except WireError:
        raise
    except Exception as exc:
        raise WireError(f"array: bad npy header ({type(exc).__name__}: {exc})") from None
    if dtype.kind not in ARRAY_KINDS or dtype.hasobject or dtype.fields is not None \
            or dtype.subdtype is not None:
        raise WireError(f"array: dtype {dtype} not accepted")
    if len(shape) > d.limits.dims or any(n < 0 for n in shape):
        raise WireError("array: bad shape")
    n = math.prod(int(k) for k in shape)
    if n > d.limits.elements:
        if len(data) - buf.tell() < n * dtype.itemsize:  # a claim: the data is not there
            raise WireError(f"array: the header claims {n} elements, more than it holds")
        # an array that is really there: a limit of the judge's
        raise TransportLimit(f"array of {n} elements, over the {d.limits.elements} the judge's "
                             "transport reads")


def ndarray(data: Any, d: Decoder) -> Any:
    """The array of an ``ndarray`` field (for extensions whose objects hold arrays)."""
    import numpy as np

    if not isinstance(data, dict) or data.get("$") != "ndarray" or "npy" not in data:
        raise WireError("expected an array")
    raw = unb64(data["npy"], d.limits)
    _check_header(raw, d)
    try:
        arr = np.load(io.BytesIO(raw), allow_pickle=False)
    except Exception as exc:
        raise WireError(f"array: {type(exc).__name__}: {exc}") from None
    if not isinstance(arr, np.ndarray) or arr.dtype.kind not in ARRAY_KINDS:
        raise WireError("array: not a plain array")
    d.array(arr.size)
    return arr


def _npscalar(data: dict, d: Decoder, depth: int) -> Any:
    import numpy as np

    dtype = data.get("dtype")
    if type(dtype) is not str or len(dtype) > 8:
        raise WireError("npscalar: bad dtype")
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise WireError("npscalar: bad dtype") from None
    if dt.kind not in PLAIN_KINDS:
        raise WireError("npscalar: dtype not accepted")
    v = d.dec(data.get("v"), depth + 1)
    if not isinstance(v, (bool, int, float, complex)):
        raise WireError("npscalar: not a number")
    try:
        return dt.type(v)
    except (OverflowError, ValueError, TypeError):
        raise WireError("npscalar: value does not fit its dtype") from None


def _objarray(data: dict, d: Decoder, depth: int) -> Any:
    import numpy as np

    if not d.opaque:
        raise UnsupportedValue("numpy array of dtype object")
    shape = data.get("shape")
    if type(shape) is not list or len(shape) > d.limits.dims or not all(
            type(n) is int and 0 <= n <= d.limits.items for n in shape):
        raise WireError("objarray: bad shape")
    size = math.prod(shape)
    items = d.seq(data, depth, "objarray")
    if len(items) != size:
        raise WireError("objarray: items do not match its shape")
    d.array(size)
    arr = np.empty(size, dtype=object)
    for i, x in enumerate(items):
        arr[i] = x
    return arr.reshape(shape)


DECODERS = {
    "ndarray": lambda data, d, depth: ndarray(data, d),
    "npscalar": _npscalar,
    "np0d": lambda data, d, depth: ndarray({"$": "ndarray", "npy": data.get("npy")}, d)[()],
    "objarray": _objarray,
}
