"""What the QHack program jobs share: an exception as data, and a 2022 script's driver run on a
test's input with its printed output captured."""

import contextlib
import io
import sys
import traceback

from ...jobs.memory import ran_out_of_memory


def error_record(phase, exc):
    """``exc`` as data (type, module, message, frames, traceback, whether memory ran out), for
    the judge."""
    frames = [[f.filename, f.lineno, f.name] for f in traceback.extract_tb(exc.__traceback__)]
    return {"phase": phase, "type": type(exc).__name__, "module": type(exc).__module__,
            "memory": ran_out_of_memory(exc),
            "message": str(exc)[:4000], "frames": frames[-40:],
            "traceback": "".join(traceback.format_exception(
                type(exc), exc, exc.__traceback__))[-8000:]}


def run_driver(driver, test_input, g):
    """Run the script's ``driver`` in namespace ``g`` with ``test_input`` on stdin: its printed
    output (the last 200,000 characters) and the error that ended it, if any."""
    result = {}
    sys.stdin = io.StringIO(test_input)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(driver, "<qhack-driver>", "exec"), g)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            result["error"] = error_record("driver", exc)
    except BaseException as exc:
        result["error"] = error_record("driver", exc)
    result["stdout"] = buf.getvalue()[-200000:]
    return result
