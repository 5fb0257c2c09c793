"""Never answers: sleeps in the call, spending no CPU."""

import time


def square(x):
    time.sleep(10**6)
