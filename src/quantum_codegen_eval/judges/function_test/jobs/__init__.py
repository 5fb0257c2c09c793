"""The function-test judges' job modules: the candidate's job (``runner``), the trusted test
job (``trusted``), the frames of the candidate's output (``frames``) and the wire codec they
share (``codec``)."""
