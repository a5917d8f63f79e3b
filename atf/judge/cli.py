"""`atf consistency-check` (JSONL in, JSONL out) and `atf serve-consistency` (HTTP tool server)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

JUDGE_HELP = (
    "a judge, repeatable (one flag per judge): <engine spec>[::key=value,...] with engine spec smollm2 | tiny | "
    "hf:<path> | vllm:<path> | openai:<base_url>#<model>; judge keys max_new_tokens, temperature, top_p, seed, "
    "samples, scoring (auto|logprob|sample), prefill, thinking (true for judges that reason in <think> first: a "
    "thinking budget, no answer prefill), name, and the engine's own keys (openai: timeout, retries). "
    "Default: one smollm2 judge."
)
EPILOG = """\
modes:
  vote   every judge answers VERDICT + REASONS; consistent only if all judges say consistent
  oap    nine atomic properties (each with a one-line why) + a 1-5 rating per judge, grouped into LP/MC/FQ
         and weighted into a score; consistent only if every judge's score reaches --oap-threshold, every
         property answer was readable, the rating gate (--min-rating) holds, and Lean compiled the statement
         (FV = 0 is a veto; with the pre-check only, FV is not measured and says so)
  align  judges link informal spans to Lean spans, labelled faithful/unfaithful/undecidable; consistent
         only if no judge finds a defect or an undecidable link
An answer that cannot be parsed counts as inconsistent (reported with parsed=false).
A judge that fails to answer (HTTP error, timeout) gives no verdict: the item's verdict is "error" unless
another judge already rejects it. Errors are counted in the summary, the exit status is 1 when any item
errored, and a rerun with the same --output checks the errored items again.

examples:
  atf consistency-check --input items.jsonl --output checked.jsonl
  atf consistency-check --input items.jsonl --output checked.jsonl --mode oap \\
      --judge smollm2 --judge 'openai:http://localhost:8000/v1#qwen::temperature=0.6,samples=3'
  atf consistency-check --input items.jsonl --output checked.jsonl \\
      --judge 'openai:http://node1:8000/v1#Qwen/QwQ-32B::thinking=true,timeout=900,retries=3' \\
      --judge 'openai:http://node2:8000/v1#Qwen/Qwen3-32B::thinking=true,timeout=900,retries=3'
  atf serve-consistency --port 8002 --judge 'vllm:Qwen/Qwen3-8B::thinking=true'
"""


def _add_checker_args(p: argparse.ArgumentParser) -> None:
    from atf.cliargs import add_judges, default_of
    from atf.judge.checker import ConsistencyChecker
    from atf.judge.judge import Judge, default_params
    from atf.judge.oap import OAPConfig

    add_judges(p, JUDGE_HELP)
    p.add_argument(
        "--mode",
        choices=("vote", "oap", "align"),
        default=default_of(ConsistencyChecker, "mode"),
        help="how judges decide (default %(default)s)",
    )
    p.add_argument(
        "--max-new-tokens",
        type=int,
        help=f"max new tokens for every judge that does not set it ({default_params().max_new_tokens}; "
        f"{default_params(thinking=True).max_new_tokens} for thinking judges)",
    )
    p.add_argument(
        "--temperature",
        type=float,
        help=f"temperature for every judge that does not set it ({default_params().temperature}: greedy)",
    )
    p.add_argument(
        "--samples",
        type=int,
        help=f"answers per question per judge that does not set it ({default_of(Judge, 'samples')}); "
        ">1 takes the majority (needs temperature > 0)",
    )
    p.add_argument(
        "--fv",
        default=default_of(ConsistencyChecker, "fv"),
        help="oap mode formal validity, a veto when 0: auto (a Lean compile by atf.lean.SyntaxChecker; left out "
        "where only the pre-check ran), none, or a number 0..1 (default %(default)s)",
    )
    p.add_argument(
        "--oap-threshold",
        type=float,
        default=default_of(OAPConfig, "threshold"),
        help="oap mode: score a judge must reach (default %(default)s)",
    )
    p.add_argument("--min-rating", type=float, help="oap mode: also require the 1-5 rating to reach this")
    p.add_argument("--raw", action="store_true", help="include the judges' raw answers in the output")


def add_parser(sub) -> None:
    from atf.cliargs import add_batch_size, add_input, add_output
    from atf.judge.server import create_app
    from atf.serving import add_server_options

    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "consistency-check",
        help="check Lean 4 statements against their informal problems with an ensemble of LLM judges (JSONL in/out)",
        description=(
            "Read JSONL records with 'problem' (informal statement) and 'statement' (Lean 4), ask every judge, and "
            "append one result per record to --output: consistent, verdict, votes, findings, feedback. Other input "
            "fields (e.g. 'id') are copied through. Rerunning with the same --output resumes where it stopped."
        ),
        epilog=EPILOG,
        formatter_class=fmt,
    )
    add_input(p, "JSONL file of {'problem': ..., 'statement': ...} ('-' = stdin)", required=True)
    add_output(p, "JSONL file to append results to (default: stdout)", default="-")
    add_batch_size(p, 16, "records per judge call; results are written after each batch")
    _add_checker_args(p)
    p.set_defaults(func=run_check)

    s = sub.add_parser(
        "serve-consistency",
        help="serve the consistency check over HTTP (POST /check, /check_batch), batching concurrent requests",
        description=(
            "Serve the consistency check as the formalizer's consistency_check tool. Concurrent requests are gathered "
            "for up to --max-wait-s (or --max-batch items) and each judge sees the batch in one call."
        ),
        epilog=EPILOG,
        formatter_class=fmt,
    )
    add_server_options(s, port=8002, create_app=create_app, items="items")
    _add_checker_args(s)
    s.set_defaults(func=run_serve)


def build_checker(args: argparse.Namespace):
    from atf.judge import ConsistencyChecker, OAPConfig, load_judge
    from atf.llm import DEFAULT_ENGINE

    defaults: dict[str, Any] = {}
    for key in ("max_new_tokens", "temperature", "samples"):
        if getattr(args, key, None) is not None:
            defaults[key] = getattr(args, key)
    engines: dict = {}
    judges = [load_judge(spec, defaults, engines) for spec in (args.judges or [DEFAULT_ENGINE])]
    fv: Any = args.fv
    if fv == "none":
        fv = None
    elif fv != "auto":
        try:
            fv = float(fv)
        except ValueError:
            raise ValueError(f"--fv must be auto, none or a number, got {fv!r}") from None
    oap = OAPConfig(threshold=args.oap_threshold, min_rating=args.min_rating)
    return ConsistencyChecker(judges, mode=args.mode, fv=fv, oap=oap)


def _records(rows: list[tuple[int, Any]], name: str) -> Iterator[tuple[int, dict]]:
    for lineno, record in rows:
        if not isinstance(record, dict):
            raise ValueError(f"{name}:{lineno}: expected a JSON object")
        for key in ("problem", "statement"):
            if not isinstance(record.get(key), str) or not record[key].strip():
                raise ValueError(f"{name}:{lineno}: field {key!r} must be a non-empty string")
        yield lineno, record


def run_check(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from atf.jsonl import JsonlWriter, parse_lines, read_text_jsonl, resume_jsonl

    if args.batch_size < 1:
        raise ValueError("--batch-size must be >= 1")
    if args.input == "-":
        records = list(_records(read_text_jsonl(sys.stdin.read(), "<stdin>"), "<stdin>"))
    else:
        path = Path(args.input)
        if not path.is_file():
            raise FileNotFoundError(f"input not found: {path}")
        records = list(_records(list(parse_lines(path.read_bytes(), str(path))), str(path)))
    to_stdout = args.output == "-"
    done = set() if to_stdout else _done(args.output, resume_jsonl(args.output))
    todo = [(n, r) for n, r in records if n not in done]
    if done:
        print(
            f"resuming: {len(records) - len(todo)} of {len(records)} records already in {args.output}", file=sys.stderr
        )
    if not todo:
        return 0
    checker = build_checker(args)
    counts = {"consistent": 0, "inconsistent": 0, "error": 0}
    with (
        JsonlWriter(args.output) as sink,
        tqdm(total=len(todo), desc=f"consistency-check ({args.mode})", unit="item", disable=to_stdout) as bar,
    ):
        for start in range(0, len(todo), args.batch_size):
            chunk = todo[start : start + args.batch_size]
            results = checker.check_many([(r["problem"], r["statement"]) for _, r in chunk])
            for (lineno, record), result in zip(chunk, results):
                extra = {k: v for k, v in record.items() if k not in ("problem", "statement")}
                sink.write({"input_line": lineno, **extra, **result.to_dict(raw=args.raw)})
                counts["error" if result.errored else "consistent" if result.consistent else "inconsistent"] += 1
            bar.update(len(chunk))
    print(
        f"{counts['consistent']} of {len(todo)} consistent, {counts['inconsistent']} inconsistent, "
        f"{counts['error']} errored" + (" (rerun with the same --output to recheck them)" if counts["error"] else ""),
        file=sys.stderr,
    )
    return 1 if counts["error"] else 0


def _done(path: str, rows: list[dict]) -> set[int]:
    """Input lines already checked. Rows whose check errored are dropped from the output so that this run
    checks them again."""
    kept = [row for row in rows if row.get("verdict") != "error"]
    if len(kept) < len(rows):
        from atf.jsonl import JsonlWriter

        with JsonlWriter(path, append=False) as sink:
            for row in kept:
                sink.write(row)
    return {row["input_line"] for row in kept}


def run_serve(args: argparse.Namespace) -> int:
    from atf.judge.server import create_app
    from atf.serving import limits_from_args, resolve_api_key, serve_from_args

    app = create_app(
        build_checker(args),
        max_batch=args.max_batch,
        max_wait_s=args.max_wait_s,
        raw=args.raw,
        limits=limits_from_args(args),
        api_key=resolve_api_key(args.api_key),
    )
    serve_from_args(app, args)
    return 0
