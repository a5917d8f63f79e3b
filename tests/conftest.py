import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("WANDB_MODE", "offline")

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def data_dir() -> Path:
    from atf.paths import shared_data_dir

    path = shared_data_dir()
    if not path.is_dir():
        pytest.skip("shared data not present")
    return path


@pytest.fixture(scope="session")
def tiny_engine():
    """A random 2-layer Llama with SmolLM2's real tokenizer and ATF's chat template."""
    from atf.llm import load_engine

    return load_engine("tiny")


@pytest.fixture(scope="session")
def smollm2_engine():
    from atf.llm import load_engine

    return load_engine("smollm2")


@pytest.fixture
def busy_core():
    """`with busy_core(n, core):` n processes that compute without end, pinned to that core, for the block (a
    real busy machine, where a thread pinned to the same core gets about 1/(n+1) of it)."""

    @contextlib.contextmanager
    def busy(n: int, core: int):
        procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
        try:
            for p in procs:
                os.sched_setaffinity(p.pid, {core})
            time.sleep(0.3)  # (their interpreters start)
            yield
        finally:
            for p in procs:
                p.kill()
                p.wait()

    return busy


@pytest.fixture
def elaborations(monkeypatch):
    """The calls of SymEq's `Elaborator.elab` (one element each) while the test runs: a statement's cost in
    readings, counted rather than timed."""
    from atf.symeq import elaborate

    calls: list[int] = []
    real = elaborate.Elaborator.elab
    monkeypatch.setattr(elaborate.Elaborator, "elab", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    return calls
