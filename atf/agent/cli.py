"""`atf formalize`: write a Lean statement for a problem with the tool loop, k samples, reranked."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from atf.llm import ENGINE_SPECS
from atf.llm.templates import CHAT_TEMPLATE_HELP

EPILOG = """examples:
  atf formalize "Show that for any natural number n, n^2 + n is even."
  atf formalize -k 8 --engine vllm:/ckpt/atf-7b --judge openai:http://judge:8000/v1#qwen "..."
  atf formalize --benchmark minif2f --split valid --limit 20 --out runs/minif2f_valid.jsonl   (resumable)
"""


def add_parser(sub) -> None:
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
    p.add_argument("-k", type=int, default=4, help="rollouts per problem (default 4)")
    p.add_argument("--engine", default="smollm2", help=f"formalizer engine: {ENGINE_SPECS} (default smollm2)")
    p.add_argument("--chat-template", default=None, help=CHAT_TEMPLATE_HELP + " (local engines; the one training used)")
    p.add_argument(
        "--judge", nargs="+", default=None, metavar="SPEC",
        help="judge(s) for consistency_check: an engine spec, optionally with ::key=value options "
        "(max_new_tokens, temperature, samples, ...; see atf consistency-check --help). Default: the formalizer "
        "engine. Several form an ensemble that passes only when all agree.",
    )
    p.add_argument("--judge-mode", default="vote", choices=["vote", "oap", "align"], help="how the judges decide")
    p.add_argument("--syntax-server", metavar="URL", help="use a running `atf serve-syntax` instead of a local checker")
    p.add_argument("--consistency-server", metavar="URL", help="use a running `atf serve-consistency` instead of --judge")
    p.add_argument("--max-revisions", type=int, default=8, help="most statements one rollout may submit (default 8)")
    p.add_argument("--max-turns", type=int, default=16, help="most assistant turns per rollout (default 16)")
    p.add_argument("--max-new-tokens", type=int, default=512, help="most tokens per assistant turn (default 512)")
    p.add_argument("--max-total-tokens", type=int, default=8192, help="most tokens per rollout (default 8192)")
    p.add_argument("--temperature", type=float, default=0.7, help="sampling temperature (default 0.7)")
    p.add_argument("--seed", type=int, default=None, help="sampling seed")
    p.add_argument("--no-rerank", action="store_true", help="keep the first candidate instead of reranking")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON instead of the trace")
    batch = p.add_argument_group("batch mode (instead of a single problem)")
    batch.add_argument("--benchmark", help="benchmark name (minif2f, proofnet, ...) or a JSONL file with 'informal' fields")
    batch.add_argument("--split", help="benchmark split (valid or test)")
    batch.add_argument("--limit", type=int, default=None, help="first N problems only")
    batch.add_argument("--out", type=Path, help="trajectories JSONL, appended to; finished rollouts are skipped on rerun")
    batch.add_argument("--chunk", type=int, default=32, help="problems in flight at once (default 32)")
    p.set_defaults(func=run)


class LazyReranker:
    """Builds `atf.rerank.Reranker` (informalizer = the formalizer engine) on first use: a batch whose
    problems each have a single distinct candidate never pays for loading the embedder."""

    def __init__(self, informalizer: Any):
        self.informalizer = informalizer  # an engine, or a callable that loads one
        self._reranker = None

    def rerank(self, problem: str, candidates: list[str], valid: list[bool] | None = None):
        if self._reranker is None:
            from atf.rerank import Reranker

            engine = self.informalizer() if callable(self.informalizer) and not hasattr(self.informalizer, "generate") else self.informalizer
            self._reranker = Reranker(informalizer=engine)
        return self._reranker.rerank(problem, candidates, valid=valid)


def engine_options(args: Any) -> dict[str, Any]:
    return {"chat_template": args.chat_template} if getattr(args, "chat_template", None) else {}


def build_formalizer(args: Any, engine: Any | None = None):
    """Engine, real tools (SyntaxChecker + ConsistencyChecker over the judges) and the Reranker, from CLI args."""
    from atf.agent.formalize import Formalizer
    from atf.agent.loop import AgentConfig
    from atf.llm import load_engine

    from atf.agent.tools import ConsistencyCheckTool, RemoteConsistencyTool, SyntaxCheckTool, remote_syntax_tool

    engine = engine or load_engine(args.engine, **engine_options(args))
    syntax = remote_syntax_tool(args.syntax_server) if args.syntax_server else SyntaxCheckTool()
    if args.consistency_server:
        consistency = RemoteConsistencyTool(args.consistency_server)
    else:
        from atf.judge import load_judge

        shared = {args.engine: engine}  # a judge on the formalizer's model shares its weights
        judges = [load_judge(spec, engines=shared) for spec in args.judge or [args.engine]]
        consistency = ConsistencyCheckTool.from_engines(judges, mode=args.judge_mode)
    tools = [syntax, consistency]
    reranker = None if args.no_rerank or args.k == 1 else LazyReranker(engine)
    config = AgentConfig(
        max_revisions=args.max_revisions,
        max_turns=args.max_turns,
        max_new_tokens=args.max_new_tokens,
        max_total_tokens=args.max_total_tokens,
        temperature=args.temperature,
        seed=args.seed,
    )
    return Formalizer(engine, tools, reranker, config, k=args.k)


def run(args) -> int:
    if args.k < 1:
        raise ValueError("-k must be >= 1")
    if args.benchmark:
        if args.problem:
            raise ValueError("give either a problem or --benchmark, not both")
        if not args.out:
            raise ValueError("batch mode needs --out FILE.jsonl")
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
    from atf.agent.trajectory import read_jsonl, write_jsonl
    from atf.data.benchmarks import load_problems

    problems = load_problems(args.benchmark, args.split)[: args.limit]
    out: Path = args.out
    chosen_path = out.with_name(out.stem + ".chosen.jsonl")
    done: dict[tuple[str, int], Any] = {}
    if out.exists():
        for t in read_jsonl(out):
            done[(str(t.meta.get("id")), int(t.meta.get("sample", 0)))] = t
    todo = [p for p in problems if any((p.id, j) not in done for j in range(args.k))]
    print(f"{len(problems)} problems, {len(problems) - len(todo)} already done in {out}", file=sys.stderr)
    formalizer = build_formalizer(args) if todo else None

    def save(t):
        write_jsonl(out, [t], append=True)
        done[(str(t.meta["id"]), int(t.meta["sample"]))] = t

    for start in range(0, len(todo), args.chunk):
        chunk = todo[start : start + args.chunk]
        # Rerun only the missing samples of a problem (a crash mid-chunk leaves some written).
        items = [(p, j) for p in chunk for j in range(args.k) if (p.id, j) not in done]
        formalizer.loop.run(
            [p.informal for p, _ in items],
            [{"id": p.id, "benchmark": p.benchmark, "split": p.split, "sample": j} for p, j in items],
            on_done=save,
            progress=True,
        )
    already = set()
    if chosen_path.exists():
        already = {json.loads(line)["id"] for line in chosen_path.read_text().splitlines() if line.strip()}
    reranker = formalizer.reranker if formalizer else None
    if reranker is None and not args.no_rerank and args.k > 1:
        from atf.llm import load_engine

        reranker = LazyReranker(lambda: load_engine(args.engine, **engine_options(args)))
    out.parent.mkdir(parents=True, exist_ok=True)
    with chosen_path.open("a", encoding="utf-8") as fh:
        for p in problems:
            if p.id in already:
                continue
            result = choose(p.informal, [done[(p.id, j)] for j in range(args.k)], reranker)
            row = {"id": p.id, "benchmark": p.benchmark, "split": p.split, **result.to_dict(with_samples=False)}
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
    print(f"wrote {out} and {chosen_path}", file=sys.stderr)
    return 0
