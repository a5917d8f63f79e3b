"""`atf ...`: one entry point; each subcommand lives next to the code it drives.

Every module named in COMMANDS defines `add_parser(subparsers)`, which registers its subcommand and
sets `func` to a callable taking the parsed args and returning an exit code.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

COMMANDS = [
    "atf.lean.cli",  # syntax-check, serve-syntax
    "atf.judge.cli",  # consistency-check, serve-consistency
    "atf.rerank.cli",  # rerank
    "atf.agent.cli",  # formalize
    "atf.llm.cli",  # prepare-model
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="atf",
        description=(
            "Lean 4 autoformalizer with tool feedback. The model writes a Lean 4 statement for a math problem, "
            "calls the syntax check (Lean REPL, or pre-checks when Lean is absent) and the consistency check "
            "(an ensemble of LLM judges), revises until both pass, and its k samples are reranked by symbolic "
            "equivalence (SymEq) and semantic consistency (SemCo)."
        ),
        epilog=(
            "examples:\n"
            '  atf formalize -k 2 "Show that for every natural number n, n + 0 = n."\n'
            "  accelerate launch recipes/dpo.py --config configs/dpo.yaml   # training lives in recipes/"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        importlib.import_module(module).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (ValueError, FileNotFoundError, ModuleNotFoundError) as err:
        print(f"atf {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
