"""Seeds for the simulators a job's code runs unseeded (a job module: standard library only).

Qiskit Aer draws a run's shots from the C++ standard library's random device when neither the
backend's options nor the run name a ``seed_simulator``, so a program's sampled counts (or a
test's sampling of the program's circuit) differ from run to run. :func:`seed_aer` gives each
such run a seed derived from the job's ``PYTHONHASHSEED`` (the run's seed, set by the sandbox)
and the number of unseeded runs before it in the job. numpy's unseeded draws (``default_rng()``,
Qiskit's ``StatevectorSampler``) the sandbox already derives from the run's seed.
"""

import os
import sys
import zlib

#: Aer seeds are non-negative 31-bit ints (its option validator accepts ``int``)
_SEED_MASK = 0x7FFFFFFF


def seed_aer(tag="job"):
    """Patch the loaded Qiskit Aer so that runs without a seed get one from the run's seed;
    ``tag`` separates the streams of different job kinds. True when patched (Aer not loaded, or
    an Aer without ``generate_aer_config``: False)."""
    backend = sys.modules.get("qiskit_aer.backends.aerbackend")
    original = getattr(backend, "generate_aer_config", None)
    if original is None:
        return False
    if getattr(original, "qce_original", None) is not None:
        return True
    base = os.environ.get("PYTHONHASHSEED", "0")
    count = [0]

    def generate_aer_config(circuits, backend_options, **run_options):
        config = original(circuits, backend_options, **run_options)
        if run_options.get("seed_simulator") is None and \
                getattr(backend_options, "seed_simulator", None) is None:
            count[0] += 1
            key = f"{base}:{tag}:{count[0]}"
            config.seed_simulator = zlib.crc32(key.encode()) & _SEED_MASK
        return config

    generate_aer_config.qce_original = original
    backend.generate_aer_config = generate_aer_config
    return True
