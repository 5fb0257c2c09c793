"""The key of a recorded call, the same in the program's and in the trusted job: arguments as
canonical JSON; mid-circuit measurement values and oracles by position, arrays by value."""

import json


def _measurement_value():
    from pennylane.measurements import MeasurementValue

    return MeasurementValue


def is_oracle(x):
    return callable(x) and not isinstance(x, (type, _measurement_value())) and \
        not hasattr(x, "shape")


def _canon(x, pos=None, depth=0):
    if depth > 20:
        raise ValueError("arguments nested too deeply")
    if isinstance(x, _measurement_value()):
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
    if is_oracle(x):
        return {"oracle": pos}
    return {"obj": type(x).__name__}


def call_key(args, kwargs):
    return json.dumps([[_canon(a, i) for i, a in enumerate(args)],
                       [[k, _canon(v, k)] for k, v in sorted(kwargs.items())]])


def mv_items(mv):
    """The measurements a measurement value reads (objects on new PennyLane, ids on old)."""
    items = getattr(mv, "measurements", None)
    return list(items) if items is not None else list(mv.measurement_ids)


def mv_keys(mv):
    """Keys of the measurements a value reads: their ids (strings) on old PennyLane, else the
    identity of the measurement objects (newer releases leave ``id`` unset)."""
    return [m if isinstance(m, str) else id(m) for m in mv_items(mv)]
