"""Cold-start trajectories: a teacher model through the real tool loop (primary), plus programmatic plans.

    # the ATF paper's cold start: a strong teacher over many problems, rule-abiding successes kept
    python data_gen/synthesize.py --teacher openai:http://localhost:8000/v1#Qwen2.5-72B-Instruct --teacher-samples 4 \\
        --benchmarks minif2f proofnet --plans --out data/teacher.jsonl
    # a NuminaMath-style set (local parquet or a hub id) mapped onto problem fields
    python data_gen/synthesize.py --teacher vllm:/models/qwen --benchmarks numina.parquet \\
        --field problem=informal_statement --field id=name --consistency judge --plans --out data/numina.jsonl
    # the same command again with --resume after a crash or preemption: nothing attempted is redone
    python data_gen/synthesize.py --teacher vllm:/models/qwen --benchmarks minif2f proofnet --resume \\
        --out data/teacher.jsonl
    # the programmatic supplement only (dev splits with gold statements)
    python data_gen/synthesize.py --benchmarks minif2f proofnet --out data/cold_start.jsonl

Teacher: any engine spec (openai:<url>#<model>, vllm:<dir>, hf:<dir>, smollm2). Each rollout runs the real
loop with the real tools; it is kept only when both checks passed and the loop refused none of its calls
(statements syntax-checked, consistency only after syntax passed, within the revision limit).
Programmatic plans (--plans): the gold statement directly, or a deliberate mistake, the real tools' feedback
and the correction; the mistake is never under loss. Problems of every source are checked against every
benchmark's test split (n-gram overlap, atf/data/decontaminate.py) and overlapping ones dropped. Test splits
are refused. The summary on stderr gives the mix, the rejections by reason and the tokens under loss.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from atf import jsonl
from atf.agent.loop import AgentConfig
from atf.agent.tools import ConsistencyCheckTool, SyntaxCheckTool
from atf.agent.trajectory import Trajectory, write_jsonl
from atf.data.benchmarks import load_problems, parse_field_mapping, training_split
from atf.llm import DEFAULT_ENGINE
from atf.train.model import resolve_model_path, training_tokenizer
from atf.train.reference import ReferenceConsistencyTool
from atf.train.synth import PLANS, refuse_test_split, synthesize, teacher_trajectories
from atf.train.synth_report import report


def build_parser() -> argparse.ArgumentParser:
    from atf.cliargs import add_engine, add_judges, add_output, default_of

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_engine(p, "--teacher", "teacher engine (the primary source); its rule-abiding successes are kept")
    p.add_argument("--teacher-samples", type=int, default=1, help="teacher rollouts per problem (default %(default)s)")
    p.add_argument(
        "--benchmarks",
        nargs="+",
        default=["minif2f", "proofnet"],
        help="problem sources: benchmark names, local .jsonl/.json/.parquet/.arrow/.csv files, "
        "dataset folders or hub ids (default %(default)s)",
    )
    p.add_argument(
        "--field",
        action="append",
        default=[],
        metavar="FIELD=COLUMN",
        help="read a problem field from another column, e.g. --field problem=informal_statement --field id=name",
    )
    p.add_argument(
        "--split",
        default=None,
        help="split to use (default: valid for benchmarks, train for your data; test is refused)",
    )
    p.add_argument("--limit", type=int, default=None, help="first N problems of each source")
    add_output(p, "output trajectories JSONL (required)", old=("--out",))
    p.add_argument("--append", action="store_true", help="append to --output instead of overwriting it")
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue a run that was killed: keep --output's complete records, skip the teacher rollouts "
        "already attempted (kept or dropped, as OUTPUT.progress records them), redo unfinished plans",
    )
    p.add_argument(
        "--tokenizer",
        default=DEFAULT_ENGINE,
        help="model whose tokenizer the token views use (the model you will train; default %(default)s)",
    )
    p.add_argument(
        "--plans",
        nargs="*",
        default=list(PLANS),
        help=f"programmatic plans ({', '.join(PLANS)}); give none for teacher only",
    )
    p.add_argument(
        "--consistency",
        choices=["reference", "judge"],
        default="reference",
        help="reference: compare with the gold statement (exact); judge: the LLM judge ensemble",
    )
    add_judges(p, f"a judge for --consistency judge, repeatable: engine[::key=value,...] (default {DEFAULT_ENGINE})")
    p.add_argument(
        "--max-revisions",
        type=int,
        default=default_of(AgentConfig, "max_revisions"),
        help="statements a rollout may submit (AgentConfig; default %(default)s)",
    )
    p.add_argument("--no-decontaminate", action="store_true", help="keep problems that overlap a benchmark test split")
    p.add_argument("--seed", type=int, default=0, help="seed of the programmatic plans (default %(default)s)")
    return p


def load_sources(args: argparse.Namespace) -> list:
    fields = parse_field_mapping(args.field)
    problems = []
    for source in args.benchmarks:
        split = args.split or training_split(source)
        problems += load_problems(source, split, fields)[: args.limit]
    if not problems:
        raise SystemExit(f"no problems in {args.benchmarks} (split {args.split or 'valid/train'})")
    refuse_test_split(problems)
    if args.no_decontaminate:
        return problems
    from atf.data.decontaminate import decontaminate, summary

    kept, dropped = decontaminate(problems, progress=len(problems) > 1000)
    print(summary(len(problems), dropped), file=sys.stderr)
    return kept


def resume_state(out: Path, progress_path: Path) -> tuple[set[tuple[str, int]], bool]:
    """What a killed run finished: the (problem id, sample) pairs the teacher attempted, and whether the
    programmatic plans were all written. Torn last lines are cut from both files; plan records of an
    unfinished plan pass are removed from `out` (they are cheap and deterministic: they are redone)."""
    previous = [Trajectory.from_dict(r) for r in jsonl.resume_jsonl(out)] if out.exists() else []
    records = jsonl.resume_jsonl(progress_path) if progress_path.exists() else []
    plans_done = any(r.get("plans") == "done" for r in records)
    teacher = [t for t in previous if str(t.meta.get("source", "")).startswith("teacher:")]
    attempted = {(r["id"], r["sample"]) for r in records if "sample" in r}
    attempted |= {(t.meta["id"], t.meta["sample"]) for t in teacher}  # written, then killed before its record
    if not plans_done and len(teacher) < len(previous):
        tmp = out.with_name(out.name + ".tmp")
        with jsonl.JsonlWriter(tmp, append=False) as sink:
            sink.write_all(t.to_dict() for t in teacher)
        os.replace(tmp, out)
    print(
        f"resuming {out}: {len(teacher)} teacher trajectories kept, {len(attempted)} rollouts attempted, "
        f"plans {'done' if plans_done else 'to do'}",
        file=sys.stderr,
    )
    return attempted, plans_done


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.output is None:
        parser.error("the following arguments are required: -o/--output")
    if args.resume and args.append:
        parser.error("--resume continues --output already; --append is for adding a new run to it")
    if not args.teacher and not args.plans:
        raise SystemExit("nothing to synthesize: give --teacher SPEC and/or --plans")
    problems = load_sources(args)
    tokenizer = training_tokenizer(resolve_model_path(args.tokenizer))
    if args.consistency == "reference":
        missing = [p.id for p in problems if not p.formal]
        if missing:
            raise SystemExit(
                f"--consistency reference needs gold statements; {len(missing)} problems have none "
                f"(e.g. {missing[0]}): use --consistency judge"
            )
        consistency = ReferenceConsistencyTool({p.informal: p.formal for p in problems})
    else:
        from atf.judge import load_judge

        consistency = ConsistencyCheckTool.from_engines([load_judge(s) for s in args.judges or [DEFAULT_ENGINE]])
    tools = [SyntaxCheckTool(), consistency]
    config = AgentConfig(max_revisions=args.max_revisions)
    out = Path(args.output)
    progress_path = out.with_name(out.name + ".progress")
    attempted, plans_done = resume_state(out, progress_path) if args.resume else (set(), False)
    if not args.resume:
        if not args.append:
            write_jsonl(out, [])
        jsonl.write_jsonl(progress_path, [], append=args.append)
    progress = jsonl.JsonlWriter(progress_path)

    def save(t: Trajectory) -> None:
        write_jsonl(out, [t], append=True)

    def attempt(meta: dict, reason: str | None) -> None:  # after the trajectory itself is on disk
        progress.write({"id": meta["id"], "sample": meta["sample"], "dropped": reason})

    kept, stats = [], []
    if args.teacher:
        from atf.llm import load_engine

        teacher = load_engine(args.teacher)
        more, tstats = teacher_trajectories(
            problems,
            teacher,
            tools,
            config,
            args.teacher_samples,
            progress=True,
            tokenizer=tokenizer,
            on_kept=save,
            skip=attempted,
            on_attempt=attempt,
        )
        kept += more
        stats.append(tstats)
    if args.plans and not plans_done:
        with_gold = [p for p in problems if p.formal]
        more, pstats = synthesize(with_gold, tokenizer, tools, args.plans, config, args.seed)
        write_jsonl(out, more, append=True)
        progress.write({"plans": "done"})
        kept += more
        stats.append(pstats)
    progress.close()
    print(report(kept, stats), file=sys.stderr)
    successes = sum(t.success for t in kept)
    print(f"wrote {len(kept)} trajectories ({successes} successes) from {len(problems)} problems to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
