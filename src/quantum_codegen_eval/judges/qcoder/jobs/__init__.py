"""QCoder's job modules: the untrusted harness (:mod:`.harness`) and its circuit-tree writer
(:mod:`.circuit_tree`), shipped into the sandbox by ``judges._embed.job_source``; and the
libraries of the reference solutions (``reflib*``), read as program text by ``specs``."""
