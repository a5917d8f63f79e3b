"""Errors an engine raises when only some requests of a batched call failed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class PartialBatchError(RuntimeError):
    """Some items of one batched call failed; the others' replies are kept.

    results[i]: item i's completions, or None when it failed. errors[i]: why item i failed, or None.
    Callers that know this error keep the good items; others see a plain RuntimeError for the batch.
    """

    def __init__(self, results: Sequence[Any], errors: Sequence[BaseException | None]):
        self.results = list(results)
        self.errors = list(errors)
        failed = [i for i, e in enumerate(self.errors) if e is not None]
        first = self.errors[failed[0]] if failed else None
        super().__init__(
            f"{len(failed)} of {len(self.errors)} requests failed (first: {type(first).__name__}: {first})"
        )
