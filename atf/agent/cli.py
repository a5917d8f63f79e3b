"""`atf formalize`: write a Lean statement for a problem with the tool loop, k samples, reranked."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from atf.llm.templates import CHAT_TEMPLATE_HELP

EPILOG = """examples:
  atf formalize "Show that for any natural number n, n^2 + n is even."
  atf formalize -k 8 --engine vllm:/ckpt/atf-7b --judge openai:http://judge:8000/v1#qwen "Show that 2 + 2 = 4."
  atf formalize --judge smollm2::max_new_tokens=64 --judge 'openai:http://[::1]:8000/v1#qwen::temperature=0.6' "..."
  atf formalize --benchmark minif2f --split valid --limit 20 -o runs/minif2f_valid.jsonl   # resumable
"""

LOOP_FLAGS = [
    "max_revisions",
    "max_turns",
    "max_new_tokens",
    "max_total_tokens",
    "temperature",
    "repetition_penalty",
    "frequency_penalty",
    "seed",
]


def add_parser(sub) -> None:
    from atf.agent.formalize import Formalizer
    from atf.agent.loop import AgentConfig
    from atf.agent.tools import ConsistencyCheckTool
    from atf.cliargs import add_batch_size, add_engine, add_fields, add_input, add_judges, add_output, default_of
    from atf.llm import DEFAULT_ENGINE

    p = sub.add_parser(
        "formalize",
        help="formalize a problem into Lean 4 with tool feedback; k samples reranked by SymEq+SemCo",
        description=(
            "Each of k samples is a full tool-loop rollout: the model writes a statement, calls syntax_check "
            "(Lean, or pre-checks when Lean is absent) and consistency_check (LLM judges), and revises until both "
            "pass or a limit is hit. The final statements are reranked by symbolic equivalence (SymEq) and "
            "semantic consistency (SemCo); the chosen one is printed with its trace."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("problem", nargs="?", help="the informal problem ('-' reads it from stdin)")
    p.add_argument(
        "-k", type=int, default=default_of(Formalizer, "k"), help="rollouts per problem (default %(default)s)"
    )
    add_engine(p, "--engine", "formalizer engine", default=DEFAULT_ENGINE)
    p.add_argument("--chat-template", default=None, help=CHAT_TEMPLATE_HELP + " (local engines; the one training used)")
    add_judges(
        p,
        "a judge for consistency_check (repeat the flag for several; they pass only when all agree): an engine "
        "spec with ::key=value options (max_new_tokens, temperature, samples, ...; see atf consistency-check "
        "--help). Default: the formalizer engine.",
    )
    p.add_argument(
        "--judge-mode",
        default=default_of(ConsistencyCheckTool.from_engines, "mode"),
        choices=["vote", "oap", "align"],
        help="how the judges decide (default %(default)s)",
    )
    p.add_argument("--syntax-server", metavar="URL", help="use a running `atf serve-syntax` instead of a local checker")
    p.add_argument(
        "--consistency-server", metavar="URL", help="use a running `atf serve-consistency` instead of --judge"
    )
    add_fields(p.add_argument_group("tool loop (atf.agent.AgentConfig)"), AgentConfig, LOOP_FLAGS)
    p.add_argument("--no-rerank", action="store_true", help="keep the first candidate instead of reranking")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON instead of the trace")
    batch = p.add_argument_group("batch mode (instead of a single problem)")
    batch.add_argument(
        "--benchmark", help="benchmark name (minif2f, proofnet, ...) or a JSONL file with 'informal' fields"
    )
    add_input(batch, "problems JSONL file with 'informal' fields (same as --benchmark FILE)", dest="benchmark")
    batch.add_argument("--split", help="benchmark split (valid or test)")
    batch.add_argument("--limit", type=int, default=None, help="first N problems only")
    add_output(
        batch,
        "trajectories JSONL, appended to; finished rollouts are skipped on rerun (chosen statements "
        "go to <output stem>.chosen.jsonl)",
        old=("--out",),
        type=Path,
    )
    add_batch_size(batch, 32, "problems in flight at once", old=("--chunk",))
    p.set_defaults(func=run)


class LazyReranker:
    """Builds `atf.rerank.Reranker` on first use (informalizer = `load_informalizer()`, the formalizer engine):
    a batch whose problems each have a single distinct candidate never pays for loading the embedder."""

    def __init__(self, load_informalizer: Callable[[], Any]):
        self.load_informalizer = load_informalizer
        self._reranker = None

    def rerank(self, problem: str, candidates: list[str], valid: list[bool] | None = None):
        if self._reranker is None:
            from atf.rerank import Reranker

            self._reranker = Reranker(informalizer=self.load_informalizer())
        return self._reranker.rerank(problem, candidates, valid=valid)


def template_options(args: Any) -> dict[str, Any]:
    return {"chat_template": args.chat_template} if getattr(args, "chat_template", None) else {}


def build_formalizer(args: Any, engine: Any | None = None):
    """Engine, real tools (SyntaxChecker + ConsistencyChecker over the judges) and the Reranker, from CLI args."""
    from atf.agent.formalize import Formalizer
    from atf.agent.loop import AgentConfig
    from atf.agent.tools import ConsistencyCheckTool, RemoteConsistencyTool, SyntaxCheckTool, remote_syntax_tool
    from atf.llm import load_engine

    engine = engine or load_engine(args.engine, **template_options(args))
    syntax = remote_syntax_tool(args.syntax_server) if args.syntax_server else SyntaxCheckTool()
    if args.consistency_server:
        consistency = RemoteConsistencyTool(args.consistency_server)
    else:
        from atf.judge import load_judge
        from atf.judge.judge import parse_judge_spec

        shared = {parse_judge_spec(args.engine)[0]: engine}  # a judge on the formalizer's model shares its weights
        judges = [load_judge(spec, engines=shared) for spec in args.judges or [args.engine]]
        consistency = ConsistencyCheckTool.from_engines(judges, mode=args.judge_mode)
    tools = [syntax, consistency]
    reranker = None if args.no_rerank or args.k == 1 else LazyReranker(lambda: engine)
    config = AgentConfig(**{name: getattr(args, name) for name in LOOP_FLAGS})
    return Formalizer(engine, tools, reranker, config, k=args.k)


def run(args) -> int:
    if args.k < 1:
        raise ValueError("-k must be >= 1")
    if args.benchmark:
        if args.problem:
            raise ValueError("give either a problem or --benchmark/--input, not both")
        if not args.output:
            raise ValueError("batch mode needs -o/--output FILE.jsonl")
        return run_batch(args)
    problem = sys.stdin.read() if args.problem == "-" else args.problem
    if not problem or not problem.strip():
        raise ValueError('give a problem to formalize, e.g. atf formalize "Show that 2 + 2 = 4."')
    (result,) = build_formalizer(args).formalize([problem.strip()])
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        from atf.agent.formalize import format_trace

        print(format_trace(result))
    return 0 if result.statement else 1


def run_batch(args) -> int:
    from atf.agent.formalize import choose
    from atf.agent.trajectory import resume_jsonl
    from atf.data.benchmarks import load_problems
    from atf.jsonl import JsonlWriter
    from atf.jsonl import resume_jsonl as resume_rows

    problems = load_problems(args.benchmark, args.split)[: args.limit]
    out: Path = args.output
    chosen_path = out.with_name(out.stem + ".chosen.jsonl")
    done: dict[tuple[str, int], Any] = {}
    for t in resume_jsonl(out):
        done[(str(t.meta.get("id")), int(t.meta.get("sample", 0)))] = t
    todo = [p for p in problems if any((p.id, j) not in done for j in range(args.k))]
    print(f"{len(problems)} problems, {len(problems) - len(todo)} already done in {out}", file=sys.stderr)
    formalizer = build_formalizer(args) if todo else None

    with JsonlWriter(out) as sink:

        def save(t):
            sink.write(t.to_dict())
            done[(str(t.meta["id"]), int(t.meta["sample"]))] = t

        for start in range(0, len(todo), args.batch_size):
            chunk = todo[start : start + args.batch_size]
            # Rerun only the missing samples of a problem (a crash mid-chunk leaves some written).
            items = [(p, j) for p in chunk for j in range(args.k) if (p.id, j) not in done]
            formalizer.loop.run(
                [p.informal for p, _ in items],
                [{"id": p.id, "benchmark": p.benchmark, "split": p.split, "sample": j} for p, j in items],
                on_done=save,
                progress=True,
            )
    already = {row["id"] for row in resume_rows(chosen_path)}
    reranker = formalizer.reranker if formalizer else None
    if reranker is None and not args.no_rerank and args.k > 1:
        from atf.llm import load_engine

        reranker = LazyReranker(lambda: load_engine(args.engine, **template_options(args)))
    with JsonlWriter(chosen_path) as sink:
        for p in problems:
            if p.id in already:
                continue
            result = choose(p.informal, [done[(p.id, j)] for j in range(args.k)], reranker)
            sink.write({"id": p.id, "benchmark": p.benchmark, "split": p.split, **result.to_dict(with_samples=False)})
    print(f"wrote {out} and {chosen_path}", file=sys.stderr)
    return 0
