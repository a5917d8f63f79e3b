"""How SymEq's cost grows with the nesting depth of a statement, one construct at a time: the probe for the class of
defect where a reading tries a term one way, then reads it again another way, at every level (2^depth).

    nice python eval/symeq_nesting.py                  # every form at depths 6, 12, 24: seconds and growth
    nice python eval/symeq_nesting.py --depths 8 16 --only lean

Each form wraps a term in one construct (`Nat.gcd ({t}) a`, `card {{t}, a}`, `¬ ({t})`, ...) and is applied
`depth` times to a base term, so the text grows linearly with the depth. For each depth the script reads the
statement (`equivalence.parse`: front-end, elaboration, standard form) and then clusters it with a renamed copy of
itself (`SymEq.cluster`, Z3 included), each under a wall-clock cap (--cap-s, default 20; a form that hits it is
printed as such). A form whose cost at the largest depth is over --flag-s seconds (default 1) and grows faster than
the cube of the depth between the two largest depths is flagged: a linear text should not cost that.

Rounds: written in session 33. At 4357e62 (VERSION 80), `--depths 6 12 18 --cap-s 10` flagged 8 forms, each past the
cap at depth 18: `Finset.card ({…, a} : Finset ℕ)`, `if … = a then a else b` and `(if … then a else b) = 1` in Lean,
`card {…, a}`, `Max {…, a + 1}` (4.7 s), `gcd (card {…}) a`, `if … = a then a else b` and `length […, a]` in
Isabelle. A term read to learn its type was read again with its siblings at every level (`Elaborator.elab_once`
reads it once), and Isabelle's `{` was tried as a set builder before the enumeration at every level
(`_Parser.not_builders`). At VERSION 81 it flags none (tests/test_symeq_nesting_s33.py).
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (language, statement template with {T}, base term, form wrapping {t}); a ℕ context has a b : ℕ, a real one x y : ℝ
NAT_LEAN = "theorem t (a b : ℕ) : {T} = 1 := by sorry"
REAL_LEAN = "theorem t (x y : ℝ) : {T} = 1 := by sorry"
PROP_LEAN = "theorem t (a b : ℕ) (h : {T}) : a = 1 := by sorry"
NAT_ISA = 'theorem t: fixes a b :: nat shows "{T} = 1"'
REAL_ISA = 'theorem t: fixes x y :: real shows "{T} = 1"'
PROP_ISA = 'theorem t: fixes a b :: nat assumes h0: "{T}" shows "a = 1"'

FORMS: list[tuple[str, str, str, str]] = [
    ("lean", NAT_LEAN, "a", "Nat.gcd ({t}) a"),
    ("lean", NAT_LEAN, "a", "max ({t}) a"),
    ("lean", NAT_LEAN, "a", "min a ({t})"),
    ("lean", NAT_LEAN, "a", "a - ({t})"),
    ("lean", NAT_LEAN, "a", "({t}) / 2 + a"),
    ("lean", NAT_LEAN, "a", "({t}) % 3 + a"),
    ("lean", NAT_LEAN, "a", "2 ^ ({t})"),
    ("lean", NAT_LEAN, "a", "Nat.factorial ({t})"),
    ("lean", NAT_LEAN, "a", "Nat.choose ({t}) 2"),
    ("lean", NAT_LEAN, "a", "Finset.card ({{{t}, a}} : Finset ℕ)"),
    ("lean", NAT_LEAN, "a", "∑ i ∈ Finset.range ({t}), i"),
    ("lean", NAT_LEAN, "a", "∑ i ∈ Finset.range a, ({t})"),
    ("lean", NAT_LEAN, "a", "Finset.card (Finset.filter (fun i => i < {t}) (Finset.range a))"),
    ("lean", NAT_LEAN, "a", "(if {t} = a then a else b)"),
    ("lean", NAT_LEAN, "a", "(fun z => z + ({t})) a"),
    ("lean", NAT_LEAN, "a", "Int.toNat (({t} : ℤ) - b)"),
    ("lean", NAT_LEAN, "a", "List.length [{t}, a]"),
    ("lean", NAT_LEAN, "a", "Nat.succ ({t})"),
    ("lean", NAT_LEAN, "a", "Finset.sum (Finset.range a) (fun i => {t})"),
    ("lean", NAT_LEAN, "a", "({t} : ℕ)"),
    ("lean", REAL_LEAN, "x", "|{t}| + x"),
    ("lean", REAL_LEAN, "x", "Real.sqrt ({t})"),
    ("lean", REAL_LEAN, "x", "({t}) / x"),
    ("lean", REAL_LEAN, "x", "Real.log ({t})"),
    ("lean", REAL_LEAN, "x", "Real.exp ({t})"),
    ("lean", REAL_LEAN, "x", "({t}) ^ (2 : ℝ)"),
    ("lean", REAL_LEAN, "x", "(⌊{t}⌋ : ℝ)"),
    ("lean", REAL_LEAN, "x", "Real.sin ({t})"),
    ("lean", REAL_LEAN, "x", "max ({t}) x"),
    ("lean", PROP_LEAN, "a = 0", "¬ ({t})"),
    ("lean", PROP_LEAN, "a = 0", "(({t}) → a = 1)"),
    ("lean", PROP_LEAN, "a = 0", "(({t}) ↔ a = 2)"),
    ("lean", PROP_LEAN, "a = 0", "(∀ z : ℕ, z = a ∨ ({t}))"),
    ("lean", PROP_LEAN, "a = 0", "(∃ z : ℕ, z < a ∧ ({t}))"),
    ("lean", PROP_LEAN, "a = 0", "a ∈ {{z : ℕ | z = a ∨ ({t})}}"),
    ("lean", PROP_LEAN, "a = 0", "((if {t} then a else b) = 1)"),
    ("lean", PROP_LEAN, "a = 0", "(({t}) = (a = 1))"),
    ("isabelle", NAT_ISA, "a", "gcd ({t}) a"),
    ("isabelle", NAT_ISA, "a", "max ({t}) a"),
    ("isabelle", NAT_ISA, "a", "a - ({t})"),
    ("isabelle", NAT_ISA, "a", "({t}) div 2 + a"),
    ("isabelle", NAT_ISA, "a", "({t}) mod 3 + a"),
    ("isabelle", NAT_ISA, "a", "2 ^ ({t})"),
    ("isabelle", NAT_ISA, "a", "fact ({t})"),
    ("isabelle", NAT_ISA, "a", "({t}) choose 2"),
    ("isabelle", NAT_ISA, "a", "card {{{t}, a}}"),
    ("isabelle", NAT_ISA, "a", "Max {{{t}, a + 1}}"),
    ("isabelle", NAT_ISA, "a", "gcd (card {{{t}}}) a"),
    ("isabelle", NAT_ISA, "a", "(\\<Sum>i<({t}). i)"),
    ("isabelle", NAT_ISA, "a", "(\\<Sum>i<a. ({t}))"),
    ("isabelle", NAT_ISA, "a", "card {{i. i < ({t})}}"),
    ("isabelle", NAT_ISA, "a", "(if {t} = a then a else b)"),
    ("isabelle", NAT_ISA, "a", "(\\<lambda>z. z + ({t})) a"),
    ("isabelle", NAT_ISA, "a", "nat (int ({t}) - b)"),
    ("isabelle", NAT_ISA, "a", "length [{t}, a]"),
    ("isabelle", NAT_ISA, "a", "Suc ({t})"),
    ("isabelle", NAT_ISA, "a", "({t} :: nat)"),
    ("isabelle", REAL_ISA, "x", "\\<bar>{t}\\<bar> + x"),
    ("isabelle", REAL_ISA, "x", "sqrt ({t})"),
    ("isabelle", REAL_ISA, "x", "({t}) / x"),
    ("isabelle", REAL_ISA, "x", "ln ({t})"),
    ("isabelle", REAL_ISA, "x", "exp ({t})"),
    ("isabelle", REAL_ISA, "x", "({t}) powr 2"),
    ("isabelle", REAL_ISA, "x", "of_int \\<lfloor>{t}\\<rfloor>"),
    ("isabelle", REAL_ISA, "x", "sin ({t})"),
    ("isabelle", REAL_ISA, "x", "max ({t}) x"),
    ("isabelle", REAL_ISA, "x", "real (nat \\<lfloor>{t}\\<rfloor>)"),
    ("isabelle", PROP_ISA, "a = 0", "\\<not> ({t})"),
    ("isabelle", PROP_ISA, "a = 0", "(({t}) \\<longrightarrow> a = 1)"),
    ("isabelle", PROP_ISA, "a = 0", "(({t}) \\<longleftrightarrow> a = 2)"),
    ("isabelle", PROP_ISA, "a = 0", "(\\<forall>z::nat. z = a \\<or> ({t}))"),
    ("isabelle", PROP_ISA, "a = 0", "(\\<exists>z::nat. z < a \\<and> ({t}))"),
    ("isabelle", PROP_ISA, "a = 0", "a \\<in> {{z. z = a \\<or> ({t})}}"),
    ("isabelle", PROP_ISA, "a = 0", "([a = b] (mod 2) \\<or> ({t}))"),
    ("isabelle", PROP_ISA, "a = 0", "(({t}) = (a = 1))"),
]


def nest(base: str, form: str, depth: int) -> str:
    t = base
    for _ in range(depth):
        t = form.replace("{t}", "\x00").replace("{{", "{").replace("}}", "}").replace("\x00", t)
    return t


class Cap(Exception):
    pass


def _alarm(signum, frame):
    raise Cap()


def timed(fn, cap: float) -> float | None:
    """Seconds fn took, or None where it ran past cap (SIGALRM, raised once Python runs again: each Z3 query has
    its own timeout)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    t0 = time.perf_counter()
    try:
        fn()
    except Cap:
        return None
    except Exception:  # a statement SymEq rejects is read (and rejected) in some time too
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - t0


def probe(lang: str, template: str, base: str, form: str, depths: list[int], cap: float) -> list[tuple]:
    from atf.symeq.equivalence import SymEq, parse

    out = []
    for d in depths:
        text = template.replace("{T}", nest(base, form, d))
        renamed = re.sub(r"\ba\b", "c", text)  # (a renamed copy: the pair SymEq must merge)
        read = timed(lambda text=text: parse(text, lang), cap)
        both = None if read is None else timed(lambda t=text, r=renamed: SymEq(lang).cluster([t, r]), cap)
        out.append((d, len(text), read, both))
        if read is None or both is None:
            break
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depths", type=int, nargs="+", default=[6, 12, 24], help="nesting depths (default: %(default)s)")
    ap.add_argument("--only", choices=["lean", "isabelle"], help="one language's forms")
    ap.add_argument(
        "--cap-s", type=float, default=20.0, help="seconds one reading or clustering may take (default: %(default)s)"
    )
    ap.add_argument("--flag-s", type=float, default=1.0, help="flag a form above these seconds (default: %(default)s)")
    args = ap.parse_args(argv)
    if len(args.depths) < 2 or sorted(args.depths) != args.depths or args.depths[0] < 1:
        ap.error("--depths: two or more increasing depths, each at least 1")
    from tqdm import tqdm

    forms = [f for f in FORMS if args.only in (None, f[0])]
    flagged = []
    rows = []
    for lang, template, base, form in tqdm(forms, desc="forms", unit="form", file=sys.stderr):
        res = probe(lang, template, base, form, args.depths, args.cap_s)
        rows.append((lang, form, res))
        last = res[-1]
        capped = last[2] is None or last[3] is None
        worst = None if capped else max(last[2], last[3])
        if capped or (len(res) >= 2 and worst > args.flag_s):
            prev = res[-2] if len(res) >= 2 else None
            grow = None
            if not capped and prev is not None and max(prev[2], prev[3]) > 0:
                grow = worst / max(prev[2], prev[3])
            limit = (res[-1][0] / res[-2][0]) ** 3 if len(res) >= 2 else 0
            if capped or (grow is not None and grow > limit):
                flagged.append((lang, form))

    def secs(x: float | None) -> str:
        return f"> {args.cap_s:g}" if x is None else f"{x:.3f}"

    print(f"{len(forms)} forms, depths {args.depths} (seconds: read / read and cluster with a renamed copy)")
    for lang, form, res in rows:
        cells = "  ".join(f"d{d} ({n} chars) {secs(r)} / {secs(b)}" for d, n, r, b in res)
        print(f"  {lang:8s} {form:60s} {cells}")
    print(f"flagged (over {args.flag_s:g} s and growing faster than depth^3, or past the cap): {len(flagged)}")
    for lang, form in flagged:
        print(f"  {lang}: {form}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
