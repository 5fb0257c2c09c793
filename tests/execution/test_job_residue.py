"""Red-team programs against the sandbox's promises (real processes, root only).

A job must not leave anything a later job (or the judge's trusted job) can see, and nothing the
program puts in its working directory may make the evaluator read a host file or block.
"""

from __future__ import annotations

import os
import textwrap

import pytest

pytestmark = pytest.mark.skipif(os.geteuid() != 0,
                                reason="private namespaces per job need root")

KEY = 0x51C000 + os.getpid() % 0xFFF  # System V IPC keys no one else uses on the host

CREATE = textwrap.dedent(f"""\
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    shm = libc.shmget({KEY}, 1 << 20, 0o1000 | 0o666)         # IPC_CREAT
    addr = libc.shmat(shm, None, 0)
    ctypes.memset(addr, 7, 1 << 20)                            # resident pages
    libc.shmdt(ctypes.c_void_p(addr))
    mq = libc.msgget({KEY + 1}, 0o1000 | 0o666)
    sem = libc.semget({KEY + 2}, 1, 0o1000 | 0o666)
    print(shm >= 0, mq >= 0, sem >= 0)
    """)

LOOK = textwrap.dedent(f"""\
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    print(libc.shmget({KEY}, 0, 0), libc.msgget({KEY + 1}, 0), libc.semget({KEY + 2}, 0, 0))
    """)


def _host_has_key(key: int) -> bool:
    for name in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{name}") as f:
                next(f)
                if any(int(line.split()[0]) == key for line in f if line.strip()):
                    return True
        except OSError:
            pass
    return False


def test_system_v_ipc_objects_die_with_the_job(light_sandbox):
    """Shared memory, message queues and semaphores outlive their process in the host's IPC
    namespace: a job could fill the host's memory with them and pass data to later jobs of its
    slot, the trusted check included. Each job has its own IPC namespace."""
    made = light_sandbox.run(CREATE)
    assert made.status == "ok" and made.stdout.split() == ["True"] * 3, (made.stdout, made.stderr)
    for trusted in (False, True):
        seen = light_sandbox.run(LOOK, trusted=trusted)
        assert seen.status == "ok" and seen.stdout.split() == ["-1"] * 3, seen.stdout
    assert not any(_host_has_key(k) for k in (KEY, KEY + 1, KEY + 2))


def test_collected_names_that_are_symlinks_or_fifos(light_sandbox):
    """A symlink named like an output pointing at a host file is not followed by the evaluator;
    a FIFO named like one does not block it; a regular file next to them is collected."""
    host_file = "/etc/hostname" if os.path.exists("/etc/hostname") else "/etc/passwd"
    src = textwrap.dedent(f"""\
        import os
        os.symlink({host_file!r}, 'out.json')
        os.symlink('/proc/1/environ', 'env.json')
        os.mkfifo('pipe.json')
        os.mkdir('d')
        os.symlink({os.path.dirname(host_file)!r}, 'd/up')
        open('ok.json', 'w').write('{{}}')
        """)
    r = light_sandbox.run(src, collect=("out.json", "env.json", "pipe.json", "d/up/passwd",
                                        "ok.json"))
    assert r.status == "ok", r.stderr
    assert set(r.files) == {"ok.json"}, sorted(r.files)


def test_many_refusals_do_not_grow_the_collected_channel_without_bound(light_sandbox):
    """Collected files are capped at ``file_size_mb`` each (RLIMIT_FSIZE and the reader)."""
    from quantum_codegen_eval.execution import Limits

    src = "f = open('big.bin', 'wb')\ntry:\n    f.write(b'x' * (3 << 20))\nexcept OSError as e:\n" \
          "    print(type(e).__name__)\n"
    r = light_sandbox.run(src, collect=("big.bin",), limits=Limits(wall_time=5, file_size_mb=1))
    assert len(r.files.get("big.bin", b"")) <= 1 << 20
