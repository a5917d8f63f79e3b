"""The one reader and writer of JSONL files, resumable outputs above all.

Lines are split on "\\n" only (never `str.splitlines()`, which also splits on U+2028 and friends that JSON
strings may hold raw). The writer appends one record per `write`, then flushes and fsyncs, so a crash
(power loss, disk full, SIGKILL) can only tear the last line. On resume, a last line without its newline
is that torn record: it is cut from the file with a warning naming the file and the line, and the caller
redoes it (it is not among the records returned). A bad line anywhere else is an error naming both.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

log = logging.getLogger(__name__)


def dumps(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False)


def parse_lines(data: bytes, name: str, skip_torn_tail: bool = False) -> Iterator[tuple[int, Any]]:
    """(line number, record) for every non-blank line of `data`, split on b"\n" only. With skip_torn_tail,
    a last line without its newline that does not parse is left out with a warning (a run still writing)."""
    lines = data.split(b"\n")
    for lineno, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            yield lineno, json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            if skip_torn_tail and lineno == len(lines):
                log.warning("%s:%d: skipping a last line cut short (%d bytes)", name, lineno, len(raw))
                return
            raise ValueError(f"{name}:{lineno}: not valid JSON ({err})") from None


def read_jsonl(path: str | Path, skip_torn_tail: bool = False) -> list[Any]:
    """Every record of a JSONL file (an input; never modified): a bad line is an error naming file and line,
    except, with skip_torn_tail, an unfinished last line (the output of a run that is still going)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    return [record for _, record in parse_lines(path.read_bytes(), str(path), skip_torn_tail)]


def read_text_jsonl(text: str, name: str) -> list[tuple[int, Any]]:
    """(line number, record) pairs of JSONL text already read (stdin); split on "\n" only."""
    return list(parse_lines(text.encode("utf-8"), name))


def cut_torn_tail(path: Path) -> int:
    """Drop a last line that lacks its newline (a write torn by a crash); returns the bytes kept."""
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return len(data)
    keep = data.rfind(b"\n") + 1
    lineno = data.count(b"\n", 0, keep) + 1
    log.warning(
        "%s:%d: the last record was cut short by a crash (%d bytes); dropped, it will be redone",
        path,
        lineno,
        len(data) - keep,
    )
    with path.open("r+b") as fh:
        fh.truncate(keep)
        fh.flush()
        os.fsync(fh.fileno())
    return keep


def resume_jsonl(path: str | Path) -> list[Any]:
    """The complete records of a resumable output (none when it does not exist yet), its torn tail cut."""
    path = Path(path)
    if not path.exists():
        return []
    cut_torn_tail(path)
    return [record for _, record in parse_lines(path.read_bytes(), str(path))]


class JsonlWriter:
    """Appends records to `path`: one write per record, then flush and fsync. Use as a context manager.

    path "-" writes to stdout (flushed per record, nothing to fsync)."""

    def __init__(self, path: str | Path, append: bool = True):
        self.path = path
        self.written = 0
        self._file: BinaryIO | None = None
        if str(path) != "-":
            p = Path(path)
            p.parent.mkdir(parents=True, exist_ok=True)
            if append and p.exists():
                cut_torn_tail(p)
            self._file = p.open("ab" if append else "wb")

    def write(self, record: Any) -> None:
        line = dumps(record) + "\n"
        if self._file is None:
            sys.stdout.write(line)
            sys.stdout.flush()
        else:
            self._file.write(line.encode("utf-8"))
            self._file.flush()
            os.fsync(self._file.fileno())
        self.written += 1

    def write_all(self, records: Iterable[Any]) -> int:
        for record in records:
            self.write(record)
        return self.written

    def close(self) -> None:
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def write_jsonl(path: str | Path, records: Iterable[Any], append: bool = False) -> int:
    """Write (or append) records; returns how many."""
    with JsonlWriter(path, append=append) as out:
        return out.write_all(records)
