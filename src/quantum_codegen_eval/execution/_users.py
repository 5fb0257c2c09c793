"""Unprivileged uids for the sandbox (root only).

Each worker slot leases a uid of its own from a dedicated range, with an ``flock`` held for the
slot's lifetime, so that "kill every process of this uid" after a run hits that run only, even
with several Sandboxes (or dask workers) on one machine. Uids with a passwd entry are skipped.
"""

from __future__ import annotations

import fcntl
import os
import pwd
from dataclasses import dataclass

UID_BASE = 61000
UID_COUNT = 1000
LOCK_DIR = "/run/qce-sandbox-uids" if os.path.isdir("/run") else "/tmp/qce-sandbox-uids"


@dataclass
class UidLease:
    """A uid for one slot; ``exclusive`` means no other slot runs as it (so it may be swept)."""

    uid: int
    exclusive: bool
    fd: int | None = None

    @classmethod
    def fixed(cls, user: str | int) -> UidLease:
        uid = user if isinstance(user, int) else pwd.getpwnam(user).pw_uid
        if uid == 0:
            raise ValueError("the sandbox user must not be root")
        return cls(uid, exclusive=False)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _lock_dir() -> str:
    os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
    st = os.lstat(LOCK_DIR)
    if st.st_uid != 0 or st.st_mode & 0o022:
        raise PermissionError(f"{LOCK_DIR} must be owned by root and not group/world-writable")
    return LOCK_DIR


def lease_uid() -> UidLease:
    """Lease a free uid from the range (skipping uids in passwd or owning processes)."""
    d = _lock_dir()
    for uid in range(UID_BASE, UID_BASE + UID_COUNT):
        try:
            pwd.getpwuid(uid)
            continue
        except KeyError:
            pass
        fd = os.open(os.path.join(d, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return UidLease(uid, exclusive=True, fd=fd)
    raise RuntimeError(f"no free sandbox uid in {UID_BASE}..{UID_BASE + UID_COUNT - 1}")
