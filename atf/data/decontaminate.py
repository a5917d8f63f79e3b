"""Drop training problems that overlap a benchmark's test split (n-gram overlap on normalised informal text).

Normalisation: multiple-choice lists and layout commands (`\\textbf`, `\\qquad`, ...) removed, Unicode NFKC,
lower case, other LaTeX commands reduced to their names (`\\frac` -> `frac`), then the
runs of letters and of digits as words (punctuation, `$`, braces and operators dropped), so `$x+y=80$`
and `x + y = 80` read the same. A training problem is contaminated when at least THRESHOLD of the word
NGRAM-grams of the shorter of the two texts also occur in the other (containment, so a test problem
embedded in a longer training text, or a shortened copy of one, is caught). A text shorter than NGRAM words
counts as one gram of all its words. With NGRAM = 8 two unrelated problems almost never share a gram;
rewordings that keep half of the 8-word windows (changed numbers, a swapped sentence) are dropped.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from atf.data.benchmarks import BENCHMARKS, BenchmarkProblem, load_benchmark

NGRAM = 8
THRESHOLD = 0.5
_WORD = re.compile(r"[^\W\d_]+|\d+")
_LATEX = re.compile(r"\\([A-Za-z]+)")


# Multiple-choice lists ("$\textbf{(A)}\ 5 \qquad ... \textbf{(E)}\ 9$") and layout commands are shared by
# unrelated competition problems: they would make any two AMC problems look alike.
_CHOICES = re.compile(r"\(A\).*?\(E\)[^$\n]*", re.DOTALL)
_LAYOUT = {
    "textbf",
    "qquad",
    "quad",
    "text",
    "mathrm",
    "mathbf",
    "mathit",
    "left",
    "right",
    "displaystyle",
    "textit",
    "emph",
}


def words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", _CHOICES.sub(" ", text)).lower()
    text = _LATEX.sub(lambda m: " " if m.group(1) in _LAYOUT else f" {m.group(1)} ", text)
    return _WORD.findall(text)


def ngrams(text: str, n: int = NGRAM) -> set[tuple[str, ...]]:
    w = words(text)
    if len(w) < n:
        return {tuple(w)} if w else set()
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


@dataclass(frozen=True)
class Match:
    """The test problem a training problem overlaps, and the share of the shorter text's n-grams shared."""

    benchmark: str
    id: str
    overlap: float


class Decontaminator:
    """An index of test problems' n-grams; `match` finds the test problem a text overlaps most, if any."""

    def __init__(self, test_problems: Iterable[BenchmarkProblem], n: int = NGRAM, threshold: float = THRESHOLD):
        self.n, self.threshold = n, threshold
        self.keys: list[tuple[str, str]] = []
        self.sizes: list[int] = []
        self.index: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for p in test_problems:
            grams = ngrams(p.informal, n)
            if not grams:
                continue
            k = len(self.keys)
            self.keys.append((p.benchmark, p.id))
            self.sizes.append(len(grams))
            for g in grams:
                self.index[g].append(k)

    def match(self, text: str) -> Match | None:
        grams = ngrams(text, self.n)
        if not grams:
            return None
        shared: Counter = Counter(k for g in grams for k in self.index.get(g, ()))
        best = None
        for k, c in shared.items():
            overlap = c / min(len(grams), self.sizes[k])
            if overlap >= self.threshold and (best is None or overlap > best.overlap):
                best = Match(*self.keys[k], overlap)
        return best


def benchmark_test_splits(root: Path | None = None) -> list[BenchmarkProblem]:
    """Every benchmark's test split (the sets ATF reports on)."""
    return [p for name in BENCHMARKS for p in load_benchmark(name, "test", root)]


def decontaminate(
    problems: Sequence[BenchmarkProblem], against: Decontaminator | None = None, progress: bool = False
) -> tuple[list[BenchmarkProblem], list[tuple[BenchmarkProblem, Match]]]:
    """(kept, dropped with the test problem each one overlaps). Default: against every benchmark's test split."""
    from tqdm.auto import tqdm

    against = against or Decontaminator(benchmark_test_splits())
    kept, dropped = [], []
    for p in tqdm(problems, desc="decontaminate", unit="problem", disable=not progress):
        m = against.match(p.informal)
        if m is None:
            kept.append(p)
        else:
            dropped.append((p, m))
    return kept, dropped


def summary(n_in: int, dropped: Sequence[tuple[BenchmarkProblem, Match]], examples: int = 5) -> str:
    by = Counter(f"{p.benchmark}->{m.benchmark}" for p, m in dropped)
    lines = [
        f"decontamination ({NGRAM}-gram overlap >= {THRESHOLD:.0%} with a test problem): "
        f"dropped {len(dropped)} of {n_in}"
        + (" (" + ", ".join(f"{k} {v}" for k, v in sorted(by.items())) + ")" if by else "")
    ]
    lines += [f"  {p.benchmark}/{p.id} ~ {m.benchmark}/{m.id} ({m.overlap:.0%})" for p, m in dropped[:examples]]
    return "\n".join(lines)
