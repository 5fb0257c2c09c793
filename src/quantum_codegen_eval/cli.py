"""``qce``: the command line.

Subcommands (their shape is fixed; see docs/cli.md)::

    qce benchmarks [--json]                        every benchmark: where from, judged, configs
    qce build <dataset> --out DIR [--source PATH] [--github-url URL]   upstream -> dataset folder
    qce prompts <benchmark> [--config C] [--data-dir DIR] --out FILE   {id, prompt} per problem
                [--rag CORPUS [--top-k 5] [--threshold 0.6] [--retriever bm25|embedding]]
    qce judge <benchmark> <problem-id> <file> [--data-dir DIR] [--json]
    qce env [list | create NAME | path NAME | remove NAME]
    qce evaluate <predictions> --benchmark NAME [--config C] [--data-dir DIR] [--out DIR] [--resume]
    qce demo [--out DIR]
    qce compare RUN... --out DIR [--label NAME=PATH] [--allow-mismatch] [-k 1 5]
    qce view RUN... --out DIR [--label NAME=PATH]                    runs as a static site
    qce publish <dataset folder> <hub id>
    qce publish-run <run>... --repo-id ID [--out DIR] [--dry-run]    runs as a details dataset
    qce contamination <corpus> --benchmark NAME [--config C] [--code-column COL] [--out DIR]
                      [--exit-zero]

Exit codes: 0 success (``judge``: the verdict is AC), 1 the job ran but the result is a failure
(``judge``: any verdict other than AC; ``contamination``: an entry was flagged, unless
``--exit-zero``; ``prompts --rag``: the corpus holds a problem's code, refused), 2 usage error (unknown subcommand, option, benchmark,
config or dataset; a benchmark without a judge), 3 bad input data (a file or record that cannot
be read; the message names it), 130 interrupted (Ctrl-C; ``evaluate`` says how to resume).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: the cluster cannot judge (a worker lacks an environment, a worker lost): results kept, resume
EXIT_CLUSTER = 4


def _builders() -> dict[str, str]:
    """Dataset name accepted by ``qce build`` -> builder module (from the declarations)."""
    from .benchmarks.base import builders

    return builders()


def _benchmarks() -> str:
    """The benchmarks ``evaluate`` can judge, with the configs it accepts (data-only configs,
    such as QCoder's human submissions, and benchmarks without a judge are named as such)."""
    from .benchmarks.base import registry

    return "; ".join(f"{b.name} ({', '.join(b.record_configs)})" if b.judge
                     else f"{b.name} (no judge)" for b in registry().values())


class InputError(Exception):
    """Bad input data; the message names the file or record (exit code 3)."""


def _parser() -> argparse.ArgumentParser:
    from . import __version__
    from .inputs import FORMATS

    p = argparse.ArgumentParser(prog="qce", description="Evaluate LLM-generated quantum code.")
    p.add_argument("--version", action="version", version=f"qce {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    bl = sub.add_parser("benchmarks", help="list every benchmark, built-in or plugin: where it "
                        "comes from, whether it has a judge, its configs")
    bl.add_argument("--json", action="store_true", help="print one JSON object per benchmark")

    b = sub.add_parser("build", help="build a Hub-ready dataset folder from upstream material")
    b.add_argument("dataset", help=f"one of: {', '.join(_builders())}")
    b.add_argument("--source", help="local upstream copy: a checkout, an unpacked archive, a folder "
                   "holding several, or a .tar.gz (default: download at the pinned commit)")
    b.add_argument("--github-url", help="download base for upstream archives (default: "
                   "$QCE_GITHUB_URL or https://codeload.github.com)")
    b.add_argument("--out", help="output dataset folder (default, for a benchmark downloaded at "
                   "its pinned commit: the cache folder that evaluate, prompts and judge read)")
    b.add_argument("--option", action="extend", nargs="+", default=[], metavar="KEY=VALUE",
                   help="builder-specific options: --option a=1 b=2 (or --option repeated)")

    pr = sub.add_parser("prompts", help="write what a model is given: one {id, prompt} per problem")
    pr.add_argument("benchmark", help="benchmark name or alias")
    pr.add_argument("--config", help="dataset config (default: the benchmark's first)")
    pr.add_argument("--data-dir", help="local dataset folder (default: built in the cache)")
    pr.add_argument("--out", required=True, help="JSONL file to write (- for stdout)")
    rg = pr.add_argument_group("retrieval-augmented prompts (docs/benchmarks/pennysynth.md)")
    rg.add_argument("--rag", metavar="CORPUS", help="retrieve examples from a PennySynth-schema "
                    "corpus (dataset folder, JSONL / JSON / Parquet file or Hub id)")
    rg.add_argument("--top-k", type=int, default=5, help="examples per prompt (default 5)")
    rg.add_argument("--threshold", type=float, default=0.6, help="similarity below which the "
                    "prompt falls back to the plain prompt (default 0.6)")
    rg.add_argument("--retriever", choices=["bm25", "embedding"], default="bm25",
                    help="bm25 (default, no model) or embedding (needs --embed)")
    rg.add_argument("--embed", metavar="MODULE:FUNCTION", help="texts -> vectors, for the "
                    "embedding retriever")
    rg.add_argument("--expand", metavar="MODULE:FUNCTION", help="query expansion: query -> query")
    rg.add_argument("--drop-contaminated", action="store_true", help="leave out (and count) the "
                    "entries flagged for the problem being prompted (default: refuse the corpus)")

    j = sub.add_parser("judge", help="judge one completion of one problem")
    j.add_argument("benchmark", help="benchmark name or alias")
    j.add_argument("problem_id", help="the problem's id in the dataset, e.g. QPC001_A1")
    j.add_argument("file", help="completion file (raw model output or code); - for stdin")
    j.add_argument("--data-dir", help="local dataset folder (default: built in the cache)")
    j.add_argument("--json", action="store_true", help="print one JSON object")
    j.add_argument("--env", help="environment to run in (e.g. QHack: 'era' or 'current')")

    e = sub.add_parser("env", help="era environments (pinned interpreters for old benchmarks)")
    e.add_argument("action", nargs="?", default="list", choices=["list", "create", "path", "remove"],
                   help="list them (default), create one, print its interpreter, or remove it")
    e.add_argument("name", nargs="?", help="environment name (see `qce env list`)")
    e.add_argument("--json", action="store_true", help="print the list as JSON")

    ev = sub.add_parser("evaluate", help="judge and score a file of predictions",
                        description="Judge and score a file of predictions. Ctrl-C stops the run, "
                        "keeps every result already judged and prints the command that resumes it.")
    ev.add_argument("predictions", help="JSONL of {id, completion} rows or JSON {id: [completions]}")
    ev.add_argument("--input-format", default="auto",
                    choices=FORMATS,
                    help="the file's format (default: auto, told from its content): our JSONL / "
                    "JSON, lm-eval --log_samples, OpenAI Batch output, inspect_ai log "
                    "(docs/input-formats.md)")
    ev.add_argument("--benchmark", required=True, metavar="NAME",
                    help=f"benchmark (its configs in parentheses, the first is the default): {_benchmarks()}")
    ev.add_argument("--config", help="dataset config (default: the benchmark's first)")
    ev.add_argument("--data-dir", help="local dataset folder from `qce build` (default: built in "
                    "the cache on first use)")
    ev.add_argument("--out", default="qce-report",
                    help="report folder (JSON, Markdown, plots; default: qce-report)")
    ev.add_argument("--store", help="result store (JSONL); default: <out>/results.jsonl")
    ev.add_argument("--resume", action="store_true", help="reuse results already in the store")
    ev.add_argument("-k", type=int, action="extend", nargs="+", metavar="K",
                    help="pass@k values: -k 1 5 or -k 1 -k 5 (default: 1 5)")
    ev.add_argument("--workers", type=int, help="parallel sandbox workers (default: CPU count)")
    ev.add_argument("--scheduler", metavar="ADDRESS",
                    help="judge on a dask.distributed cluster (e.g. tcp://host:8786; docs/cluster.md)")
    ev.add_argument("--judge-copies", action="store_true",
                    help="judge every copy of an identical program (default: each program once)")
    ev.add_argument("--json", action="store_true", help="print the summary as JSON")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    d = sub.add_parser("demo", help="the bundled sample: a full report in about a minute, offline")
    d.add_argument("--out", default="qce-demo-report",
                   help="report folder (default: qce-demo-report)")
    d.add_argument("--json", action="store_true", help="print the summaries as JSON")

    c = sub.add_parser("compare", help="several runs side by side: tables, plots, paired tests",
                       description="Compare runs of one benchmark (report folders or result "
                       "stores): pass@k per group with bootstrap intervals, paired tests, code "
                       "similarity, error distribution, statuses; every table as Markdown, LaTeX, "
                       "CSV and JSON, every plot as PNG and PDF (docs/compare.md).")
    c.add_argument("runs", nargs="*", metavar="RUN",
                   help="report folder, report.json or result store (label: the folder name)")
    c.add_argument("--label", action="append", default=[], metavar="NAME=PATH",
                   help="a run with its label (repeatable)")
    c.add_argument("--out", required=True, help="output folder")
    c.add_argument("-k", type=int, nargs="+", action="extend",
                   help="pass@k values: -k 1 5 or -k 1 -k 5 (default: 1 5)")
    c.add_argument("--allow-mismatch", action="store_true",
                   help="compare runs that are not comparable, with a caveat in every output")
    c.add_argument("--seed", type=int, default=0, help="seed of the bootstraps (default 0)")
    c.add_argument("--n-boot", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    c.add_argument("--data-dir", help="the benchmark's dataset folder: groups of result stores, "
                   "and QCoder's human submissions when it was built with them")
    c.add_argument("--human-versions", default="first", choices=["first", "last", "all"],
                   help="which version of each user's history counts in the human row")

    vw = sub.add_parser("view", help="one run or several side by side as a static site",
                        description="Write a static site (DIR/index.html, opened from disk, no "
                        "network) of report folders: summary and charts, the paired comparison, "
                        "every problem x run, every sample's code and verdict (docs/view.md).")
    vw.add_argument("runs", nargs="*", metavar="RUN", help="report folder or report.json "
                    "(label: the folder name)")
    vw.add_argument("--label", action="append", default=[], metavar="NAME=PATH",
                    help="a run with its label (repeatable)")
    vw.add_argument("--out", required=True, help="output folder")
    vw.add_argument("--seed", type=int, default=0, help="seed of the comparison's bootstraps")
    vw.add_argument("--n-boot", type=int, default=10_000,
                    help="bootstrap resamples of the comparison (default 10000)")

    pb = sub.add_parser("publish", help="push a built dataset folder to the Hugging Face Hub")
    pb.add_argument("folder", help="dataset folder written by `qce build`")
    pb.add_argument("hub_id", help="Hub dataset id, e.g. user/name")
    pb.add_argument("--private", action="store_true", help="create the Hub repository as private")
    pb.add_argument("--dry-run", action="store_true", help="check the folder, upload nothing")
    pr2 = sub.add_parser("publish-run", help="runs (report folders) as a Hub details dataset",
                         description="Add runs (report folders of `qce evaluate` or refine_all) "
                         "or comparison folders (`qce compare`) to a dataset folder shaped like "
                         "the leaderboard details datasets (one split per run timestamp plus "
                         "latest), check that every config loads, and upload it.")
    pr2.add_argument("runs", nargs="+", metavar="RUN", help="report folder or comparison folder")
    pr2.add_argument("--repo-id", required=True, help="Hub dataset id, e.g. user/qce-details")
    pr2.add_argument("--out", help="dataset folder to build or extend (default: "
                     "qce-hub-<owner>__<name>)")
    pr2.add_argument("--private", action="store_true", help="create the Hub repository as private")
    pr2.add_argument("--dry-run", action="store_true", help="build and check the folder, upload nothing")

    ct = sub.add_parser("contamination", help="corpus entries that hold a benchmark problem's code",
                        description="Per problem, the entries of a retrieval corpus whose code is "
                        "identical to the problem's reference or template after normalisation, or "
                        "holds most of its distinctive n-grams (docs/contamination.md).")
    ct.add_argument("corpus", help="JSONL / JSON / Parquet file or dataset folder with a code column")
    ct.add_argument("--benchmark", required=True, metavar="NAME", help="benchmark name or alias")
    ct.add_argument("--config", help="dataset config (default: the benchmark's first)")
    ct.add_argument("--data-dir", help="local dataset folder (default: built in the cache)")
    ct.add_argument("--code-column", help="the corpus column holding code (default: the first of "
                    "code, content, completion, solution, source, text)")
    ct.add_argument("--threshold", type=float, help="share of a problem's distinctive n-grams an "
                    "entry must hold to be flagged (default 0.5)")
    ct.add_argument("-n", type=int, help="n-gram length in tokens (default 10)")
    ct.add_argument("--out", help="folder for contamination.json and contamination.md")
    ct.add_argument("--json", action="store_true", help="print the result as JSON")
    ct.add_argument("--exit-zero", action="store_true", help="exit 0 even when entries are "
                    "flagged (default: exit 1 then, like a linter)")
    sy = sub.add_parser("synthesize", help="grow a PennySynth corpus with your model",
                        description="Seed snippets -> synthesis prompts -> your generate -> "
                        "candidates checked (format, syntax, PennyLane API of the installed "
                        "release, near-duplicates, contamination) and run in the sandbox -> a "
                        "PennySynth-schema dataset in <out>/dataset with build_report.json. "
                        "Run again with the same --out to resume (docs/benchmarks/pennysynth.md).")
    sy.add_argument("--generator", required=True, metavar="MODULE:FUNCTION",
                    help="generate(requests) -> list of answers (each request has .id, .prompt)")
    sy.add_argument("--seeds", metavar="CORPUS", help="seed corpus (PennySynth schema)")
    sy.add_argument("--qhack-seeds", action="store_true",
                    help="also seed from the QHack archives (statements and templates)")
    sy.add_argument("--corpus", help="existing corpus a candidate must not duplicate "
                    "(default: --seeds)")
    from .neardup import DEFAULT_N, DEFAULT_THRESHOLD

    sy.add_argument("--near-duplicate", type=float, default=DEFAULT_THRESHOLD, metavar="T",
                    help=f"a candidate whose normalised token {DEFAULT_N}-grams have Jaccard "
                    "similarity >= T with a corpus entry's, or an earlier accepted candidate's, "
                    f"is a duplicate (default {DEFAULT_THRESHOLD}; docs/benchmarks/pennysynth.md)")
    sy.add_argument("--against", nargs="+", action="extend", metavar="NAME",
                    help="benchmarks a candidate must not be contaminated with (default: qhack)")
    sy.add_argument("--data-dir", action="append", default=[], metavar="NAME=DIR",
                    help="a benchmark's dataset folder (default: built in the cache)")
    sy.add_argument("-n", type=int, required=True, help="candidates to generate")
    sy.add_argument("--out", required=True, help="folder: stores, dataset, build report")
    sy.add_argument("--seeds-per-prompt", type=int, default=3, help="seeds per prompt (default 3)")
    sy.add_argument("--seed", type=int, default=0, help="seed of the seed draws (default 0)")
    sy.add_argument("--batch-size", type=int, default=16, help="requests per generate call")
    sy.add_argument("--time-limit", type=float, default=20.0, help="CPU seconds per candidate")
    sy.add_argument("--workers", type=int, help="parallel sandbox workers (default: CPU count)")
    sy.add_argument("--scheduler", metavar="ADDRESS", help="verify on a dask.distributed cluster")
    sy.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    return p


def _k_apart(argv: list[str]) -> list[str]:
    """``-k 1 5 FILE`` as ``-k1 -k5 FILE``: ``-k`` takes one or more whole numbers, and a
    positional argument written after them (the predictions file, a run) is not one of them.
    argparse alone would hand ``FILE`` to ``-k`` (``invalid int value``)."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == "--":
            return out + argv[i:]
        end = i + 1
        if argv[i] == "-k":
            while end < len(argv) and re.fullmatch(r"-?\d+", argv[end]):
                end += 1
            if i + 1 < end < len(argv) and not argv[end].startswith("-"):
                out += [f"-k{value}" for value in argv[i + 1:end]]
                i = end
                continue
        out.append(argv[i])
        i += 1
    return out


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise SystemExit(f"qce: --option takes KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.replace("-", "_")] = value
    return out


def _cmd_benchmarks(args: argparse.Namespace) -> int:
    from .benchmarks.base import origin, registry

    rows = [{"name": b.name, "source": str(origin(b.name)), "judged": b.judge is not None,
             "configs": list(b.configs), "judged_configs": list(b.record_configs if b.judge else ()),
             "module": b.module, "description": b.description} for b in registry().values()]
    if args.json:
        print("\n".join(json.dumps(row) for row in rows))
        return EXIT_OK
    width = max((len(r["name"]) for r in rows), default=4)
    source = max((len(r["source"]) for r in rows), default=6)
    print(f"{'name':<{width}}  {'source':<{source}}  judged  configs")
    for r in rows:
        print(f"{r['name']:<{width}}  {r['source']:<{source}}  {'yes' if r['judged'] else 'no ':<6}"
              f"  {', '.join(r['configs'])}")
    return EXIT_OK


def _cmd_build(args: argparse.Namespace) -> int:
    name = args.dataset.lower().replace("-", "_")
    builders = _builders()
    if name not in builders:
        print(f"qce build: unknown dataset {args.dataset!r}; known: {', '.join(builders)}", file=sys.stderr)
        return EXIT_USAGE
    from .benchmarks.base import registry
    from .datasets_cache import build_dataset, from_upstream

    options = _options(args.option)
    bench = registry().get(name)
    if args.out is None:
        return _build_into_cache(name, bench, args, options)
    if bench is not None and from_upstream(bench):  # pinned upstream archives, verified
        summary = build_dataset(bench, args.out, args.source, github_url=args.github_url,
                                **options)
    else:
        if args.github_url:
            print(f"qce build: {name} does not download from GitHub; --github-url is not used",
                  file=sys.stderr)
        summary = importlib.import_module(builders[name]).build(args.source, args.out, **options)
    print(json.dumps(summary, indent=2, default=str))
    return EXIT_OK


def _build_into_cache(name: str, bench: Any, args: argparse.Namespace,
                      options: dict[str, Any]) -> int:
    """``qce build NAME`` without ``--out``: the pinned upstream, built (once) into the cache
    folder the other commands read by default; its path is printed."""
    from .datasets_cache import dataset_dir, from_upstream

    if bench is None or not from_upstream(bench) or args.source or options:
        why = ("--source or --option" if bench is not None and from_upstream(bench)
               else f"{name} (not downloaded at a pinned commit)")
        print(f"qce build: --out DIR is required with {why}; without --out only a benchmark's "
              "pinned upstream is built, into the cache", file=sys.stderr)
        return EXIT_USAGE
    path = dataset_dir(bench, github_url=args.github_url)
    print(json.dumps({"dataset": name, "out": str(path), "cache": True}, indent=2))
    return EXIT_OK


def _cmd_prompts(args: argparse.Namespace) -> int:
    from .benchmarks.base import get

    if args.rag:
        return _cmd_rag_prompts(args)
    bench = get(args.benchmark)
    mod = bench.loader
    records = mod.problems(bench.check_judged_config(args.config), data_dir=args.data_dir)
    lines = [json.dumps({"id": pid, "prompt": mod.prompt(rec)}, ensure_ascii=False)
             for pid, rec in records.items()]
    text = "".join(line + "\n" for line in lines)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{len(lines)} prompts written to {args.out}", file=sys.stderr)
    return EXIT_OK


def _cmd_rag_prompts(args: argparse.Namespace) -> int:
    from .rag import ContaminatedCorpus, rag_prompts
    from .user_code import load_callable

    embed = load_callable(args.embed, "--embed") if args.embed else None
    expand = load_callable(args.expand, "--expand") if args.expand else None
    try:
        made = rag_prompts(args.benchmark, args.rag, config=args.config, data_dir=args.data_dir,
                           retriever=args.retriever, embed=embed, expand=expand,
                           top_k=args.top_k, threshold=args.threshold,
                           contaminated="drop" if args.drop_contaminated else "refuse")
    except ContaminatedCorpus as exc:
        print(f"qce prompts: {exc}", file=sys.stderr)
        return EXIT_FAIL
    report = made.consistency()
    if args.out == "-":
        sys.stdout.write("".join(json.dumps(p.to_dict(made.settings), ensure_ascii=False) + "\n"
                                 for p in made.prompts))
    else:
        side = made.write(args.out)
        print(f"{len(made.prompts)} prompts written to {args.out} (settings and consistency: "
              f"{side})", file=sys.stderr)
    print(report.to_markdown(), file=sys.stderr)
    if made.dropped:
        print(f"qce prompts: {made.dropped} contaminated entries left out", file=sys.stderr)
    return EXIT_OK


def _read_completion(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read completion file {path}: {exc.strerror}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"completion file {path} is not UTF-8 (byte {exc.start})") from exc


def _terminal(text: str) -> str:
    """Program-controlled text made safe for a terminal: line breaks and tabs stay, any other
    control or format character (ESC, carriage return, bidi overrides) and lone surrogates are
    shown as ``\\xNN`` / ``\\uXXXX``, so output cannot rewrite the verdict line above it."""
    import unicodedata

    def safe(ch: str) -> str:
        if ch in "\n\t" or (unicodedata.category(ch)[0] != "C"
                             and unicodedata.category(ch) not in ("Zl", "Zp")):
            return ch
        return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"

    return "".join(map(safe, text))


def _cmd_judge(args: argparse.Namespace) -> int:
    from .benchmarks.base import get
    from .feedback import feedback_prompt
    from .judges.base import judge_one

    bench = get(args.benchmark)
    judge = bench.make_judge(**({"env": args.env} if args.env else {}))
    completion = _read_completion(args.file)
    problem = bench.loader.get_problem(args.problem_id, data_dir=args.data_dir)
    _status(f"judging {args.problem_id} ({bench.name}) ...")
    verdict = judge_one(judge, problem, completion)
    feedback = feedback_prompt(verdict)
    if args.json:
        out = verdict.to_dict()
        out["feedback"] = feedback
        from .report import strict_json

        print(strict_json(out))  # ASCII, strict: control characters escaped, NaN as null
    else:
        print(f"{verdict.problem_id}: {verdict.status}  ({verdict.tests_passed}/{verdict.tests_total} tests)")
        if verdict.message:
            print(_terminal(verdict.message))
        for t in verdict.tests:
            mark = "ok  " if t.passed else "FAIL"
            print(f"  {mark} {_terminal(str(t.name))}"
                  + (f": {_terminal(t.message)}" if t.message and not t.passed else ""))
        if feedback:
            print("\nfeedback:\n" + _terminal(feedback))
    return EXIT_OK if verdict.passed else EXIT_FAIL


def _cmd_env(args: argparse.Namespace) -> int:
    from .benchmarks.base import registry

    # the benchmarks that declare environments own them (each module's environments())
    owners = {env: bench.loader.environments() for bench in registry().values()
              for env in bench.environments}
    if args.action == "list":
        rows = [row for mgr in dict.fromkeys(owners.values()) for row in mgr.list_envs()]
        if args.json:
            print(json.dumps(rows, indent=2, default=str))
        else:
            for row in rows:
                print(f"{row['name']:<14} {'ready' if row['ready'] else 'not created':<12} {row['recipe']}")
        return EXIT_OK
    if not args.name:
        print(f"qce env {args.action}: name an environment (qce env list)", file=sys.stderr)
        return EXIT_USAGE
    if args.name not in owners:
        print(f"qce env {args.action}: unknown environment {args.name!r}; known: "
              f"{', '.join(owners)}", file=sys.stderr)
        return EXIT_USAGE
    mgr = owners[args.name]
    if args.action == "create":
        ready = {row["name"]: row["ready"] for row in mgr.list_envs()}
        if not ready.get(args.name) and hasattr(mgr, "creating_message"):
            _status(f"qce: {mgr.creating_message(args.name)}")
        print(mgr.create_env(args.name))
    elif args.action == "path":
        print(mgr.env_python(args.name, create=False))
    else:
        mgr.remove_env(args.name)
    return EXIT_OK


def _resume_command(argv: list[str]) -> str:
    """The command line that continues an interrupted ``qce evaluate`` run."""
    return shlex.join(["qce", *argv, *([] if "--resume" in argv else ["--resume"])])


def _cmd_evaluate(args: argparse.Namespace) -> int:
    from .cluster import ClusterError
    from .evaluate import EvaluationInterrupted, SetupIncomplete, StoreInUse, evaluate

    bad_k = [k for k in args.k or () if k < 1]
    if bad_k:
        print(f"qce evaluate: -k must be a positive integer, got {bad_k[0]}", file=sys.stderr)
        return EXIT_USAGE
    store = args.store or str(Path(args.out) / "results.jsonl")
    try:
        report = evaluate(
            args.predictions, args.benchmark, args.config, data_dir=args.data_dir,
            k=tuple(args.k or (1, 5)), workers=args.workers, store=store, resume=args.resume,
            progress=not args.no_progress, scheduler=args.scheduler,
            judge_copies=args.judge_copies, input_format=args.input_format,
        )
    except ClusterError as exc:
        print(f"\nqce evaluate: {exc}; resume with: {_resume_command(args.argv)}",
              file=sys.stderr)
        return EXIT_CLUSTER
    except SetupIncomplete as exc:
        print(f"\nqce evaluate: {exc}; then resume with: {_resume_command(args.argv)}",
              file=sys.stderr)
        return EXIT_USAGE
    except EvaluationInterrupted as exc:
        print(f"\nqce evaluate: interrupted; {exc.kept} of {exc.total} results kept in {store}; "
              f"resume with: {_resume_command(args.argv)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except StoreInUse as exc:
        print(f"qce evaluate: {exc.store} already has results of an earlier run; continue it "
              f"with: {_resume_command(args.argv)} (or choose another --out / --store)",
              file=sys.stderr)
        return EXIT_USAGE
    _status("writing the report (JSON, Markdown, plots) ...", not args.no_progress)
    paths = report.save(args.out)
    from .report import strict_json

    print(strict_json(report.summary, indent=2) if args.json else report.to_markdown())
    for note in report.notes():
        print(f"qce evaluate: note: {note}", file=sys.stderr)
    others = ", ".join(p.name for key, p in paths.items() if key != "markdown")
    print(f"report written to {paths['markdown']} (also {others}); results in {store}",
          file=sys.stderr)
    s = report.summary
    if s["predictions"] and not s["problems_with_predictions"]:
        print(f"qce evaluate: nothing counted: 0 of {s['predictions']} ids belong to "
              f"{report.benchmark}" + (f"/{report.config}" if report.config else "")
              + _unknown_ids_hint(report, args.data_dir), file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK


def _unknown_ids_hint(report: Any, data_dir: str | None) -> str:
    """For a run that counted nothing: another config of the benchmark holding the ids, else
    the closest known id (the predictions may be for another benchmark)."""
    from .benchmarks.base import get
    from .hints import close_matches

    bench = get(report.benchmark)
    ids = sorted({r["problem_id"] for r in report.per_sample if not r["known_problem"]})
    if not ids:
        return ""
    best = ("", 0)
    for config in bench.record_configs:
        if config == report.config:
            continue
        try:
            hits = len(set(ids) & set(bench.loader.problems(config, data_dir=data_dir)))
        except Exception:  # noqa: BLE001 - only a hint; the run's own error is reported
            continue
        if hits > best[1]:
            best = (config, hits)
    if best[1]:
        return f"; did you mean --config {best[0]} ({best[1]} of {len(ids)} ids are there)?"
    known = sorted(bench.loader.problems(report.config, data_dir=data_dir))
    close = close_matches(ids[0], known, n=1)
    if close:
        return f"; did you mean {close[0]!r} for {ids[0]!r}?"
    return (f"; its ids look like {known[0]!r}, yours like {ids[0]!r}: is --benchmark right?"
            if known else "")


def _status(message: str, enabled: bool = True) -> None:
    if enabled:
        print(message, file=sys.stderr, flush=True)


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    reports = run_demo(args.out, progress=True)
    if args.json:
        print(json.dumps({r.config: r.summary for r in reports}, indent=2, default=str))
    else:
        print("\n".join(r.to_markdown() for r in reports))
    print(f"reports written to {args.out}/{{{','.join(r.config for r in reports)}}}/", file=sys.stderr)
    return EXIT_OK


def _compare_inputs(args: argparse.Namespace) -> dict[str, str] | list[str]:
    """The runs in order: the positional ones (labelled by folder name), then the --label ones."""
    from .compare._runs import default_label

    labelled: dict[str, str] = {}
    for pair in args.label:
        name, sep, path = pair.partition("=")
        if not sep or not name or not path:
            raise CompareUsage(f"--label takes NAME=PATH, got {pair!r}")
        if name in labelled:
            raise CompareUsage(f"two runs have the label {name!r}")
        labelled[name] = path
    if not labelled:
        return list(args.runs)
    out: dict[str, str] = {}
    for path in args.runs:
        label = default_label(path)
        if label in labelled or label in out:
            raise CompareUsage(f"two runs have the label {label!r}: name them (--label NAME=PATH)")
        out[label] = path
    return out | labelled


class CompareUsage(Exception):
    """A usage error of ``qce compare`` (exit code 2)."""


def _benchmark_data(runs: list, data_dir: str | None) -> tuple[dict | None, str | None, list | None]:
    """(groups for result stores, their name, human submission rows) from the benchmark's data."""
    from .benchmarks.base import get

    groups = group_by = humans = None
    if not data_dir and all(r.kind == "report" for r in runs):
        return groups, group_by, humans
    bench = get(runs[0].benchmark)
    if any(r.kind == "store" for r in runs):
        records = bench.loader.problems(runs[0].config, data_dir=data_dir)
        groups = {pid: str(bench.group(rec)) for pid, rec in records.items()}
        group_by = bench.group_by
    if data_dir and "submissions" in bench.configs and "submissions" not in bench.record_configs:
        try:
            humans = [dict(row) for row in bench.loader.load("submissions", data_dir=data_dir)]
        except (ValueError, FileNotFoundError) as exc:  # built without the submissions
            print(f"qce compare: no human submissions in {data_dir} ({str(exc)[:120]})",
                  file=sys.stderr)
    return groups, group_by, humans


def _cmd_compare(args: argparse.Namespace) -> int:
    from .compare import NotComparable, compare, load_run

    try:
        inputs = _compare_inputs(args)
        if len(inputs) < 2:
            raise CompareUsage("give at least two runs")
        if args.n_boot < 1 or any(k < 1 for k in args.k or ()):
            raise CompareUsage("--n-boot and -k must be positive")
        pairs = list(inputs.items()) if isinstance(inputs, dict) else [(None, p) for p in inputs]
        runs = [load_run(path, label) for label, path in pairs]
        groups, group_by, humans = _benchmark_data(runs, args.data_dir)
        if groups is not None:
            runs = [load_run(path, label or run.label, groups) if run.kind == "store" else run
                    for (label, path), run in zip(pairs, runs, strict=True)]
            for run in runs:
                if run.kind == "store":
                    run.group_by = group_by
        result = compare(runs, out=args.out, k=tuple(args.k or (1, 5)),
                         allow_mismatch=args.allow_mismatch, seed=args.seed, n_boot=args.n_boot,
                         human_submissions=humans, human_versions=args.human_versions)
    except (NotComparable, CompareUsage) as exc:
        print(f"qce compare: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(result.to_markdown())
    print(f"comparison written to {args.out} (comparison.md, comparison.json, tables/, figures/)",
          file=sys.stderr)
    return EXIT_OK


def _cmd_view(args: argparse.Namespace) -> int:
    from .compare import RunError
    from .view import ViewError, build_site

    try:
        inputs = _compare_inputs(args)
        if not inputs:
            raise CompareUsage("give at least one run (a report folder)")
        if args.n_boot < 1:
            raise CompareUsage("--n-boot must be positive")
        index = build_site(inputs, args.out, n_boot=args.n_boot, seed=args.seed)
    except CompareUsage as exc:
        print(f"qce view: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (RunError, ViewError) as exc:
        raise InputError(str(exc)) from None
    print(f"site written to {args.out}: open {index.resolve().as_uri()}", file=sys.stderr)
    return EXIT_OK


def _cmd_publish(args: argparse.Namespace) -> int:
    from .publish import DatasetFolderError, UploadFailed, publish

    try:
        print(publish(args.folder, args.hub_id, private=args.private, dry_run=args.dry_run))
    except DatasetFolderError as exc:
        raise InputError(str(exc)) from None
    except UploadFailed as exc:
        print(f"qce publish: {exc}", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def _cmd_publish_run(args: argparse.Namespace) -> int:
    from .publish_run import UploadFailed, publish_runs

    folder = args.out or f"qce-hub-{args.repo_id.replace('/', '__')}"
    try:
        print(publish_runs(args.runs, args.repo_id, folder=folder, dry_run=args.dry_run,
                           private=args.private))
    except UploadFailed as exc:
        print(f"qce publish-run: {exc} (the folder {folder} is built; retry when online)",
              file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def _cmd_contamination(args: argparse.Namespace) -> int:
    from .contamination import DEFAULT_N, DEFAULT_THRESHOLD, contamination

    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    n = DEFAULT_N if args.n is None else args.n
    if not 0 < threshold <= 1 or n < 1:
        print("qce contamination: --threshold must be in (0, 1] and -n positive", file=sys.stderr)
        return EXIT_USAGE
    report = contamination(args.corpus, args.benchmark, args.config, code_column=args.code_column,
                           threshold=threshold, n=n, data_dir=args.data_dir)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "contamination.json").write_text(json.dumps(report.to_dict(), indent=2))
        (out / "contamination.md").write_text(report.to_markdown())
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.to_markdown())
    if report.flagged and not args.exit_zero:
        print(f"qce contamination: {len(report.flagged)} of {report.problems} problems flagged "
              f"(exit 1; --exit-zero to exit 0)", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def _cmd_synthesize(args: argparse.Namespace) -> int:
    from .benchmarks.base import UsageError
    from .synthesis import (
        DEFAULT_AGAINST,
        SynthesisInterrupted,
        archive_seeds,
        corpus_seeds,
        synthesize,
    )
    from .user_code import load_callable

    generate = load_callable(args.generator, "--generator")
    dirs = dict(pair.split("=", 1) for pair in args.data_dir if "=" in pair)
    if len(dirs) != len(args.data_dir):
        raise UsageError("--data-dir takes NAME=DIR")
    if not args.seeds and not args.qhack_seeds:
        raise UsageError("give --seeds CORPUS and/or --qhack-seeds")
    seeds = corpus_seeds(args.seeds) if args.seeds else []
    if args.qhack_seeds:
        seeds += archive_seeds(dirs)
    try:
        report = synthesize(generate, seeds, out=args.out, n=args.n,
                            corpus=args.corpus or args.seeds, against=args.against or DEFAULT_AGAINST,
                            data_dirs=dirs, seeds_per_prompt=args.seeds_per_prompt,
                            seed=args.seed, batch_size=args.batch_size,
                            time_limit=args.time_limit, workers=args.workers,
                            scheduler=args.scheduler, progress=not args.no_progress,
                            generator_name=args.generator, near_duplicate=args.near_duplicate)
    except SynthesisInterrupted as exc:
        print(f"\nqce synthesize: interrupted; {exc}; resume with the same command: "
              f"{shlex.join(['qce', *args.argv])}", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(json.dumps(report, indent=2))
    print(f"qce synthesize: {report['accepted']} of {report['requested']} candidates accepted; "
          f"dataset in {Path(args.out) / 'dataset'}", file=sys.stderr)
    return EXIT_OK


_COMMANDS = {"build": _cmd_build, "prompts": _cmd_prompts, "judge": _cmd_judge, "env": _cmd_env, "evaluate": _cmd_evaluate,
             "demo": _cmd_demo, "publish": _cmd_publish, "compare": _cmd_compare,
             "contamination": _cmd_contamination, "publish-run": _cmd_publish_run,
             "view": _cmd_view,
             "synthesize": _cmd_synthesize,
             "benchmarks": _cmd_benchmarks}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # no "Generating test split" bars from datasets on every command (the user's setting wins)
    os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
    if argv and not argv[0].startswith("-") and argv[0] not in _COMMANDS:
        from .hints import did_you_mean

        print(f"qce: unknown command {argv[0]!r}{did_you_mean(argv[0], _COMMANDS)} (known: "
              f"{', '.join(_COMMANDS)})", file=sys.stderr)
        return EXIT_USAGE
    args = _parser().parse_args(_k_apart(argv))
    from .benchmarks.base import UsageError
    from .datasets_cache import DataUnavailable
    from .execution import PackageMissing

    args.argv = argv
    try:
        return _COMMANDS[args.command](args)
    except KeyboardInterrupt:
        print(f"\nqce {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (UsageError, DataUnavailable) as exc:
        print(f"qce {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except PackageMissing as exc:  # a single judgement (qce judge): evaluate explains its own
        from .hints import missing_package_message

        print(f"qce {args.command}: {exc}; "
              f"{missing_package_message(exc.python, exc.missing, exc.own)}", file=sys.stderr)
        return EXIT_USAGE
    except InputError as exc:
        print(f"qce {args.command}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except (ValueError, KeyError, FileNotFoundError, FileExistsError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"qce {args.command}: {msg}", file=sys.stderr)
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
