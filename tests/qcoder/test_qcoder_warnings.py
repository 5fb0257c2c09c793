"""Judging emits no DeprecationWarning from this package's own code (Qiskit 2.3 deprecated
``Gate.control()`` without ``annotated``; removed in Qiskit 3.0): the references and helpers
run by the judge, and the trusted check, use the non-deprecated API."""

from __future__ import annotations

import io
import warnings

import pytest
from qiskit import QuantumCircuit, qpy
from qiskit.circuit import Gate

from quantum_codegen_eval.judges.qcoder import check
from quantum_codegen_eval.judges.qcoder.oracles import public_oracles
from quantum_codegen_eval.judges.qcoder.specs import all_specs

SPECS = all_specs()


def _oracle(desc: dict):
    """The opaque oracle circuit the harness hands to ``solve`` (same public description)."""

    def build(*params):
        g = Gate(desc["gate"], desc["qubits"], [float(p) for p in params])
        g.definition = QuantumCircuit(desc["qubits"])
        qc = QuantumCircuit(desc["qubits"])
        qc.append(g, range(desc["qubits"]))
        return qc

    return build if desc["factory"] else build()


@pytest.mark.parametrize("pid", sorted(SPECS))
def test_reference_and_check_emit_no_deprecation_warning(pid):
    spec = SPECS[pid]
    for case in check.cases_for(spec, pid, 0, "secret")[:2]:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            oracles = public_oracles(spec, case, "nonce")
            args = [_oracle(oracles[a]) if a in oracles else case["args"][a] for a in spec.args]
            ns: dict = {}
            exec(compile(spec.reference, f"<reference {pid}>", "exec"), ns)
            out = ns["solve"](*args)
            if spec.mode != "classical":
                buf = io.BytesIO()
                qpy.dump(out, buf)
                res = check.check_case({"id": pid}, spec, case, buf.getvalue(), "nonce")
                assert res["status"] == "AC", res
        dep = [f"{w.filename}:{w.lineno}: {str(w.message)[:120]}" for w in seen
               if issubclass(w.category, DeprecationWarning)]
        assert not dep, dep
