"""The README's test commands are what CI runs, and the default tier leaves the slow tiers out."""

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def readme_test_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"Run the tests.*?```bash\n(.*?)```", text, flags=re.S).group(1)
    return [line.strip() for line in block.split("\n") if line.strip()]


def test_ci_runs_the_readme_test_command_then_the_integration_tier():
    """The README shows one test command (the default tier); .ci/run runs exactly it, then the integration tier."""
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").split("\n")]
    commands = readme_test_commands()
    assert commands == [". .venv/bin/activate && python -m pytest"]
    default = ci.index(commands[0])
    tier = next(i for i, line in enumerate(ci) if line.startswith('python -m pytest -m "integration or slow"'))
    assert default < tier
    assert 'python -m pytest -m "integration or slow" -n 0' in (REPO / "README.md").read_text(encoding="utf-8")
    assert ci[tier].startswith('python -m pytest -m "integration or slow" -n 0 ')  # its servers and steps: one process


def test_default_tier_deselects_integration_and_slow():
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[tool.pytest.ini_options]", 1)[1].split("\n[", 1)[0]
    assert re.search(r"""addopts = ".*-m 'not slow and not integration'""", section)
    assert set(re.findall(r'^  "(\w+):', section, flags=re.M)) == {"slow", "integration"}


def test_ci_accepts_an_empty_tier_but_not_a_failing_one(tmp_path):
    """The tier line of .ci/run, with pytest replaced by a stub exiting 5 (no tests collected) or 1 (failed)."""
    line = next(x for x in (REPO / ".ci" / "run").read_text().split("\n") if "integration or slow" in x)
    stub = tmp_path / "python"
    for code, ok in ((5, True), (1, False), (0, True)):
        stub.write_text(f"#!/bin/sh\nexit {code}\n")
        stub.chmod(0o755)
        run = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", f"{line}\necho reached"],
            env={"PATH": f"{tmp_path}:/usr/bin:/bin"},
            capture_output=True,
            text=True,
        )
        assert ("reached" in run.stdout) == ok, (code, run.stdout, run.stderr)
