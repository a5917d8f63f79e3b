"""Tests that run the stand-in REPL under the default sandbox need a working bubblewrap. `.ci/run` installs it;
on a machine without it (a fresh clone where only the README's test command was run) these tests are skipped
with the reason, instead of failing on a missing Debian package."""

import pytest

from atf.lean.sandbox import SandboxConfig, SandboxUnavailable, probe


def sandbox_problem() -> str | None:
    """Why the default sandbox cannot run here, or None when it can."""
    try:
        probe(SandboxConfig())
    except SandboxUnavailable as err:
        return str(err)
    return None


needs_bwrap = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no usable sandbox here: {sandbox_problem()}")
