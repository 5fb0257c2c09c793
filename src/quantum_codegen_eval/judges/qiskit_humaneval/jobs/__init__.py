"""The Qiskit HumanEval judge's job modules: the candidate's job (``runner``), the trusted check
job (``trusted``) and the codec they share (``codec``)."""
