"""`atf consistency-check` (JSONL in, JSONL out) and `atf serve-consistency` (HTTP tool server)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterator, TextIO

JUDGE_HELP = (
    "judge spec, repeatable: <engine spec>[::key=value,...] with engine spec smollm2 | tiny | hf:<path> | "
    "vllm:<path> | openai:<base_url>#<model> and keys max_new_tokens, temperature, top_p, seed, samples, "
    "scoring (auto|logprob|sample), name. Default: one smollm2 judge."
)
EPILOG = """\
modes:
  vote   every judge answers VERDICT + REASONS; consistent only if all judges say consistent
  oap    nine atomic properties + a 1-5 rating per judge, grouped into LP/MC/FQ, plus FV from the syntax
         check, weighted into a score; consistent only if every judge's score reaches --oap-threshold
  align  judges link informal spans to Lean spans, labelled faithful/unfaithful/undecidable; consistent
         only if no judge finds a defect or an undecidable link
An answer that cannot be parsed counts as inconsistent (reported with parsed=false).

examples:
  atf consistency-check --input items.jsonl --output checked.jsonl
  atf consistency-check --input items.jsonl --output checked.jsonl --mode oap \\
      --judge smollm2 --judge 'openai:http://localhost:8000/v1#qwen::temperature=0.6,samples=3'
  atf serve-consistency --port 8002 --judge 'vllm:Qwen/Qwen3-8B::max_new_tokens=2048'
"""


def _add_checker_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--judge", action="append", dest="judges", metavar="SPEC", help=JUDGE_HELP)
    p.add_argument("--mode", choices=("vote", "oap", "align"), default="vote", help="how judges decide (default: vote)")
    p.add_argument("--max-new-tokens", type=int, help="default max new tokens for every judge (384)")
    p.add_argument("--temperature", type=float, help="default temperature for every judge (0 = greedy)")
    p.add_argument("--samples", type=int, help="default answers per question per judge; >1 takes the majority (needs temperature > 0)")
    p.add_argument(
        "--fv",
        default="auto",
        help="oap mode formal validity: auto (atf.lean.SyntaxChecker if available, else left out), none, or a number 0..1",
    )
    p.add_argument("--oap-threshold", type=float, default=0.7, help="oap mode: score a judge must reach (default 0.7)")
    p.add_argument("--min-rating", type=float, help="oap mode: also require the 1-5 rating to reach this")
    p.add_argument("--raw", action="store_true", help="include the judges' raw answers in the output")


def add_parser(sub) -> None:
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
    p.add_argument("-i", "--input", required=True, help="JSONL file of {'problem': ..., 'statement': ...} ('-' = stdin)")
    p.add_argument("-o", "--output", default="-", help="JSONL file to append results to (default: stdout)")
    p.add_argument("--batch-size", type=int, default=16, help="records per judge call; results are written after each batch")
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
    add_server_options(s, port=8002)
    s.add_argument("--max-batch", type=int, default=32, help="most items checked in one batch")
    s.add_argument("--max-wait-s", type=float, default=0.05, help="how long a request waits for others to batch with")
    _add_checker_args(s)
    s.set_defaults(func=run_serve)


def build_checker(args: argparse.Namespace):
    from atf.judge import ConsistencyChecker, OAPConfig, load_judge

    defaults: dict[str, Any] = {}
    for key in ("max_new_tokens", "temperature", "samples"):
        if getattr(args, key, None) is not None:
            defaults[key] = getattr(args, key)
    engines: dict = {}
    judges = [load_judge(spec, defaults, engines) for spec in (args.judges or ["smollm2"])]
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


def _records(fh: TextIO, name: str) -> Iterator[tuple[int, dict]]:
    for lineno, line in enumerate(fh, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise ValueError(f"{name}:{lineno}: not JSON: {err}") from None
        if not isinstance(record, dict):
            raise ValueError(f"{name}:{lineno}: expected a JSON object")
        for key in ("problem", "statement"):
            if not isinstance(record.get(key), str) or not record[key].strip():
                raise ValueError(f"{name}:{lineno}: field {key!r} must be a non-empty string")
        yield lineno, record


def _done(path: Path) -> set[int]:
    """Input line numbers already in the output (a torn last line from a crash is ignored)."""
    done = set()
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                done.add(json.loads(line)["input_line"])
            except (json.JSONDecodeError, KeyError, TypeError):
                continue
    return done


def run_check(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    if args.batch_size < 1:
        raise ValueError("--batch-size must be >= 1")
    if args.input == "-":
        records = list(_records(sys.stdin, "<stdin>"))
    else:
        path = Path(args.input)
        if not path.is_file():
            raise FileNotFoundError(f"input not found: {path}")
        with path.open(encoding="utf-8") as fh:
            records = list(_records(fh, str(path)))
    to_stdout = args.output == "-"
    out_path = None if to_stdout else Path(args.output)
    done = set() if out_path is None else _done(out_path)
    if out_path is not None and out_path.exists() and out_path.stat().st_size:
        text = out_path.read_bytes()
        if not text.endswith(b"\n"):  # drop a line torn by a crash before appending
            out_path.write_bytes(text[: text.rfind(b"\n") + 1])
    todo = [(n, r) for n, r in records if n not in done]
    if done:
        print(f"resuming: {len(records) - len(todo)} of {len(records)} records already in {out_path}", file=sys.stderr)
    if not todo:
        return 0
    checker = build_checker(args)
    sink = sys.stdout if to_stdout else out_path.open("a", encoding="utf-8")
    n_ok = 0
    try:
        with tqdm(total=len(todo), desc=f"consistency-check ({args.mode})", unit="item", disable=to_stdout) as bar:
            for start in range(0, len(todo), args.batch_size):
                chunk = todo[start : start + args.batch_size]
                results = checker.check_many([(r["problem"], r["statement"]) for _, r in chunk])
                for (lineno, record), result in zip(chunk, results):
                    extra = {k: v for k, v in record.items() if k not in ("problem", "statement")}
                    sink.write(json.dumps({"input_line": lineno, **extra, **result.to_dict(raw=args.raw)}, ensure_ascii=False) + "\n")
                    n_ok += result.consistent
                sink.flush()
                bar.update(len(chunk))
    finally:
        if not to_stdout:
            sink.close()
    print(f"{n_ok} of {len(todo)} consistent", file=sys.stderr)
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from atf.judge.server import create_app
    from atf.serving import limits_from_args, resolve_api_key, serve_from_args

    app = create_app(build_checker(args), max_batch=args.max_batch, max_wait_s=args.max_wait_s, raw=args.raw,
                     limits=limits_from_args(args), api_key=resolve_api_key(args.api_key))
    serve_from_args(app, args)
    return 0
