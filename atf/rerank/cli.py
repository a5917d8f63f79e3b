"""Subcommands for atf.rerank (being built; see the open issues)."""


def add_parser(sub) -> None:
    return None
