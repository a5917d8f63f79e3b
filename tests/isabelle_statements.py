"""Isabelle theorem statements for SymEq tests, written from their parts, and how a test sees that one stayed unread."""

import functools

from atf.data.isabelle import load_minif2f
from atf.symeq.equivalence import SymEq, parse


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    """`theorem fixes ... assumes h0 : "..." and ... shows "..."`."""
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


def isa(fixes: str, shows: str, assumes: list[str] | None = None) -> str:
    """`thm` with the conclusion before the hypotheses (none by default)."""
    return thm(fixes, assumes or [], shows)


def unread(text: str) -> list[str]:
    """The propositions of an Isabelle statement SymEq left unread (ill-typed or unparsed), as its notes say."""
    return [n for n in parse(text, "isabelle").opaque if n.startswith("unparsed proposition")]


def unparsed(symeq: SymEq, text: str) -> bool:
    """Some proposition of the statement stayed one unparsed proposition (as an ill-typed one does)."""
    return any(n.startswith("unparsed proposition") for n in symeq.parse(text).opaque)


@functools.cache
def minif2f_valid_readings() -> tuple[tuple[str, int, str | None, tuple[str, ...]], ...]:
    """Every miniF2F *valid* (dev) Isabelle candidate with a recorded verdict, read once per test process (the rules'
    checks against Isabelle's verdicts share it): (problem, Isabelle's verdict, the error that left the statement
    unread or None, SymEq's notes on what it kept opaque or unread)."""
    out = []
    for problem in load_minif2f("valid"):
        for c in problem.candidates:
            if c.syntax is None:
                continue
            try:
                out.append((problem.id, c.syntax, None, tuple(parse(c.statement, "isabelle").opaque)))
            except Exception as err:  # a statement the front-end rejects as a whole (ParseError and the like)
                out.append((problem.id, c.syntax, str(err), ()))
    return tuple(out)
