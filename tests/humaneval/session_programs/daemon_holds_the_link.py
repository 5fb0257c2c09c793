"""Leaves a child holding its end of the session open, then ends during the call."""

import os
import time


def square(x):
    if os.fork() == 0:
        os.setsid()
        time.sleep(300)
    os._exit(0)
