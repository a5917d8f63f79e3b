"""The flags every `atf` subcommand and script shares, so they are spelled, typed and documented one way.

Vocabulary: `-i/--input`, `-o/--output`, `--batch-size`, time flags in seconds named `--*-s`, engine flags
(`--engine`, `--judge` (repeatable), `--informalizer`, `--teacher`) taking one spec form
(`<engine>[::key=value,...]`, see atf.llm). Defaults come from the config dataclass or the function that
owns them (`default_of`), never from a literal here. Old spellings stay as hidden aliases that warn.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import re
import sys
from collections.abc import Callable
from typing import Any


def default_of(owner: Any, name: str) -> Any:
    """The default of field `name` of a dataclass, or of parameter `name` of a function/class."""
    if dataclasses.is_dataclass(owner):
        for f in dataclasses.fields(owner):
            if f.name == name:
                if f.default is not dataclasses.MISSING:
                    return f.default
                if f.default_factory is not dataclasses.MISSING:
                    return f.default_factory()
        raise KeyError(f"{owner.__name__} has no defaulted field {name!r}")
    param = inspect.signature(owner).parameters[name]
    if param.default is inspect.Parameter.empty:
        raise KeyError(f"{owner.__qualname__} has no default for {name!r}")
    return param.default


def field_docs(cls: type) -> dict[str, str]:
    """`name: text` entries of a dataclass docstring (TRL style: each field documented once, where defined);
    `a / b: text` documents several fields at once."""
    docs: dict[str, str] = {}
    names: list[str] = []
    for line in (cls.__doc__ or "").splitlines():
        m = re.match(r"^    ([\w]+(?: / \w+)*): (.*)$", line)
        if m:
            names = m.group(1).split(" / ")
            for n in names:
                docs[n] = m.group(2).strip()
        elif names and line.startswith("        ") and line.strip():
            for n in names:
                docs[n] += " " + line.strip()
        else:
            names = []
    return docs


def add_fields(p: argparse.ArgumentParser | Any, cls: type, names: list[str], prefix: str = "") -> None:
    """`--<name>` flags for fields of dataclass `cls`: type, default and help all read from the dataclass."""
    docs = field_docs(cls)
    hints = {f.name: f.type for f in dataclasses.fields(cls)}
    for name in names:
        default = default_of(cls, name)
        typ = type(default) if default is not None else _hint_type(hints[name])
        help_text = docs.get(name, name.replace("_", " ")).rstrip(".") + " (default %(default)s)"
        metavar = {int: "N", float: "X"}.get(typ, "TEXT")
        flag = f"--{prefix}{name.replace('_', '-')}"
        p.add_argument(flag, type=typ, default=default, metavar=metavar, help=help_text)


def _hint_type(hint: Any) -> type:
    text = str(hint)
    return int if "int" in text else float if "float" in text else str


class _Deprecated(argparse.Action):
    """A hidden old spelling: warns, converts units (`scale`) and stores into the new flag's dest."""

    def __init__(self, option_strings, dest, new: str = "", scale: float | None = None, **kwargs):
        self.new, self.scale = new, scale
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog}: {option_string} is deprecated, use {self.new}", file=sys.stderr)
        if self.scale is not None:
            values = float(values) * self.scale
        setattr(namespace, self.dest, values)


def alias(
    p: Any, old: str, new: str, dest: str, type: Callable | None = None, scale: float | None = None, nargs: Any = None
) -> None:
    """Keep `old` working as a hidden, warning spelling of `new`."""
    p.add_argument(
        old,
        dest=dest,
        action=_Deprecated,
        new=new,
        scale=scale,
        type=type,
        nargs=nargs,
        default=argparse.SUPPRESS,
        help=argparse.SUPPRESS,
    )


def add_input(p: Any, help: str, required: bool = False, **kwargs: Any) -> None:
    p.add_argument("-i", "--input", metavar="PATH", required=required, help=help, **kwargs)


def add_output(p: Any, help: str, old: tuple[str, ...] = (), **kwargs: Any) -> None:
    p.add_argument("-o", "--output", metavar="PATH", help=help, **kwargs)
    for spelling in old:
        alias(p, spelling, "--output", "output", type=kwargs.get("type"))


def add_batch_size(p: Any, default: int, help: str, old: tuple[str, ...] = ()) -> None:
    p.add_argument("--batch-size", type=int, default=default, help=help + " (default %(default)s)")
    for spelling in old:
        alias(p, spelling, "--batch-size", "batch_size", type=int)


def add_seconds(
    p: Any, flag: str, default: float | None, help: str, old_s: tuple[str, ...] = (), old_ms: tuple[str, ...] = ()
) -> None:
    """A time flag in seconds (`--timeout-s`); old spellings in seconds or milliseconds keep working."""
    if not flag.endswith("-s"):
        raise ValueError(f"time flags are in seconds and end in -s: {flag}")
    dest = flag.lstrip("-").replace("-", "_")
    shown = "" if default is None else " (default %(default)s)"
    p.add_argument(flag, type=float, default=default, metavar="SECONDS", help=help + shown)
    for spelling in old_s:
        alias(p, spelling, flag, dest, type=float)
    for spelling in old_ms:
        alias(p, spelling, flag, dest, type=float, scale=0.001)


def engine_spec(spec: str) -> str:
    """argparse type of engine flags: checks the spec's engine kind and option keys (without loading)."""
    from atf.llm import engine_options
    from atf.llm.spec import parse_options, split_spec

    base, text = split_spec(spec)
    try:
        valid = engine_options(base)
        if text:
            parse_options(text, valid, spec)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return spec


def judge_spec(spec: str) -> str:
    """argparse type of `--judge`: an engine spec whose options may also be the judge's own keys."""
    from atf.judge.judge import parse_judge_spec

    try:
        engine, _ = parse_judge_spec(spec)
        engine_spec(engine)
    except (ValueError, argparse.ArgumentTypeError) as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return spec


def add_engine(p: Any, flag: str, help: str, default: str | None = None) -> None:
    from atf.llm import ENGINE_SPECS

    shown = " (default %(default)s)" if default else ""
    p.add_argument(flag, type=engine_spec, default=default, metavar="SPEC", help=f"{help}: {ENGINE_SPECS}{shown}")


def add_judges(p: Any, help: str) -> None:
    """`--judge SPEC`, repeatable (action="append"): one flag per judge, so a positional after it is never eaten."""
    p.add_argument("--judge", action="append", dest="judges", type=judge_spec, metavar="SPEC", help=help)
