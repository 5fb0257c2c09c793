"""A trusted replay job that also records what the replay measured (tests only).

Run in an era interpreter after the job modules of :mod:`quantum_codegen_eval.judges.qhack.jobs.trusted`
(``_embed.modules_source``): :func:`main` runs the trusted job's own ``main()`` with every
recorded classical function's stand-in traced (its argument, the shot, and its value, the
answer) and writes them with the state cache's counts to ``qce_trace.json``.
"""

import json


def main(harness, check, out_file="qce_trace.json"):
    from quantum_codegen_eval.judges.qhack.jobs import payload, replay, trusted

    calls, replays = [], []
    value_stand_in, init = replay._value_stand_in, replay.Replay.__init__

    def traced_value_stand_in(name, table, rule):
        fn = value_stand_in(name, table, rule)

        def traced(*args, **kwargs):
            value = fn(*args, **kwargs)
            calls.append([name, payload.encode(list(args)), payload.encode(value)])
            return value

        return traced

    def traced_init(self, ns, spec):
        init(self, ns, spec)
        replays.append(self)

    replay._value_stand_in = traced_value_stand_in
    replay.Replay.__init__ = traced_init
    trusted.main(harness, check)
    counts = {"hits": 0, "misses": 0, "memo_hits": 0}
    for r in replays:
        counts["memo_hits"] += r.memo.hits
        for cache in r.caches.values():
            counts["hits"] += cache.hits
            counts["misses"] += cache.misses
    with open(out_file, "w") as fh:
        json.dump({"calls": calls, "counts": counts}, fh)
