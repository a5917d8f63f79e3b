"""Benchmark loaders: every benchmark as the same record (id, split, informal, formal statement with header).

    from atf.data.benchmarks import load_benchmark
    problems = load_benchmark("minif2f", split="valid")

`formal` is the complete Lean text a formalizer should produce for the problem: the header (imports,
`open`s, options), any definitions the theorem needs, then the theorem with `sorry` as its proof; the
natural-language doc comments the source files carry are removed (the informal text is its own field).
Splits are the ones the source has: miniF2F and ProofNet have `valid` and `test`; the others are
evaluation-only sets and come as `test`. Train on `valid`, report on `test`. Users' problem sets (files,
Hugging Face datasets; `load_problems`) are training data unless their rows or splits say otherwise.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from atf.paths import shared_data_dir


@dataclass(frozen=True)
class BenchmarkProblem:
    """One problem.

    id: unique within its benchmark: the source's theorem name, with `__2`, `__3`, ... appended to later
        problems that reuse a name (ProofNet has 19 names shared by different textbook exercises).
    benchmark: the loader's name (see BENCHMARKS).
    split: "valid" or "test".
    informal: the natural-language problem (with the answer to prove, where the source states one).
    formal: the reference Lean 4 statement with its header, ending in `sorry`.
    header: the import/open/option lines at the top of `formal`.
    """

    id: str
    benchmark: str
    split: str
    informal: str
    formal: str
    header: str

    def to_dict(self) -> dict:
        return asdict(self)


_DOC = re.compile(r"/--.*?-/\s*", re.DOTALL)
_HEADER_LINE = re.compile(r"^\s*(import|open|set_option|universe)\b")


def with_sorry(theorem: str) -> str:
    """End a statement in `:= by sorry` (sources end in `:=`, `:= by` or already carry a `sorry`)."""
    text = theorem.rstrip()
    if text.endswith("sorry"):
        return text
    if text.endswith(":= by"):
        return text + " sorry"
    if text.endswith(":="):
        return text + " by sorry"
    raise ValueError(f"statement does not end in ':=', ':= by' or 'sorry': ...{text[-40:]!r}")


def split_header(lean: str) -> tuple[str, str]:
    """(header, rest): the leading import/open/set_option lines and everything after them."""
    lines = lean.splitlines(keepends=True)
    i = 0
    while i < len(lines) and (not lines[i].strip() or _HEADER_LINE.match(lines[i])):
        i += 1
    return "".join(lines[:i]).strip() + "\n\n", "".join(lines[i:])


def _from_file(lean: str) -> tuple[str, str]:
    header, rest = split_header(_DOC.sub("", lean))
    return header, header + with_sorry(rest.strip())


def _doc_text(prefix: str) -> str:
    text = prefix.strip()
    text = text.removeprefix("/--").removesuffix("-/")
    return text.strip()


def _jsonl(path: Path) -> Iterator[dict]:
    from atf.jsonl import read_jsonl  # split on "\n" only; a bad line names the file and the line

    yield from read_jsonl(path)


def _deepseek(name: str, file: str) -> Callable[[Path], list[BenchmarkProblem]]:
    def load(root: Path) -> list[BenchmarkProblem]:
        out = []
        for r in _jsonl(root / file):
            header = r["header"].strip() + "\n\n"
            out.append(
                BenchmarkProblem(
                    r["name"],
                    name,
                    r["split"],
                    _doc_text(r["informal_prefix"]),
                    header + with_sorry(r["formal_statement"]),
                    header,
                )
            )
        return out

    return load


def _putnam(root: Path) -> list[BenchmarkProblem]:
    out = []
    for r in _jsonl(root / "putnambench/putnambench_lean4_joined.jsonl"):
        informal = r["informal_statement"].strip()
        solution = (r.get("informal_solution") or "").strip()
        if solution and solution != "None.":
            informal += "\n" + solution
        header, formal = _from_file(r["lean_file"])
        out.append(BenchmarkProblem(r["name"], "putnambench", "test", informal, formal, header))
    return out


def _combibench(root: Path) -> list[BenchmarkProblem]:
    out = []
    for r in _jsonl(root / "combibench/combibench.jsonl"):
        informal = r["natural_language"].strip()
        answer = (r.get("answer") or "").strip()
        # With an answer, the reference is the filled-in version: the informal text then states the answer.
        lean = r["lean_file_with_solution"] if answer else r["lean_file"]
        if answer:
            informal += f"\nProve that the answer is {answer}."
        header, formal = _from_file(lean)
        out.append(BenchmarkProblem(r["theorem_name"], "combibench", "test", informal, formal, header))
    return out


def _formalmath(root: Path) -> list[BenchmarkProblem]:
    out = []
    for r in _jsonl(root / "atf-benchmarks/formalmath-lite.jsonl"):
        others = r.get("others") or {}
        pid = others.get("theorem_names") or f"formalmath_{r['index_in_source_data']}"
        header, formal = _from_file(r["formal_statement"])
        out.append(BenchmarkProblem(pid, "formalmath-lite", "test", r["informal_statement"].strip(), formal, header))
    return out


def _proverbench(root: Path) -> list[BenchmarkProblem]:
    out = []
    for r in _jsonl(root / "proverbench/proverbench_atf230.jsonl"):
        informal = r["informal_statement"].strip().removeprefix("- ").strip()
        header, formal = _from_file(r["formal_statement"])
        out.append(BenchmarkProblem(r["others"]["name"], "proverbench", "test", informal, formal, header))
    return out


BENCHMARKS: dict[str, Callable[[Path], list[BenchmarkProblem]]] = {
    "minif2f": _deepseek("minif2f", "minif2f-deepseek/minif2f.jsonl"),
    "proofnet": _deepseek("proofnet", "proofnet-deepseek/proofnet.jsonl"),
    "putnambench": _putnam,
    "combibench": _combibench,
    "formalmath-lite": _formalmath,
    "proverbench": _proverbench,
}
SPLITS = {"minif2f": ("valid", "test"), "proofnet": ("valid", "test")}


def _unique_ids(problems: list[BenchmarkProblem]) -> list[BenchmarkProblem]:
    seen: dict[str, int] = {}
    out = []
    for p in problems:
        seen[p.id] = seen.get(p.id, 0) + 1
        out.append(p if seen[p.id] == 1 else BenchmarkProblem(f"{p.id}__{seen[p.id]}", *list(asdict(p).values())[1:]))
    return out


def splits_of(name: str) -> tuple[str, ...]:
    return SPLITS.get(name, ("test",))


def load_benchmark(name: str, split: str | None = None, root: Path | None = None) -> list[BenchmarkProblem]:
    """All problems of benchmark `name` (see BENCHMARKS), or one split of it."""
    if name not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {name!r}; choose from {', '.join(BENCHMARKS)}")
    if split is not None and split not in splits_of(name):
        raise ValueError(f"{name} has splits {', '.join(splits_of(name))}, not {split!r}")
    problems = _unique_ids(BENCHMARKS[name](root or shared_data_dir()))
    return [p for p in problems if split is None or p.split == split]


TRAIN_SPLIT = "train"
# The fields of a problem a row can fill, and the columns read for each when no mapping names one.
PROBLEM_FIELDS: dict[str, tuple[str, ...]] = {
    "informal": ("informal", "problem", "informal_statement", "natural_language", "question"),
    "id": ("id", "name", "problem_id"),
    "formal": ("formal", "formal_statement"),
    "split": ("split",),
}
FIELD_ALIASES = {"problem": "informal"}
_FILE_BUILDERS = {".parquet": "parquet", ".arrow": "arrow", ".csv": "csv"}


def training_split(source: str) -> str | None:
    """The split a source trains on: a benchmark's dev split (`valid`), users' data its `train` rows."""
    if source in BENCHMARKS:
        return "valid" if "valid" in splits_of(source) else None
    return TRAIN_SPLIT


def parse_field_mapping(pairs: Sequence[str]) -> dict[str, str]:
    """`["problem=informal_statement", "id=name"]` -> {"informal": "informal_statement", "id": "name"}."""
    out = {}
    for pair in pairs:
        key, sep, column = pair.partition("=")
        key = FIELD_ALIASES.get(key.strip(), key.strip())
        if not sep or not column.strip() or key not in PROBLEM_FIELDS:
            raise ValueError(
                f"bad field mapping {pair!r}: write FIELD=COLUMN with FIELD one of problem, {', '.join(PROBLEM_FIELDS)}"
            )
        out[key] = column.strip()
    return out


def _rows_of_file(path: Path) -> Iterator[tuple[dict, str | None]]:
    """(row, split of the container or None) from a local file or saved dataset."""
    suffix = path.suffix.lower()
    if path.is_file() and suffix in (".jsonl", ".json"):
        text = path.read_text(encoding="utf-8")
        if suffix == ".json" and text.lstrip().startswith("["):
            rows = json.loads(text)
            if not all(isinstance(r, dict) for r in rows):
                raise ValueError(f"{path}: a JSON file of problems must hold a list of objects")
            yield from ((r, None) for r in rows)
            return
        for i, line in enumerate(text.splitlines()):
            if line.strip():
                try:
                    yield json.loads(line), None
                except json.JSONDecodeError as err:
                    raise ValueError(f"{path}:{i + 1}: not valid JSON ({err.msg})") from None
        return
    import datasets

    if path.is_dir():
        loaded = (
            datasets.load_from_disk(str(path))
            if (path / "state.json").exists() or (path / "dataset_dict.json").exists()
            else datasets.load_dataset(str(path))
        )
    elif suffix in _FILE_BUILDERS:
        loaded = datasets.load_dataset(_FILE_BUILDERS[suffix], data_files=str(path), split=TRAIN_SPLIT)
    else:
        raise ValueError(
            f"{path}: unknown problem file type {suffix!r}; "
            "use .jsonl, .json, .parquet, .arrow, .csv or a dataset folder"
        )
    yield from _rows_of_dataset(loaded)


def _rows_of_dataset(loaded: Any) -> Iterator[tuple[dict, str | None]]:
    if hasattr(loaded, "items"):  # a DatasetDict: its split names are the problems' splits
        for split, ds in loaded.items():
            yield from ((r, split) for r in ds)
    else:
        yield from ((r, None) for r in loaded)


def _rows_of_hub(name: str) -> Iterator[tuple[dict, str | None]]:
    import datasets

    try:
        loaded = datasets.load_dataset(name)
    except Exception as err:  # offline, unknown id, gated: say what was tried
        raise FileNotFoundError(
            f"{name!r} is neither a benchmark ({', '.join(BENCHMARKS)}), nor a local file, nor a loadable Hugging Face "
            f"dataset ({type(err).__name__}: {str(err)[:200]}); hub ids need network access"
        ) from err
    yield from _rows_of_dataset(loaded)


def _column(row: dict, field: str, mapping: dict[str, str]) -> Any:
    if field in mapping:
        if mapping[field] not in row:
            raise KeyError(
                f"the field mapping reads {field} from column {mapping[field]!r}, "
                f"which the rows lack (columns: {', '.join(row)})"
            )
        return row[mapping[field]]
    return next((row[c] for c in PROBLEM_FIELDS[field] if row.get(c) not in (None, "")), None)


def load_problems(
    source: str, split: str | None = None, fields: dict[str, str] | None = None
) -> list[BenchmarkProblem]:
    """A benchmark by name, or users' problems: a local .jsonl / .json / .parquet / .arrow / .csv file, a saved
    dataset folder, or a Hugging Face hub id (needs network). `fields` maps problem fields to columns
    (see PROBLEM_FIELDS for what is read without one). Rows without a split are training data (`train`);
    a dataset's split names (e.g. the hub's `train` / `test`) are kept."""
    if source in BENCHMARKS:
        return load_benchmark(source, split)
    mapping = fields or {}
    path = Path(source)
    looks_local = path.suffix.lower() in (".jsonl", ".json", *_FILE_BUILDERS) or source.startswith(("/", ".", "~"))
    if not path.exists() and looks_local:
        raise FileNotFoundError(f"{source!r} is neither a benchmark ({', '.join(BENCHMARKS)}) nor a file")
    rows = _rows_of_file(path) if path.exists() else _rows_of_hub(source)
    name = path.stem if path.exists() else source.rstrip("/").split("/")[-1]
    out = []
    for i, (r, container_split) in enumerate(rows):
        informal = _column(r, "informal", mapping)
        if not isinstance(informal, str) or not informal.strip():
            wanted = mapping.get("informal") or "' or '".join(PROBLEM_FIELDS["informal"][:2])
            raise ValueError(
                f"{source} row {i + 1}: needs an '{wanted}' field with the problem text "
                "(map another column with --field problem=COLUMN)"
            )
        formal = _column(r, "formal", mapping) or ""
        pid = _column(r, "id", mapping)
        row_split = _column(r, "split", mapping) or container_split or TRAIN_SPLIT
        out.append(
            BenchmarkProblem(
                str(i if pid is None else pid),
                name,
                str(row_split),
                informal.strip(),
                formal,
                split_header(formal)[0] if formal else "",
            )
        )
    return [p for p in _unique_ids(out) if split is None or p.split == split]
