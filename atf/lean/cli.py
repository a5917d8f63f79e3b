"""`atf syntax-check` (statements in, JSONL verdicts out) and `atf serve-syntax` (the HTTP tool server)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

from atf.jsonl import JsonlWriter, read_text_jsonl, resume_jsonl
from atf.lean.sandbox import SANDBOX_MODES, SandboxConfig

STATEMENT_FIELDS = ("statement", "formal_statement", "lean_file", "autoformalization", "lean4_code")

_LEAN_HELP = """\
Lean is found from --repl, else $ATF_LEAN_REPL (run in $ATF_LEAN_PROJECT), else the layout that
tools/install_lean.sh creates under $ATF_LEAN_HOME (default ~/.cache/atf/lean). Without Lean only the
pre-checks run and every result says checked_by "precheck"."""


def add_lean_options(p: argparse.ArgumentParser) -> None:
    from atf.cliargs import add_seconds, default_of
    from atf.lean.checker import SyntaxChecker

    def d(name: str):
        return default_of(SyntaxChecker, name)

    g = p.add_argument_group("Lean", _LEAN_HELP)
    g.add_argument("--repl", metavar="CMD", help='REPL command line, e.g. "lake env /opt/repl/.lake/build/bin/repl"')
    g.add_argument("--project", metavar="DIR", help="Lean project (with Mathlib) to run the REPL in")
    g.add_argument("--precheck-only", action="store_true", help="never run Lean, only the pre-checks")
    g.add_argument(
        "--workers",
        type=int,
        default=d("workers"),
        help="REPL processes in parallel (each needs GBs with Mathlib; default %(default)s)",
    )
    add_seconds(g, "--timeout-s", d("timeout_s"), "seconds Lean may spend on one statement", old_s=("--timeout",))
    add_seconds(
        g,
        "--header-timeout-s",
        d("header_timeout_s"),
        "seconds loading the imports may take",
        old_s=("--header-timeout",),
    )
    g.add_argument(
        "--max-memory-mb", type=float, default=d("max_memory_mb"), help="restart a REPL that uses more memory (MB)"
    )
    g.add_argument(
        "--group-size",
        type=int,
        default=d("max_group_size"),
        help="statements compiled per Lean command (default %(default)s)",
    )
    g.add_argument("--no-group", action="store_true", help="compile each statement in its own command")
    g.add_argument(
        "--split",
        choices=("bisect", "singles"),
        default=d("split"),
        help="how to retry a grouped command that crashed (one that timed out is always retried "
        "one statement at a time; default %(default)s)",
    )
    sandbox = SandboxConfig()
    g.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default=sandbox.mode,
        help="confine each REPL with bubblewrap (no network, read-only toolchain and project, private "
        "/tmp, rlimits); `none` runs Lean unconfined: only for trusted input",
    )
    g.add_argument(
        "--address-space-mb",
        type=int,
        default=sandbox.address_space_mb,
        help="address-space limit per REPL process; 0: none. Default: the size of the .olean files the "
        f"REPL can import (Lean maps them: several GB for Mathlib) plus {sandbox.heap_mb} MB",
    )
    g.add_argument(
        "--default-header",
        metavar="TEXT",
        help='prepend this to statements without imports (e.g. "import Mathlib"); '
        "otherwise a missing header is an error",
    )


def sandbox_config(args) -> SandboxConfig:
    return SandboxConfig(mode=args.sandbox, address_space_mb=args.address_space_mb)


def build_checker(args):
    """A SyntaxChecker from the Lean options; exits with a clear message when Lean cannot be used."""
    from atf.lean.checker import SyntaxChecker
    from atf.lean.repl import LeanUnavailable

    try:
        return _checker(SyntaxChecker, args)
    except LeanUnavailable as err:
        print(f"atf: error: {err}", file=sys.stderr)
        raise SystemExit(2) from err


def _checker(SyntaxChecker, args):
    return SyntaxChecker(
        args.repl,
        args.project,
        use_lean=False if args.precheck_only else None,
        workers=args.workers,
        timeout_s=args.timeout_s,
        header_timeout_s=args.header_timeout_s,
        max_memory_mb=args.max_memory_mb,
        sandbox=sandbox_config(args),
        max_group_size=args.group_size,
        split=args.split,
        group=not args.no_group,
        default_header=args.default_header,
    )


def add_parser(sub) -> None:
    from atf.cliargs import add_batch_size, add_input, add_output
    from atf.lean.server import create_app
    from atf.serving import add_server_options

    p = sub.add_parser(
        "syntax-check",
        help="check Lean 4 statements (pre-checks, then Lean when available); JSONL out",
        description=textwrap.fill(
            "Check Lean 4 statements: each is a full text (imports, optional opens/defs, then "
            "`theorem name binders : conclusion := by sorry`). Pre-checks reject malformed text and anything "
            "that could run code while Lean elaborates; what passes is compiled by the Lean REPL, many "
            "statements per command. Writes one JSON object per statement (index, ok, checked_by, errors, "
            "goals, feedback, ...). Exit code 1 when any statement fails.",
            width=100,
        ),
        epilog=(
            "examples:\n"
            "  atf syntax-check $'import Mathlib\\ntheorem t : (2 : ℕ) + 2 = 4 := by sorry'\n"
            "  atf syntax-check -i statements.jsonl --field formal_statement -o verdicts.jsonl --resume\n"
            "  cat Foo.lean | atf syntax-check -i -"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("statements", nargs="*", help="statement texts (`-` reads one from stdin)")
    add_input(p, "a .jsonl/.json file (one statement per row) or a .lean file (one statement); `-` is stdin")
    p.add_argument(
        "--field", help=f"JSON field holding the statement (default: first of {', '.join(STATEMENT_FIELDS)})"
    )
    add_output(p, "append JSONL results here (default: stdout)")
    p.add_argument("--resume", action="store_true", help="skip indices already in --output")
    add_batch_size(p, 64, "statements per check_many call (results are saved after each)", old=("--chunk",))
    add_lean_options(p)
    p.set_defaults(func=run_check)

    s = sub.add_parser(
        "serve-syntax",
        help="serve the syntax check over HTTP (POST /check), batching concurrent requests",
        description=(
            'Serve the syntax check: POST /check with {"statement": ...} or {"statements": [...]} returns '
            '{"results": [...]}; GET /health reports whether Lean is used and how requests were batched. '
            "Concurrent requests are gathered for up to --max-wait-s and checked together."
        ),
        epilog="examples:\n  atf serve-syntax --port 8001 --workers 2 --max-memory-mb 24000",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_server_options(s, port=8001, create_app=create_app, items="statements")
    s.add_argument(
        "--share-commands",
        action="store_true",
        help="group statements of different requests into one Lean command: fewer round trips under "
        "many single-statement requests, but a statement that hangs Lean then costs the other "
        "requests of its group one timeout (default: each request is grouped only with itself)",
    )
    add_lean_options(s)
    s.set_defaults(func=run_serve)


def read_inputs(args) -> list[tuple[str | None, str]]:
    """(id, statement) pairs from positional arguments and/or --input."""
    items: list[tuple[str | None, str]] = []
    for s in args.statements:
        items.append((None, sys.stdin.read() if s == "-" else s))
    if args.input:
        items.extend(_read_file(args.input, args.field))
    if not items:
        raise ValueError("no statements: pass them as arguments, or use -i FILE (or -i - for stdin)")
    return items


def _read_file(path: str, field: str | None) -> Iterator[tuple[str | None, str]]:
    if path == "-":
        text = sys.stdin.read()
        suffix = ".jsonl" if text.lstrip()[:1] in ("{", '"') else ".lean"
    else:
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"no such input file: {path}")
        text = p.read_text(encoding="utf-8")
        suffix = p.suffix
    if suffix == ".json":
        rows = json.loads(text)
        if not isinstance(rows, list):
            raise ValueError(f"{path}: expected a JSON list of statements")
        for i, row in enumerate(rows):
            yield _row(row, field, f"{path}[{i}]")
    elif suffix == ".jsonl":
        for n, row in read_text_jsonl(text, path):
            yield _row(row, field, f"{path}:{n}")
    else:
        yield None, text


def _row(row, field: str | None, where: str) -> tuple[str | None, str]:
    if isinstance(row, str):
        return None, row
    if not isinstance(row, dict):
        raise ValueError(f"{where}: expected a string or an object")
    key = field or next((f for f in STATEMENT_FIELDS if f in row), None)
    if key is None or not isinstance(row.get(key), str):
        raise ValueError(f"{where}: no statement field (use --field; tried {field or ', '.join(STATEMENT_FIELDS)})")
    rid = row.get("id", row.get("name", row.get("theorem_name")))
    return (None if rid is None else str(rid)), row[key]


def run_check(args) -> int:
    from tqdm import tqdm

    items = read_inputs(args)
    done = {int(row["index"]) for row in resume_jsonl(args.output)} if (args.resume and args.output) else set()
    todo = [i for i in range(len(items)) if i not in done]
    out = JsonlWriter(args.output or "-")
    n_ok = n_fail = 0
    by = {"lean": 0, "precheck": 0}
    checker = build_checker(args)
    try:
        bar = tqdm(total=len(todo), unit="stmt", disable=len(todo) <= args.batch_size, file=sys.stderr)
        for k in range(0, len(todo), args.batch_size):
            idx = todo[k : k + args.batch_size]
            results = checker.check_many([items[i][1] for i in idx])
            for i, r in zip(idx, results):
                row = {"index": i, "id": items[i][0], **r.to_dict()}
                out.write(row)
                n_ok += r.ok
                n_fail += not r.ok
                by[r.checked_by] += 1
            bar.update(len(idx))
        bar.close()
    finally:
        checker.close()
        out.close()
    skipped = f", {len(done)} already done" if done else ""
    print(
        f"{len(todo)} checked{skipped}: {n_ok} ok, {n_fail} failed (by lean: {by['lean']}, "
        f"by precheck only: {by['precheck']})",
        file=sys.stderr,
    )
    return 1 if n_fail else 0


def run_serve(args) -> int:
    from atf.lean.server import create_app
    from atf.serving import limits_from_args, resolve_api_key, serve_from_args

    checker = build_checker(args)
    print(
        f"syntax check on http://{args.host}:{args.port}/check (Lean: "
        f"{'yes' if checker.lean_available else 'no, pre-checks only'})",
        file=sys.stderr,
    )
    app = create_app(
        checker,
        max_batch=args.max_batch,
        max_wait_s=args.max_wait_s,
        limits=limits_from_args(args),
        api_key=resolve_api_key(args.api_key),
        share_commands=args.share_commands,
    )
    serve_from_args(app, args)
    return 0
