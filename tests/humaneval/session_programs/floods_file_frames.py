"""Writes file frames of its own on the session before its top level ends, then answers
right."""

import fcntl
import json
import os
import stat
import struct


def _session_out():
    for fd in range(3, 256):
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISFIFO(mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                yield fd
        except OSError:
            pass


payload = json.dumps({"note.txt": "aGk="}).encode()
for fd in _session_out():
    for _ in range(3):
        os.write(fd, struct.pack(">cI", b"F", len(payload)) + payload)


def square(x):
    return x * x
