"""Scale-out: a real dask.distributed LocalCluster gives the same results as the local pool."""

from __future__ import annotations

import pytest

from quantum_codegen_eval.execution import Job, Limits, Sandbox

distributed = pytest.importorskip("distributed")

JOBS = [
    Job("print(sum(range(100)))", id="sum"),
    Job("import sys\nprint(sys.stdin.read().upper())", id="stdin", stdin="abc"),
    Job("raise ValueError('bad input 7')", id="raise"),
    Job("import sys\nsys.exit(4)", id="exit4"),
    Job("while True:\n    pass", id="loop", limits=Limits(wall_time=1)),
    Job("open('out.txt', 'w').write('x' * 3)", id="collect", collect=("out.txt",)),
    Job("import ctypes\nctypes.string_at(0)", id="segv"),
]


def _key(r):
    # a timeout's signal depends on which limit fired first (CPU: SIGXCPU, wall: SIGKILL), a race
    signal = None if r.status == "timeout" else r.signal
    return (r.id, r.status, r.exit_code, signal, r.stdout,
            r.exception.type if r.exception else None, r.files)


@pytest.mark.slow
def test_dask_local_cluster_matches_local_pool():
    with Sandbox(workers=2, preload=(), wall_time=10) as local:
        expected = sorted(_key(r) for r in local.map(JOBS))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = Sandbox(executor=client.get_executor(), preload=(), wall_time=10)
        streamed = sorted(_key(r) for r in remote.map(JOBS))
        ordered = remote.run_jobs(JOBS)
        remote.close()
    assert streamed == expected
    assert [r.id for r in ordered] == [j.id for j in JOBS]
    assert sorted(_key(r) for r in ordered) == expected
    assert dict((k[0], k[1]) for k in expected)["loop"] == "timeout"
