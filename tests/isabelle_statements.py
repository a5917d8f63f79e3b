"""Isabelle theorem statements for SymEq tests, written from their parts."""


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    """`theorem fixes ... assumes h0 : "..." and ... shows "..."`."""
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'
