"""Judging on a ``dask.distributed`` cluster (docs/cluster.md): connect, size, check workers.

>>> Cluster.connect(None, None) is None  # no scheduler, no executor: the local pool
True

``evaluate(..., scheduler="tcp://host:8786")`` (``qce evaluate --scheduler``) or
``evaluate(..., executor=client.get_executor())`` sends every sandbox job to the cluster; each
worker runs it in its own local :class:`~.execution.Sandbox`. Before judging, every worker is
asked whether it has the interpreters the planned jobs name (the era environments): a worker
without one stops the run at once, naming the worker and the ``qce env create NAME`` to run
there. Environments are not created on workers by the run itself: building one takes minutes
and the network, and concurrent builds on a shared cache would race.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

#: jobs in flight per worker thread: one running, one on its way (hides the round trip)
IN_FLIGHT_PER_THREAD = 2
#: the local threads waiting on remote jobs (they only wait): the most jobs ever in flight
MAX_IN_FLIGHT = 512
#: seconds to wait for a first worker (a batch system may start them late)
WAIT_FOR_WORKERS = 600


class ClusterError(RuntimeError):
    """The cluster cannot judge (a worker lacks an environment, a worker was lost after the
    executor's retries): the run stops, every decided verdict stays in the store."""


@dataclass
class Cluster:
    """A dask executor to judge on, and its client (``None`` for a non-dask executor)."""

    executor: Any
    client: Any = None
    own_client: bool = False
    fallback_slots: int = 1
    _slots: tuple[float, int] = field(default=(0.0, 0), repr=False)

    @classmethod
    def connect(cls, scheduler: Any, executor: Any, workers: int | None = None
                ) -> Cluster | None:
        """``scheduler``: an address or a ``distributed.Client``; ``executor``: any
        ``concurrent.futures.Executor`` (a dask client's executor is recognised)."""
        if scheduler is None and executor is None:
            return None
        if scheduler is not None and executor is not None:
            raise ValueError("give scheduler= or executor=, not both")
        import os

        fallback = max(1, workers or os.cpu_count() or 1)
        if executor is not None:
            return cls(executor, getattr(executor, "_client", None), False, fallback)
        try:
            import distributed
        except ImportError:
            raise ClusterError("scheduler= needs dask.distributed: pip install "
                               "'quantum-codegen-eval[cluster]'") from None
        if isinstance(scheduler, distributed.Client):
            return cls(scheduler.get_executor(), scheduler, False, fallback)
        try:
            client = distributed.Client(scheduler)  # connect timeout: dask's config
        except OSError as exc:
            raise ClusterError(f"cannot reach the dask scheduler at {scheduler}: {exc}") from None
        return cls(client.get_executor(), client, True, fallback)

    def slots(self) -> int:
        """Jobs to keep in flight: twice the cluster's worker threads now (it may grow or
        shrink while judging), refreshed every few seconds."""
        if self.client is None:
            return self.fallback_slots
        at, n = self._slots
        now = time.monotonic()
        if now - at > 5.0:
            try:
                threads = sum(self.client.nthreads().values())
            except Exception:  # noqa: BLE001 - a scheduler hiccup: keep the last figure
                threads = n // IN_FLIGHT_PER_THREAD
            n = min(MAX_IN_FLIGHT, max(1, IN_FLIGHT_PER_THREAD * threads))
            self._slots = (now, n)
        return n

    def check_workers(self, interpreters: dict[str, str | None]) -> None:
        """Stop (``ClusterError``) if a worker lacks one of ``interpreters`` (path -> the
        environment's name, or ``None``), naming the worker and the command to run there."""
        if self.client is None or not interpreters:
            return
        from .execution import missing_interpreters

        if not self.client.scheduler_info().get("workers"):
            try:
                self.client.wait_for_workers(1, timeout=WAIT_FOR_WORKERS)
            except TimeoutError:
                raise ClusterError(f"no worker joined the cluster within {WAIT_FOR_WORKERS} s"
                                   ) from None
        missing = self.client.run(missing_interpreters, sorted(interpreters))
        problems = [(worker, path) for worker, paths in sorted(missing.items())
                    for path in paths]
        if problems:
            raise ClusterError(_missing_message(problems, interpreters))

    def close(self) -> None:
        if self.own_client and self.client is not None:
            self.client.close()


def missing_interpreter_message(python: str, worker: str, interpreters: dict[str, str | None]
                                ) -> str:
    """One worker without one interpreter (found when a job reached it)."""
    return _missing_message([(worker, python)], interpreters)


def _missing_message(problems: Iterable[tuple[str, str]],
                     interpreters: dict[str, str | None]) -> str:
    parts = []
    for worker, path in problems:
        name = interpreters.get(path)
        fix = f"run `qce env create {name}` there" if name else "install it there"
        parts.append(f"worker {worker} has no {path} ({fix})")
    return ("cannot judge on this cluster: " + "; ".join(parts)
            + " (environments must sit at the same path on every worker: the same $QCE_CACHE, "
            "or a shared one)")
