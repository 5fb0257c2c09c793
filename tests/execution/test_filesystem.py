"""Adversarial filesystem tests: what a job can and cannot see (real processes, root only).

Every program tries to obtain something it must not and also reads a control it must be able
to read (its own file), so a broken sandbox that runs nothing, or reads nothing, fails here too.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

import quantum_codegen_eval
from quantum_codegen_eval.execution import Job, ResultStore, Sandbox
from quantum_codegen_eval.execution._worker import interpreter_paths

LEFT = f"qce-test-left-{os.getpid()}"  # a name no one else uses on the host
pytestmark = pytest.mark.skipif(os.geteuid() != 0,
                                reason="a private mount namespace per job needs root")

ATTEMPT = textwrap.dedent("""\
    import json, os, sys

    def attempt(path):
        try:
            with open(path, 'rb') as f:
                return 'READ:' + f.read(4000).decode('latin-1')
        except OSError as e:
            return type(e).__name__

    def write(path):
        try:
            with open(path, 'w') as f:
                f.write('pwned')
            return 'WROTE'
        except OSError as e:
            return f'{type(e).__name__}:{e.errno}'

    open('own.txt', 'w').write('mine')
    out = {'control': attempt('own.txt')}
    """)


def run_attempt(sb: Sandbox, body: str, **job: object) -> dict:
    r = sb.run(ATTEMPT + textwrap.dedent(body) + "\nprint(json.dumps(out))\n", **job)
    assert r.status == "ok", r.stderr
    out = json.loads(r.stdout)
    assert out.pop("control") == "READ:mine"
    return out


@pytest.fixture(scope="module", params=["zygote", "fresh"])
def fsb(request):
    with Sandbox(workers=2, preload=(), wall_time=20, memory_mb=1024,
                 fresh=request.param == "fresh") as sb:
        yield sb


def test_root_home_and_shadow_do_not_exist_for_the_job(fsb):
    with tempfile.NamedTemporaryFile("w", dir="/root", suffix=".secret") as secret:
        secret.write("root-secret")
        secret.flush()
        assert open("/etc/shadow").read()  # the host has them: the attempt below is real
        out = run_attempt(fsb, f"""
            out['root_file'] = attempt({secret.name!r})
            out['shadow'] = attempt('/etc/shadow')
            out['gshadow'] = attempt('/etc/gshadow')
            out['root_ls'] = sorted(os.listdir('/root')) if os.path.isdir('/root') else None
            out['passwd'] = attempt('/etc/passwd')
            """)
    assert out["root_file"] == out["shadow"] == out["gshadow"] == "FileNotFoundError"
    assert out["root_ls"] in (None, [".pyenv"])  # only a bound interpreter may live there
    users = [line.split(":")[0] for line in out["passwd"][5:].splitlines()]
    assert out["passwd"].startswith("READ:") and users == ["root", "sandbox", "nobody"]
    assert all(line.split(":")[1] == "x" for line in out["passwd"][5:].splitlines())


def test_evaluator_cwd_predictions_and_result_store_are_invisible(fsb, tmp_path):
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text('{"id": "p1", "completion": "secret-answer"}\n')
    store = ResultStore(tmp_path / "results.jsonl")
    store.add({"id": "before", "status": "ok"})
    cwd_file = Path(os.getcwd()) / "pyproject.toml"
    assert cwd_file.exists()
    before = (tmp_path / "results.jsonl").read_bytes()
    out = run_attempt(fsb, f"""
        out['predictions'] = attempt({str(predictions)!r})
        out['store'] = attempt({str(tmp_path / "results.jsonl")!r})
        out['store_write'] = write({str(tmp_path / "results.jsonl")!r})
        out['cwd_file'] = attempt({str(cwd_file)!r})
        out['cwd_listing'] = os.path.isdir({os.getcwd()!r} + '/src')
        """)
    assert out == {"predictions": "FileNotFoundError", "store": "FileNotFoundError",
                   "store_write": f"FileNotFoundError:{errno.ENOENT}",
                   "cwd_file": "FileNotFoundError", "cwd_listing": False}
    assert (tmp_path / "results.jsonl").read_bytes() == before


@pytest.mark.slow  # several seconds of real processes: not in the fast tier
def test_another_running_jobs_directory_is_invisible(fsb):
    """Job A holds a secret in its working dir while job B, running at the same time, looks
    for it by A's host path and by walking everything it can see."""
    secret = f"concurrent-secret-{os.getpid()}"
    holder = fsb.submit(Job(f"import time\nopen('secret.txt', 'w').write({secret!r})\n"
                            "import os\nos.makedirs('/dev/shm', exist_ok=True)\n"
                            f"open('/tmp/{LEFT}', 'w').write({secret!r})\n"
                            f"open('/dev/shm/{LEFT}', 'w').write({secret!r})\n"
                            "time.sleep(6)\nprint(open('secret.txt').read())\n", id="holder"))
    deadline = time.monotonic() + 15
    found: list[str] = []
    while not found and time.monotonic() < deadline:
        found = [str(p) for p in Path(fsb._base).glob("slot-*/run-*/work/secret.txt")]
        time.sleep(0.05)
    assert found, "job A never wrote its secret"
    out = run_attempt(fsb, f"""
        out['by_path'] = attempt({found[0]!r})
        out['run_dir'] = os.path.exists({os.path.dirname(os.path.dirname(found[0]))!r})
        needle = {secret[::-1]!r}[::-1]  # not spelled out: this very script is readable
        hits = []
        for top in ('/tmp', '/dev/shm', '/work', '/etc', '/root', '/var', '/home'):
            for root, dirs, files in os.walk(top):
                for name in files:
                    got = attempt(os.path.join(root, name))
                    if needle in got:
                        hits.append(os.path.join(root, name))
        out['hits'] = hits
        out['tmp'] = sorted(os.listdir('/tmp'))
        """)
    held = holder.result()
    assert (held.status, held.stdout) == ("ok", secret + "\n"), held.stderr  # the control
    assert out["by_path"] == "FileNotFoundError" and out["run_dir"] is False
    assert out["hits"] == []
    # /tmp shows the sandbox's own folder and, when the interpreter lives below /tmp (a clone
    # there), the first folder of its path: nothing of another job
    interp = {Path(p).resolve().parts[2] for p in (sys.prefix, sys.base_prefix, sys.executable)
              if Path(p).resolve().parts[1:2] == ("tmp",) and len(Path(p).resolve().parts) > 2}
    others = [e for e in out["tmp"] if not e.startswith("qce-sandbox-")]
    assert len(out["tmp"]) - len(others) == 1 and set(others) <= interp, out["tmp"]
    assert not os.path.exists(f"/tmp/{LEFT}") and not os.path.exists(f"/dev/shm/{LEFT}")


def test_tmp_and_shm_are_fresh_for_every_job():
    with Sandbox(workers=1, preload=(), wall_time=10) as sb:  # one slot: the same uid, zygote
        first = run_attempt(sb, f"""
            open('/tmp/{LEFT}', 'w').write('x1')
            open('/dev/shm/{LEFT}', 'w').write('x2')
            out['tmp'] = attempt('/tmp/{LEFT}')
            out['shm'] = attempt('/dev/shm/{LEFT}')
            """)
        second = run_attempt(sb, f"""
            out['tmp'] = attempt('/tmp/{LEFT}')
            out['shm'] = attempt('/dev/shm/{LEFT}')
            out['shm_ls'] = os.listdir('/dev/shm')
            """)
    assert first == {"tmp": "READ:x1", "shm": "READ:x2"}
    assert second == {"tmp": "FileNotFoundError", "shm": "FileNotFoundError", "shm_ls": []}
    assert not os.path.exists(f"/tmp/{LEFT}") and not os.path.exists(f"/dev/shm/{LEFT}")


def test_writes_outside_the_job_dir_fail(fsb):
    site = next(p for p in sys.path if p.endswith("site-packages"))
    out = run_attempt(fsb, f"""
        out['usr'] = write('/usr/pwned')
        out['etc'] = write('/etc/pwned')
        out['root'] = write('/pwned')
        out['stdlib'] = write(os.path.dirname(os.__file__) + '/pwned.py')
        out['site'] = write({site!r} + '/pwned.py')
        out['dev'] = write('/dev/pwned')
        """)
    rofs = f"OSError:{errno.EROFS}"
    assert out["usr"] == out["etc"] == out["root"] == out["stdlib"] == out["site"] == rofs, out
    assert out["dev"] == f"PermissionError:{errno.EACCES}", out
    for path in ("/usr/pwned", "/etc/pwned", "/pwned", os.path.join(site, "pwned.py")):
        assert not os.path.exists(path)


def test_this_package_is_hidden_from_untrusted_jobs_and_visible_to_trusted(fsb):
    pkg = Path(quantum_codegen_eval.__file__).resolve().parent
    judge_file = pkg / "judges" / "base.py"
    assert judge_file.exists()
    program = f"""
        try:
            import quantum_codegen_eval.judges.base as b
            out['import'] = 'IMPORTED ' + b.__file__
        except ImportError as e:
            out['import'] = type(e).__name__
        out['by_path'] = attempt({str(judge_file)!r})
        out['dir'] = os.listdir({str(pkg)!r}) if os.path.isdir({str(pkg)!r}) else None
        """
    untrusted = run_attempt(fsb, program)
    assert untrusted["import"] == "ModuleNotFoundError"
    assert untrusted["by_path"] == "FileNotFoundError"
    assert untrusted["dir"] in (None, [])  # not mounted (editable) or masked empty (wheel)
    trusted = run_attempt(fsb, program, trusted=True)
    assert trusted["import"] == f"IMPORTED {judge_file}"
    assert trusted["by_path"] == "READ:" + judge_file.read_text(encoding="latin-1")[:4000]
    assert "judges" in trusted["dir"]


def test_proc_shows_only_the_jobs_own_processes(fsb):
    me = os.getpid()
    zygotes = [z.pid for s in fsb._all_slots for z in s.zygotes.values()]
    out = run_attempt(fsb, f"""
        out['environ'] = attempt('/proc/{me}/environ')
        out['cmdline'] = attempt('/proc/{me}/cmdline')
        out['zygotes'] = [os.path.exists('/proc/%d' % p) for p in {zygotes!r}]
        out['init'] = os.path.exists('/proc/1/cmdline')
        pids = [int(p) for p in os.listdir('/proc') if p.isdigit()]
        out['foreign'] = [p for p in pids if os.stat('/proc/%d' % p).st_uid != os.getuid()]
        out['self'] = os.getpid() in pids
        out['own_cmdline'] = attempt('/proc/self/cmdline').startswith('READ:')
        """)
    assert out == {"environ": "FileNotFoundError", "cmdline": "FileNotFoundError",
                   "zygotes": [False] * len(zygotes), "init": False, "foreign": [],
                   "self": True, "own_cmdline": True}


def test_root_shows_only_the_system_and_the_interpreter(fsb):
    out = run_attempt(fsb, """
        out['root'] = sorted(os.listdir('/'))
        out['dev'] = sorted(os.listdir('/dev'))
        out['sys'] = os.path.exists('/sys/kernel')
        out['urandom'] = len(open('/dev/urandom', 'rb').read(8))
        """)
    # The interpreter may live anywhere (a CI clone under /check, a venv under /work): its top
    # folder is shown, nothing else beyond the system's own directories.
    interpreter_tops = {Path(os.path.realpath(p)).parts[1] for p in interpreter_paths()}
    assert set(out["root"]) <= {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc",
                                "sbin", "tmp", "usr"} | interpreter_tops
    assert {"etc", "dev", "proc", "tmp", "usr"} <= set(out["root"])
    assert out["dev"] == ["fd", "full", "null", "random", "shm", "stderr", "stdin", "stdout",
                          "urandom", "zero"]
    assert out["sys"] is False and out["urandom"] == 8


def _pyenv_python() -> str | None:
    path = "/root/.pyenv/versions/3.11.7/bin/python"
    return path if os.path.exists(path) else None


@pytest.mark.skipif(_pyenv_python() is None, reason="no pyenv 3.11.7 under /root")
def test_venv_of_a_pyenv_interpreter_under_the_0700_root(tmp_path):
    """CI's interpreters live under /root (0700): a venv made from one runs for the job's uid
    with no capability, and still reads nothing else of /root."""
    venv = tmp_path / "venv"
    subprocess.run([_pyenv_python(), "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    (venv / "lib" / "python3.11" / "site-packages" / "venvmod.py").write_text("X = 42\n")
    python = str(venv / "bin" / "python")
    with Sandbox(workers=1, preload=("json",), python=python, wall_time=20) as sb:
        out = run_attempt(sb, """
            import decimal, sqlite3, ssl, venvmod
            out['prefix'] = sys.prefix
            out['version'] = sys.version_info[:2]
            out['venvmod'] = venvmod.X
            out['uid'] = os.getuid() != 0
            out['caps'] = [l.split()[1] for l in open('/proc/self/status')
                           if l.startswith('CapEff')][0]
            out['bashrc'] = attempt('/root/.bashrc')
            out['versions'] = sorted(os.listdir('/root/.pyenv/versions'))
            """)
        assert sb.isolation["preloaded"] == ["json"]
    assert out == {"prefix": str(venv), "version": [3, 11], "venvmod": 42, "uid": True,
                   "caps": "0000000000000000", "bashrc": "FileNotFoundError",
                   "versions": ["3.11.7"]}
    assert os.path.exists("/root/.bashrc")  # the host has it


def test_the_hidden_package_is_never_preloaded():
    """A zygote serving untrusted jobs never imports secrets: preloading this package is refused."""
    with Sandbox(workers=1, preload=("json", "quantum_codegen_eval.judges.base")) as sb:
        r = sb.run("import sys\nprint(sorted(m for m in sys.modules if m.startswith('quantum')))")
        info = sb.isolation
    assert (r.status, r.stdout) == ("ok", "[]\n"), r.stderr
    assert info["preloaded"] == ["json"]
    assert info["preload_failed"]["quantum_codegen_eval.judges.base"].startswith("refused")


def test_the_job_cannot_leave_its_root(fsb):
    """The classic chroot escapes: chroot(2) again, a user namespace to regain the capability,
    mounting, following /proc/<pid>/root of a process outside."""
    out = run_attempt(fsb, """
        import ctypes, errno
        libc = ctypes.CDLL(None, use_errno=True)
        os.mkdir('x')
        try:
            os.chroot('x')
            for _ in range(20):
                os.chdir('..')
            os.chroot('.')
            out['chroot'] = 'ESCAPED' if os.path.exists('/etc/shadow') else 'chrooted'
        except OSError as e:
            out['chroot'] = type(e).__name__
        out['userns'] = errno.errorcode.get(
            0 if libc.unshare(0x10000000) == 0 else ctypes.get_errno())
        out['mount'] = errno.errorcode.get(
            0 if libc.mount(b'none', b'x', b'tmpfs', 0, None) == 0 else ctypes.get_errno())
        out['proc_root'] = os.path.exists('/proc/1/root/etc/shadow')
        out['shadow'] = attempt('/etc/shadow')
        """)
    assert out == {"chroot": "PermissionError", "userns": "EPERM", "mount": "EPERM",
                   "proc_root": False, "shadow": "FileNotFoundError"}


def test_a_wheel_install_of_this_package_is_masked_inside_site_packages(tmp_path):
    """A wheel puts the package inside site-packages, which the job needs: its directory is
    covered by an empty one for untrusted jobs, and shown to trusted ones."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "quantum_codegen_eval").mkdir()
    (site / "quantum_codegen_eval" / "__init__.py").write_text("SECRET = 'reference-answer'\n")
    (site / "othermod.py").write_text("X = 1\n")
    program = f"""
        import othermod
        out['other'] = othermod.X
        import quantum_codegen_eval  # an empty directory still imports (a namespace package)
        out['import'] = getattr(quantum_codegen_eval, 'SECRET', 'no SECRET')
        out['file'] = attempt({str(site / "quantum_codegen_eval" / "__init__.py")!r})
        out['ls'] = os.listdir({str(site / "quantum_codegen_eval")!r})
        """
    with Sandbox(workers=1, preload=(), python=str(venv / "bin" / "python"), wall_time=20) as sb:
        untrusted = run_attempt(sb, program)
        trusted = run_attempt(sb, program, trusted=True)
    assert untrusted == {"other": 1, "import": "no SECRET", "file": "FileNotFoundError",
                         "ls": []}
    assert trusted == {"other": 1, "import": "reference-answer",
                       "file": "READ:SECRET = 'reference-answer'\n", "ls": ["__init__.py"]}


def test_the_interpreter_and_a_shell_still_start_inside(fsb):
    out = run_attempt(fsb, """
        import subprocess
        out['python'] = subprocess.run([sys.executable, '-c', 'import json, ssl; print(7)'],
                                       capture_output=True, text=True).stdout
        out['sh'] = subprocess.run('echo $((6 * 7)) && cat own.txt', shell=True,
                                   capture_output=True, text=True).stdout
        import multiprocessing  # its locks are POSIX semaphores in the private /dev/shm
        with multiprocessing.Pool(2) as pool:
            out['pool'] = pool.map(abs, [-1, -2])
        """)
    assert out == {"python": "7\n", "sh": "42\nmine", "pool": [1, 2]}


def test_tls_certificates_are_there_and_private_keys_are_not(fsb):
    out = run_attempt(fsb, """
        import ssl
        ctx = ssl.create_default_context()
        out['cas'] = len(ctx.get_ca_certs()) > 0 or len(os.listdir('/etc/ssl/certs')) > 0
        out['private'] = os.path.exists('/etc/ssl/private')
        """)
    assert out == {"cas": True, "private": False}
