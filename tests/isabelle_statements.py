"""Isabelle theorem statements for SymEq tests, written from their parts, and how a test sees that one stayed unread."""

from atf.symeq.equivalence import SymEq


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    """`theorem fixes ... assumes h0 : "..." and ... shows "..."`."""
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


def isa(fixes: str, shows: str, assumes: list[str] | None = None) -> str:
    """`thm` with the conclusion before the hypotheses (none by default)."""
    return thm(fixes, assumes or [], shows)


def unparsed(symeq: SymEq, text: str) -> bool:
    """Some proposition of the statement stayed one unparsed proposition (as an ill-typed one does)."""
    return any(n.startswith("unparsed proposition") for n in symeq.parse(text).opaque)
