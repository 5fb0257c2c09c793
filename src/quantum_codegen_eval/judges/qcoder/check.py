"""The QCoder judge's trusted check: receive each returned circuit, check it, simulate, compare.

Runs as a trusted sandbox job (``Job(trusted=True)``, memory- and time-limited, forked from a
zygote that never ran untrusted code; its source is :data:`SOURCE`), linked to the program's job
(its peer, ``jobs/harness.py``). It reads ``qcoder_check.json`` (problem limits, seed, secret,
nonce), then receives on stdin what the harness sends (``judges/jobs/frames.py``: ``H`` which test
and transport, ``D`` the output) until the program's job ends, keeping each output on its own
disk within :data:`MAX_CASE_BYTES` per test and :data:`MAX_KEPT_BYTES` for all: an output over
them is received and counted, and its size, measured here, is the judge's limit (never the
program's word). Then it checks each test and appends one JSON line per test to ``check.jsonl``
as it goes (so a test that exhausts the limits is known). The parent only validates these lines.

QPY is checked before ``qpy.load``: magic, version, one program, and the circuit header's claims
(qubits = what the case expects, bounded clbits / registers / instructions / metadata, all within
the file size). What passes is then loaded in this memory-limited process, never in the
evaluator.
"""

from __future__ import annotations

import io
import json
import random
import struct
import sys
from dataclasses import dataclass
from typing import Any

from ..jobs import frames
from . import simulate as sim
from .oracles import trusted_oracles

SOURCE = "from quantum_codegen_eval.judges.qcoder.check import main\nmain()\n"
CONFIG = "qcoder_check.json"
OUTPUT = "check.jsonl"
#: most gates (after expansion) and instructions the judge reads per circuit
MAX_OPS = 200_000
MAX_CLASSICAL_BYTES = 4 << 20
#: how the message of a judge limit starts (a judge error, never the program's verdict)
JUDGE_LIMIT = "judge limit: "


#: what the check keeps of one test's output, and of all tests' together (on its own disk); past
#: them an output is received and counted, not kept: a judge limit (the 200 000 instructions
#: the judge reads are ~11 MB of QPY)
MAX_CASE_BYTES = 32 << 20
MAX_KEPT_BYTES = 128 << 20
#: the transports of a circuit (``jobs/harness.py``); a classical answer is ``json``
TRANSPORTS = ("qpy", "json")
MAX_HEAD_BYTES = 256


@dataclass(frozen=True)
class Received:
    """One test's output as the check received it: ``path`` None when it was over the limits
    (``size`` bytes were received and counted, not kept)."""

    i: int
    transport: str
    size: int
    path: str | None


@dataclass(frozen=True)
class LinkBroken:
    """Why :func:`receive` stopped before the link's end: ``tampered`` for a frame the harness
    never writes (the program wrote on the link), else the link was cut short (the program's
    job ended mid-frame: killed at its limits)."""

    why: str
    tampered: bool


def receive(stream: Any, n_cases: int, classical: bool, max_case: int = MAX_CASE_BYTES,
            max_kept: int = MAX_KEPT_BYTES) -> tuple[dict[int, Received], LinkBroken | None]:
    """What the harness sends on ``stream`` until it ends: each test's output, kept on disk as
    ``received_<i>`` within the bounds (received and counted beyond them); and why the link
    broke the harness's protocol, or None. Decoded with exact types."""
    got: dict[int, Received] = {}
    kept = 0
    try:
        while (head := frames.read(stream, (b"H",), MAX_HEAD_BYTES)) is not None:
            try:
                d = json.loads(head[1])
            except (ValueError, RecursionError):
                raise ValueError("a test header that is not JSON") from None
            i, transport = (d.get("i"), d.get("transport")) if type(d) is dict else (None, None)
            if type(transport) is not str or transport not in (
                    ("json",) if classical else TRANSPORTS):
                raise ValueError(f"an unknown transport {str(transport)[:20]!r}")
            if type(i) is not int or not 0 <= i < n_cases or i in got:
                raise ValueError(f"a test header for test {str(i)[:20]}")
            data = frames.receive(stream, (b"D",), min(max_case, max_kept - kept))
            if data is None:
                raise frames.Truncated(f"test {i}: a header without its output")
            if data.payload is None:
                got[i] = Received(i, transport, data.size, None)
                continue
            path = f"received_{i}"
            with open(path, "wb") as fh:
                fh.write(data.payload)
            kept += data.size
            got[i] = Received(i, transport, data.size, path)
    except ValueError as exc:
        return got, LinkBroken("the link from the program's job broke the harness's protocol: "
                               f"{exc}", not isinstance(exc, frames.Truncated))
    return got, None


def over_limits(r: Received, max_case: int = MAX_CASE_BYTES,
                max_kept: int = MAX_KEPT_BYTES) -> dict[str, Any]:
    """The result of a test whose output was over what the check keeps."""
    return {"status": "RE", "judge_error": True, "message": (
        f"{JUDGE_LIMIT}the output of this test ({r.transport}) is {r.size:,} bytes, over what "
        f"the judge reads ({max_case >> 20} MB per test, {max_kept >> 20} MB for all tests "
        "together); received and counted by the trusted check, not read")}


def cases_for(spec: Any, problem_id: str, seed: int, secret: str = "") -> list[dict[str, Any]]:
    """The test cases: public arguments from ``seed``; a case holding hidden values (keys
    starting with ``_``: an oracle's marked item, a hidden circuit) is drawn from ``seed`` and
    ``secret`` together, and so is the choice of inputs where a comparison samples them, so that
    a program cannot precompute them from this public code."""
    cases = spec.sample(random.Random(f"{seed}:{problem_id}"))
    if not secret:
        return cases
    hidden = spec.sample(random.Random(f"{seed}:{secret}:{problem_id}"))
    if len(hidden) != len(cases):
        raise ValueError(f"{problem_id}: the number of cases depends on the random draw")
    out = [h if any(k.startswith("_") for k in c["args"]) else c
           for c, h in zip(cases, hidden, strict=True)]
    for i, c in enumerate(out):  # which inputs a sampled comparison tests (specs.base.compare)
        c["sample_key"] = f"{seed}:{secret}:{problem_id}:{i}"
    return out


def qpy_claims(data: bytes, allowed_qubits: tuple[int, ...]) -> str | None:
    """Why ``data`` is not a QPY file the judge will load (None: its claims are acceptable)."""
    from qiskit.qpy import common, formats

    fh = formats.FILE_HEADER_V10_SIZE
    if len(data) < fh + 1 + 8 + formats.CIRCUIT_HEADER_V12_SIZE:
        return "the QPY file is truncated"
    magic, version, _maj, _min, _pat, n_prog, _sym = struct.unpack(
        formats.FILE_HEADER_V10_PACK, data[:fh])
    if magic != b"QISKIT":
        return "not a QPY file"
    if version != common.QPY_VERSION:
        return f"QPY version {version}, not the judge's {common.QPY_VERSION}"
    if n_prog != 1:
        return f"the QPY file claims {n_prog} circuits, not 1"
    if data[fh:fh + 1] != b"q":
        return "the QPY payload is not a circuit"
    (offset,) = struct.unpack("!Q", data[fh + 1:fh + 9])
    end = offset + formats.CIRCUIT_HEADER_V12_SIZE
    if offset < fh + 9 or end > len(data):
        return "the QPY circuit offset points outside the file"
    h = formats.CIRCUIT_HEADER_V12(*struct.unpack(formats.CIRCUIT_HEADER_V12_PACK, data[offset:end]))
    rest = len(data) - end
    if h.num_qubits not in allowed_qubits:
        return f"the circuit has {h.num_qubits} qubits; expected {allowed_qubits[0]}"
    if (h.num_clbits > 1024 or h.num_registers > 4096 or h.num_vars > 1024
            or h.metadata_size > rest or h.name_size > rest or h.global_phase_size > rest
            or h.num_instructions > rest):
        return (f"the QPY header claims more than the file holds or the judge reads "
                f"(clbits {h.num_clbits}, registers {h.num_registers}, instructions "
                f"{h.num_instructions}, file {len(data)} bytes)")
    if h.num_instructions > MAX_OPS:
        return (f"{JUDGE_LIMIT}the circuit has {h.num_instructions} instructions, more than the "
                f"{MAX_OPS} the judge reads")
    return None


def read_circuit(data: bytes, allowed_qubits: tuple[int, ...]) -> tuple[Any, str | None]:
    """(circuit, None) or (None, why it is not read): QPY, bounded before loading."""
    why = qpy_claims(data, allowed_qubits)
    if why:
        return None, why
    from qiskit import qpy

    try:
        circuits = qpy.load(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - see below
        # The harness read this file back in the run (what Qiskit cannot read goes as the JSON
        # tree instead), so a file that fails here was changed by the program (it patched the
        # classes the serialiser uses, or nested definitions past the reader's recursion limit
        # by lying to the read-back): the program's RE, not a judge error.
        return None, ("the circuit file of this test cannot be read (the program changed what "
                      f"the harness wrote): {type(exc).__name__}: {exc}")[:2000]
    if len(circuits) != 1:
        return None, "expected one circuit"
    return circuits[0], None


def qubit_status(why: str, allowed_qubits: tuple[int, ...]) -> str:
    """QLE for a circuit with more qubits than the problem allows (the service's "Qubits Limit
    Exceeded"), WA for fewer; ``why`` is "the circuit has N qubits; ..."."""
    try:
        n = int(why.split()[3])
    except (IndexError, ValueError):
        return "WA"
    return "QLE" if n > max(allowed_qubits) else "WA"


def check_case(problem: dict[str, Any], spec: Any, case: dict, data: bytes | None,
               nonce: str, transport: str = "qpy") -> dict[str, Any]:
    """The verdict of one case as a JSON-ready dict (status, message, fidelity, depth, ...)."""
    if data is None:
        return {"status": "RE", "message": "no output was written for this test"}
    if spec.mode == "classical":
        if len(data) > MAX_CLASSICAL_BYTES:
            return {"status": "RE", "message": "the returned value is too large"}
        try:
            value = json.loads(data, object_hook=_big_int)
        except (ValueError, RecursionError):
            return {"status": "RE", "message": "the returned value could not be read"}
        ok, msg = spec.check(case["args"], value)
        return {"status": "AC" if ok else "WA", "message": msg, "fidelity": 1.0 if ok else 0.0}
    want = spec.qubits(case)
    allowed_n = want if isinstance(want, tuple) else (want,)
    if transport == "json":
        from .transport import TransportError, load

        try:
            qc, why = load(data, allowed_n), None
        except TransportError as exc:
            qc, why = None, str(exc)
    else:
        qc, why = read_circuit(data, allowed_n)
    if qc is None:
        status = qubit_status(why, allowed_n) if why.startswith("the circuit has") else "RE"
        return {"status": status, "message": why,
                "judge_error": why.startswith(("judge error", JUDGE_LIMIT))}
    if qc.num_qubits not in allowed_n:
        why = f"the circuit has {qc.num_qubits} qubits; expected {allowed_n[0]}"
        return {"status": qubit_status(why, allowed_n), "message": why}
    oracles = trusted_oracles(spec, case, nonce)
    try:
        # reset only where the input is the zero state (state preparation): see the docs
        flat = sim.inline(qc, oracles, max_ops=MAX_OPS, allow_reset=spec.mode == "state")
    except sim.SimError as exc:
        return _sim_failure(exc)
    d = sim.depth(flat)
    if flat.violations:
        v = flat.violations[0]
        return {"status": "UGE", "message": "instruction not allowed here: " + v, "depth": d,
                "gate": v.split(" ")[0]}
    for banned in problem.get("banned_gates") or []:
        hit = next((p.op for p, controlled in sim.walk(flat.ops)
                    if p.op is not None and not controlled
                    and (type(p.op).__name__ == banned
                         or (banned == "SwapGate" and p.op.name == "swap"))), None)
        if hit is not None:
            return {"status": "UGE", "message": f"{banned} is banned in this problem", "depth": d,
                    "gate": hit.name}
    limit = problem.get("depth_limit")
    if limit is not None and d > limit:
        return {"status": "DLE", "message": f"circuit depth {d} exceeds {limit}", "depth": d}
    queries = None
    if problem.get("query_limit") is not None:
        queries = flat.queries
        if queries > problem["query_limit"]:
            return {"status": "DLE", "message": f"{queries} applications of "
                    f"{problem.get('query_limit_gate')} exceed {problem['query_limit']}",
                    "depth": d, "queries": queries}
    try:
        ok, fid, msg, credit = spec.judge(case, flat, qc.num_qubits, oracles)
    except sim.SimError as exc:
        return {**_sim_failure(exc), "depth": d}
    return {"status": "AC" if ok else "WA", "message": msg, "fidelity": float(fid), "depth": d,
            "queries": queries, "credit": None if credit is None else float(credit)}


def _big_int(d: dict) -> Any:
    """A classical answer's integer the harness sent in hexadecimal (``jobs/harness.BIG_INT``)."""
    from .jobs.harness import BIG_INT

    text = d.get(BIG_INT) if len(d) == 1 else None
    if isinstance(text, str) and text and all(c in "0123456789abcdef-" for c in text):
        try:
            return int(text, 16)
        except ValueError:
            pass
    return d


def _sim_failure(exc: sim.SimError) -> dict[str, Any]:
    """A circuit the judge could not evaluate: past a limit of the judge's (a judge error naming
    it, never the program's verdict), or the program's own failure."""
    if exc.judge_limit:
        return {"status": "RE", "judge_error": True, "message": f"{JUDGE_LIMIT}{exc}"}
    return {"status": exc.status, "message": str(exc)}


def main() -> None:
    """Entry point of the trusted stage (run in the job's working directory)."""
    from .specs import get_spec

    # the link back to the program's job is stdout: nothing goes that way (not even a library's
    # print while the hidden oracles are built), and the program reads end-of-file at once
    frames.detach(1, keep=False)

    with open(CONFIG, encoding="utf-8") as fh:
        cfg = json.load(fh)
    problem = cfg["problem"]
    spec = get_spec(problem["id"])
    cases = cases_for(spec, problem["id"], cfg["seed"], cfg.get("secret", ""))
    bounds = cfg.get("max_case_bytes", MAX_CASE_BYTES), cfg.get("max_kept_bytes", MAX_KEPT_BYTES)
    received, broken = receive(sys.stdin.buffer, len(cases), spec.mode == "classical", *bounds)
    with open(OUTPUT, "w", encoding="utf-8") as out:
        if broken:
            out.write(json.dumps({"protocol": broken.why[:1000], "tampered": broken.tampered})
                      + "\n")
        for i in sorted(received):
            r = received[i]
            out.write(json.dumps({"i": i, "started": True}) + "\n")
            out.flush()
            if r.path is None:
                res = over_limits(r, *bounds)
            else:
                with open(r.path, "rb") as fh:
                    data = fh.read()
                res = check_case(problem, spec, cases[i], data, cfg["nonce"], r.transport)
            out.write(json.dumps({"i": i, **res}) + "\n")
            out.flush()
            if cfg.get("first_failure") and res["status"] != "AC":
                break
