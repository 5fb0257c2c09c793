"""The global random state of a job: seeded from the judge's seed, saved and restored around a
solution call (so that the harness's draws are the same stream in every process)."""

import random

import numpy


def seed_all(seed):
    random.seed(seed)
    numpy.random.seed(seed)


def rng_state():
    return random.getstate(), numpy.random.get_state()


def rng_restore(state):
    random.setstate(state[0])
    numpy.random.set_state(state[1])
