"""Which statements SymEq reads differently at two trees: the check a round runs before re-measuring.

A change to the statement compiler (`atf.symeq`) changes some readings and leaves the rest alone; every figure
measured on statements whose reading did not change still stands. This script records each statement's reading
(a digest of `Statement.key()`, the form SymEq's classes compare) at the tree it runs in, and compares two records:

    git worktree add /tmp/old REV                                    # the tree before the change
    nice python eval/symeq_readings.py --tree /tmp/old --output /tmp/old.json
    nice python eval/symeq_readings.py --output /tmp/new.json
    python eval/symeq_readings.py --compare /tmp/old.json /tmp/new.json --ids-out eval/symeq_reread/sNN.txt

The statements: the gold Lean statements of every benchmark split (`atf.data.benchmarks`: miniF2F and ProofNet
valid and test, PutnamBench, CombiBench, FormalMATH-Lite, ProverBench) and every GPT-4 Isabelle candidate of
Table 1's data (MATH, all 797 problems, and miniF2F's 488; k = 10). `--compare` prints how many readings changed
in each set and which; `--ids-out` writes the changed Lean statements in the form `eval/symeq_metamorphic.py --ids`
reads, so the round re-probes exactly those. A statement SymEq cannot read is recorded as the error's type.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

from tqdm import tqdm

HERE = Path(__file__).resolve().parents[1]


def reading(text: str, lang: str) -> str:
    """A digest of the statement's SymEq key, or `error: <type>` where it cannot be read."""
    from atf.symeq.equivalence import parse

    try:
        key = parse(text, lang).key()
    except Exception as e:  # a statement the front-end rejects is a reading too (and may change)
        return f"error: {type(e).__name__}"
    return hashlib.sha256(repr(key).encode()).hexdigest()[:20]


def statements(limit: int | None) -> list[tuple[str, str, str]]:
    """(id, text, language) of every statement recorded: `lean/<benchmark>/<split>/<id>`, `isabelle/<set>/<id>/<i>`."""
    from atf.data.benchmarks import BENCHMARKS, load_benchmark, splits_of
    from atf.data.isabelle import load_math, load_minif2f

    out = []
    for name in BENCHMARKS:
        problems = load_benchmark(name)  # (read once, then split)
        for split in splits_of(name):
            for p in [p for p in problems if p.split == split][:limit]:
                out.append((f"lean/{name}/{split}/{p.id}", p.formal.removeprefix(p.header), "lean"))
    for set_name, problems in (("math", load_math("all")), ("minif2f", load_minif2f("all"))):
        for p in problems[:limit]:
            for i, c in enumerate(p.candidates):
                out.append((f"isabelle/{set_name}/{p.id}/{i}", c.statement, "isabelle"))
    return out


def record(limit: int | None) -> dict:
    from atf.symeq.equivalence import VERSION

    items = statements(limit)
    readings = {key: reading(text, lang) for key, text, lang in tqdm(items, desc="readings", unit="stmt")}
    return {"symeq_version": VERSION, "limit": limit, "readings": readings}


def compare(old: dict, new: dict) -> tuple[list[str], list[str]]:
    """The report's lines and the ids whose reading differs (present in both records)."""
    a, b = old["readings"], new["readings"]
    if old.get("limit") != new.get("limit"):
        raise SystemExit(f"the records cover different statements (--limit {old.get('limit')} and {new.get('limit')})")
    shared = [k for k in a if k in b]
    changed = [k for k in shared if a[k] != b[k]]
    per_set, total = Counter(), Counter()
    for k in shared:
        group = "/".join(k.split("/")[:2])
        total[group] += 1
        per_set[group] += k in changed
    lines = [
        f"SymEq VERSION {old.get('symeq_version')} -> {new.get('symeq_version')}: {len(changed)} of {len(shared)} "
        "readings changed"
    ]
    lines += [f"  {group:<28} {per_set[group]:>5} / {total[group]}" for group in sorted(total)]
    only = len(set(a) ^ set(b))
    if only:
        lines.append(f"  ({only} statements are in one record only: not compared)")
    lines += [f"  changed: {k}" for k in changed]
    return lines, changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("-o", "--output", type=Path, metavar="FILE", help="record every statement's reading at this tree")
    mode.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"), help="compare two records")
    ap.add_argument(
        "--ids-out",
        type=Path,
        metavar="FILE",
        help="with --compare: write the changed Lean statements as `benchmark/split/id` lines",
    )
    ap.add_argument(
        "--tree",
        type=Path,
        metavar="DIR",
        help="with --output: read with the atf package of this checkout (a worktree at the revision before the change)",
    )
    ap.add_argument("--limit", type=int, default=None, help="first N statements (problems) of each set (a quick run)")
    args = ap.parse_args(argv)
    if args.ids_out and not args.compare:
        ap.error("--ids-out goes with --compare")
    if args.tree and not args.output:
        ap.error("--tree goes with --output")
    if args.output:
        tree = (args.tree or HERE).resolve()
        if not (tree / "atf" / "symeq").is_dir():
            ap.error(f"{tree} holds no atf/symeq package")
        sys.path.insert(0, str(tree))
        import atf

        if Path(atf.__file__).resolve().parents[1] != tree:
            ap.error(f"atf was already imported from {Path(atf.__file__).parent}, not {tree}")
        args.output.parent.mkdir(parents=True, exist_ok=True)
        data = record(args.limit)
        data["tree"] = str(tree)
        args.output.write_text(json.dumps(data, indent=0, sort_keys=True), encoding="utf-8")
        print(
            f"{len(data['readings'])} readings (SymEq VERSION {data['symeq_version']}, {tree}) written to {args.output}"
        )
        return 0
    try:
        old, new = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
    except (OSError, ValueError) as e:
        ap.error(f"cannot read a record: {e}")
    lines, changed = compare(old, new)
    print("\n".join(lines))
    if args.ids_out:
        lean = [k.removeprefix("lean/") for k in changed if k.startswith("lean/")]
        args.ids_out.write_text("".join(f"{k}\n" for k in lean), encoding="utf-8")
        print(f"{len(lean)} Lean statements written to {args.ids_out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
