"""SymEq's Isabelle reader against Isabelle's own verdict on each candidate (the `syntax` field: Isabelle's parse and
type check, 1 or 0), on miniF2F's *valid* half (correctness labels are not read).

    nice python eval/symeq_isabelle_syntax.py            # counts, and every accepted candidate SymEq leaves unread
    nice python eval/symeq_isabelle_syntax.py --show-rejected 20

A proposition SymEq leaves unread (`unparsed proposition` among a statement's opaque notes) in a candidate Isabelle
accepted is a reading SymEq lacks; one it reads in a candidate Isabelle rejected is a statement that has no meaning,
read anyway (most fail on something SymEq keeps opaque).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="valid", choices=("valid", "test", "all"), help="miniF2F half (valid: dev)")
    ap.add_argument("--show-rejected", type=int, default=0, metavar="N", help="print N rejected candidates read whole")
    args = ap.parse_args(argv)

    from atf.data.isabelle import load_minif2f
    from atf.symeq.equivalence import SymEq
    from atf.symeq.ir import ParseError

    symeq = SymEq("isabelle")
    counts: Counter = Counter()
    unread_accepted: list[str] = []
    read_rejected: list[str] = []
    for p in load_minif2f(args.split):
        for c in p.candidates:
            try:
                notes = [n for n in symeq.parse(c.statement).opaque if n.startswith("unparsed proposition")]
            except ParseError as e:
                notes = [f"no statement: {e}"]
            verdict = {1: "accepted", 0: "rejected"}.get(c.syntax, "no verdict")
            counts[(verdict, "unread" if notes else "read")] += 1
            if notes and c.syntax == 1:
                unread_accepted.append(f"  {p.id} #{c.idx}: {notes[0][:200]}")
            elif not notes and c.syntax == 0:
                read_rejected.append(f"  {p.id} #{c.idx}:\n    " + c.statement.replace("\n", "\n    "))
    print(f"miniF2F {args.split}, Isabelle candidates by Isabelle's verdict and SymEq's reading:")
    for verdict in ("accepted", "rejected", "no verdict"):
        read, unread = counts[(verdict, "read")], counts[(verdict, "unread")]
        if read or unread:
            print(f"  {verdict:10}  read whole {read:5}   a proposition unread {unread:5}")
    if unread_accepted:
        print("accepted by Isabelle, a proposition unread by SymEq:")
        print("\n".join(unread_accepted))
    if args.show_rejected and read_rejected:
        print(f"rejected by Isabelle, read whole by SymEq (first {args.show_rejected}):")
        print("\n".join(read_rejected[: args.show_rejected]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
