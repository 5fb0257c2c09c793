"""judges/_embed.py: a job module and the job modules it imports become one script that runs in
a Python that cannot import the package."""

import subprocess
import sys
import textwrap

import pytest

from quantum_codegen_eval.judges import _embed


@pytest.fixture
def jobpkg(tmp_path, monkeypatch):
    """A throwaway package ``qce_jobpkg`` with job modules that import each other."""
    root = tmp_path / "src" / "qce_jobpkg"
    (root / "jobs").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "jobs" / "__init__.py").write_text("")
    (root / "jobs" / "codec.py").write_text(textwrap.dedent("""
        import json
        SCALE = 3
        def encode(value):
            return json.dumps({"v": value * SCALE})
    """))
    (root / "jobs" / "helpers.py").write_text(textwrap.dedent("""
        from qce_jobpkg.jobs import codec
        def twice(x):
            return codec.encode(2 * x)
    """))
    (root / "jobs" / "main.py").write_text(textwrap.dedent("""
        import sys
        from . import helpers
        from .codec import SCALE
        def main(x, label, *, check=None):
            sys.stdout.write(label + helpers.twice(x) + str(SCALE) + "\\n")
    """))
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    for name in [m for m in sys.modules if m.startswith("qce_jobpkg")]:
        monkeypatch.delitem(sys.modules, name)
    _embed.needed.cache_clear()
    _embed._source.cache_clear()
    yield
    _embed.needed.cache_clear()
    _embed._source.cache_clear()


def test_script_runs_without_the_package(jobpkg, tmp_path):
    import qce_jobpkg.jobs.main as entry

    assert _embed.needed(entry.__name__) == (
        "qce_jobpkg.jobs.codec", "qce_jobpkg.jobs.helpers", "qce_jobpkg.jobs.main")
    script = _embed.job_source(entry, "main", 5, "x=")
    # -I: isolated; the cwd holds no copy of the package, so only the script can provide it
    out = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True,
                         cwd=tmp_path, check=True)
    assert out.stdout == 'x={"v": 30}3\n'


def test_arguments_must_be_literals(jobpkg):
    import qce_jobpkg.jobs.main as entry

    with pytest.raises(TypeError, match="not a literal"):
        _embed.job_source(entry, "main", object())


def test_a_cycle_is_refused(jobpkg, tmp_path):
    jobs = tmp_path / "src" / "qce_jobpkg" / "jobs"
    (jobs / "a.py").write_text("from . import b\n")
    (jobs / "b.py").write_text("from . import a\n")
    with pytest.raises(ImportError, match="cycle"):
        _embed.needed("qce_jobpkg.jobs.a")


def test_the_prelude_installs_the_job_modules_in_the_worker(jobpkg, tmp_path):
    """With ``Job.prelude`` the worker installs the modules once; the job's script finds them
    installed from the same source and keeps them (imported in another process: the worker)."""
    from quantum_codegen_eval.execution import Job, Sandbox

    (tmp_path / "src" / "qce_jobpkg" / "jobs" / "where.py").write_text(textwrap.dedent("""
        import os
        from . import codec
        IMPORTED_BY = os.getpid()
        def main():
            print(IMPORTED_BY != os.getpid(), codec.SCALE)
    """))
    import qce_jobpkg.jobs.where as entry

    script = _embed.job_source(entry, "main")
    job = _embed.job(entry, "main", id="where")  # the one way the judges make a job
    assert (job.source, job.prelude, job.id) == (script, _embed.prelude(entry), "where")
    with Sandbox(workers=1, preload=(), wall_time=10) as sb:
        plain = sb.run_job(Job(script))
        first = sb.run_job(job)
        again = sb.run_job(Job(script))  # the worker keeps them for later jobs
    assert (plain.stdout, first.stdout, again.stdout) == ("False 3\n", "True 3\n", "True 3\n")


def test_install_keeps_what_has_the_same_source_up_to_the_first_change(monkeypatch):
    from quantum_codegen_eval.judges import _bootstrap

    for name in [m for m in sys.modules if m.startswith("qce_bootdemo")]:
        monkeypatch.delitem(sys.modules, name)
    a, b = ("qce_bootdemo.a", "X = [1]\n"), ("qce_bootdemo.b", "from . import a\nY = a.X\n")
    try:
        _bootstrap._install([a, b])
        first = sys.modules["qce_bootdemo.a"], sys.modules["qce_bootdemo.b"]
        _bootstrap._install([a, b])
        assert (sys.modules["qce_bootdemo.a"], sys.modules["qce_bootdemo.b"]) == first
        _bootstrap._install([(a[0], "X = [2]\n"), b])  # b depends on a: both anew
        assert sys.modules["qce_bootdemo.a"] is not first[0]
        assert sys.modules["qce_bootdemo.b"] is not first[1]
        assert sys.modules["qce_bootdemo.b"].Y == [2]
    finally:
        for name in [m for m in sys.modules if m.startswith("qce_bootdemo")]:
            del sys.modules[name]
