"""The test's global random states (``random`` and numpy's legacy generator) as a call carries
them from the check to the program: :func:`pack` on the trusted side, :func:`restore` in the
program's process before the call, so the call draws what it would in the test's own process.
Nothing flows back. numpy is imported when used (the module has no effect when imported).

A packed state is JSON data of a fixed shape (the Mersenne Twister words as little-endian
``uint32`` bytes in base64), a few KB that travel in microseconds; equal states pack equal, so
the packed state is also what tells whether the test drew since its previous call.
"""

import base64
import random

#: ``random``'s internal state: 624 Mersenne Twister words and the position
PY_WORDS = 625
#: numpy's legacy ``MT19937`` key
NP_WORDS = 624


def _words(data, count):
    import numpy as np

    raw = base64.b64decode(data.encode("ascii"), validate=True)
    if len(raw) != 4 * count:
        raise ValueError(f"a random state of {len(raw)} bytes, expected {4 * count}")
    return np.frombuffer(raw, dtype="<u4")


def _b64(words):
    import numpy as np

    return base64.b64encode(np.asarray(words, dtype="<u4").tobytes()).decode("ascii")


def pack():
    """The global random states now: ``{"py": [...], "np": [...]}`` (JSON-ready)."""
    import numpy as np

    version, internal, gauss = random.getstate()
    name, keys, pos, has_gauss, cached = np.random.get_state()
    return {"py": [version, _b64(internal), gauss],
            "np": [name, _b64(keys), int(pos), int(has_gauss), float(cached)]}


def restore(packed):
    """Set the global random states to ``packed`` (what :func:`pack` made); ``ValueError`` for
    anything else."""
    try:
        version, words, gauss = packed["py"]
        name, keys, pos, has_gauss, cached = packed["np"]
    except (TypeError, KeyError, ValueError):
        raise ValueError("not a packed random state") from None
    if type(version) is not int or not (gauss is None or type(gauss) is float) or \
            type(name) is not str or type(pos) is not int or type(has_gauss) is not int or \
            type(cached) is not float or type(words) is not str or type(keys) is not str:
        raise ValueError("not a packed random state")
    import numpy as np

    random.setstate((version, tuple(_words(words, PY_WORDS).tolist()), gauss))
    np.random.set_state((name, _words(keys, NP_WORDS).copy(), pos, has_gauss, cached))
