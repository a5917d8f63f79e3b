"""Engine specs: `<engine>[::key=value,key=value]`, the one string every engine flag takes.

`--engine`, `--judge`, `--informalizer` and `--teacher` all read this form. The options part starts at the
first `::` outside square brackets, so an IPv6 host (`openai:http://[::1]:8000/v1#m`) is never taken for
options. Values are typed by the key's declared
type (int, float, bool, str); an unknown key is an error that lists the valid ones.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")


def split_spec(spec: str) -> tuple[str, str]:
    """(engine part, options text) of a spec; the options text is "" when there are none."""
    depth = 0
    for i, ch in enumerate(spec):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif depth == 0 and spec.startswith("::", i):
            return spec[:i], spec[i + 2 :]
    return spec, ""


def option_type(annotation: Any) -> type:
    """int, float, bool or str from a type hint (`int | None` -> int; anything else -> str)."""
    if isinstance(annotation, (types.UnionType,)) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        annotation = args[0] if len(args) == 1 else str
    return annotation if annotation in (int, float, bool, str) else str


def parse_value(key: str, raw: str, typ: type, spec: str) -> Any:
    raw = raw.strip()
    try:
        if typ is bool:
            if raw.lower() not in _TRUE + _FALSE:
                raise ValueError
            return raw.lower() in _TRUE
        return typ(raw)
    except ValueError:
        raise ValueError(f"option {key}={raw!r} in {spec!r} must be {typ.__name__}") from None


def parse_options(text: str, valid: Mapping[str, type], spec: str, what: str = "engine") -> dict[str, Any]:
    """Typed options from `key=value,...`; `valid` maps each allowed key to its type."""
    options: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, eq, raw = pair.partition("=")
        key = key.strip()
        if not eq:
            raise ValueError(f"{what} option {pair!r} is not key=value (in {spec!r})")
        if key not in valid:
            raise ValueError(f"unknown {what} option {key!r} in {spec!r}; valid: {', '.join(sorted(valid)) or 'none'}")
        options[key] = parse_value(key, raw, valid[key], spec)
    return options


def join_spec(engine: str, options: Mapping[str, Any]) -> str:
    """The spec text for `engine` with `options` (inverse of split + parse, for caching by spec)."""
    if not options:
        return engine
    text = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(options.items()))
    return f"{engine}::{text}"


def constructor_options(cls: type, skip: tuple[str, ...] = ()) -> dict[str, type]:
    """Keyword parameters of `cls.__init__` with their option types (the engine options a spec may set)."""
    import inspect

    hints = typing.get_type_hints(cls.__init__)
    out = {}
    for name, param in inspect.signature(cls.__init__).parameters.items():
        if name == "self" or name in skip or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        out[name] = option_type(hints.get(name, str))
    return out
