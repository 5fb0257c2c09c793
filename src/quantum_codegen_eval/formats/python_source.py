"""Work on a completion's Python source that an era's interpreter would accept but that our
default recursion budget refuses.

Python 3.9 compiles a 4,000-term flat sum; Python 3.11's parser raises ``RecursionError`` at a
few thousand levels of ``BinOp`` under the default limit, and so do ``ast.unparse`` and every
``NodeVisitor`` over such a tree. :func:`call_deep` runs a function on a thread with a large
stack and a raised recursion limit, so what a contest's interpreter accepts is parsed and walked
here too; :data:`MAX_SOURCE_BYTES` bounds the work (a judge refuses a larger program with a
verdict before parsing it).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: a completion's code over this many bytes is not parsed: a judge gives it a verdict
#: (QHack: ``FORMAT``, reason ``too_large``); the judges' option ``max_code_bytes`` changes it
MAX_SOURCE_BYTES = 100_000
#: the stack of the thread :func:`call_deep` runs on (virtual; only the depth used is touched)
DEEP_STACK_BYTES = 1 << 30
#: the recursion limit while it runs: a flat sum of MAX_SOURCE_BYTES / 2 terms parses and unparses
DEEP_RECURSION_LIMIT = 200_000
_LOCK = threading.Lock()


def call_deep(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on a thread with a ``DEEP_STACK_BYTES`` stack and ``DEEP_RECURSION_LIMIT``;
    its exception is re-raised here. The caller waits; one such call runs at a time (the
    recursion limit is the interpreter's)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            out["error"] = exc

    with _LOCK:
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, DEEP_RECURSION_LIMIT))
        try:
            old_stack = threading.stack_size(DEEP_STACK_BYTES)
            try:
                thread = threading.Thread(target=run, name="call_deep", daemon=True)
                thread.start()
            finally:
                threading.stack_size(old_stack)
            thread.join()
        finally:
            sys.setrecursionlimit(old_limit)
    if "error" in out:
        raise out["error"]
    return out["value"]
