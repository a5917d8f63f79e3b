"""The pexpect REPL driver against the protocol stand-in (tests/lean_standin.py)."""

import json
import sys
from pathlib import Path

import pytest

from atf.lean.protocol import CommandResponse, ReplError
from atf.lean.repl import HeaderError, LeanRepl, LeanUnavailable, ReplFailure, _decode_answer

STANDIN = str(Path(__file__).parent / "lean_standin.py")


def standin(*flags: str, **kwargs) -> LeanRepl:
    return LeanRepl([sys.executable, STANDIN, *flags], **kwargs)


def test_header_environment_is_loaded_once_and_reused(tmp_path):
    log = tmp_path / "sent.jsonl"
    with standin("--log", str(log)) as repl:
        env = repl.header_env(["Mathlib", "Aesop"], timeout_s=10)
        assert repl.header_env(["Mathlib", "Aesop"], timeout_s=10) == env
        a = repl.command("theorem a : 1 = 1 := by sorry", env, timeout_s=10)
        b = repl.command("theorem b : 2 = 2 := by sorry", env, timeout_s=10)
        assert isinstance(a, CommandResponse) and isinstance(b, CommandResponse)
        assert [m.data for m in a.messages] == ["declaration uses `sorry`"] and a.sorries[0].goal == "⊢ 1 = 1"
        assert repl.stats.header_loads == 1 and repl.stats.round_trips == 3 and repl.stats.starts == 1
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    assert sent[0] == {"cmd": "import Mathlib\nimport Aesop"}
    assert [r.get("env") for r in sent] == [None, env, env]


def test_a_header_that_does_not_load_raises_header_error():
    with standin() as repl, pytest.raises(HeaderError, match="unknown module prefix 'NonexistentLib'"):
        repl.header_env(["NonexistentLib.Foo"], timeout_s=10)


def test_unknown_environment_is_a_repl_error_not_a_failure():
    with standin() as repl:
        assert repl.command("def f := 1", env=42, timeout_s=10) == ReplError("Unknown environment.")
        assert repl.alive


def test_timeout_kills_the_process_and_the_next_request_restarts_it():
    with standin("--slow-s", "30") as repl:
        env = repl.header_env(["Mathlib"], timeout_s=10)
        pid = repl.pid
        with pytest.raises(ReplFailure) as err:
            repl.command("theorem t : STANDIN_SLOW = 1 := by sorry", env, timeout_s=0.5)
        assert err.value.kind == "timeout" and "0.5 s" in str(err.value)
        assert not repl.alive and repl.loaded_headers() == set()
        env2 = repl.header_env(["Mathlib"], timeout_s=10)  # a fresh process, header loaded again
        assert repl.pid != pid and repl.stats.starts == 2 and repl.stats.header_loads == 2
        assert isinstance(repl.command("theorem t : 1 = 1 := by sorry", env2, timeout_s=10), CommandResponse)


def test_crash_is_reported_with_the_output_tail():
    with standin() as repl:
        env = repl.header_env(["Mathlib"], timeout_s=10)
        with pytest.raises(ReplFailure) as err:
            repl.command("theorem t : STANDIN_CRASH = 1 := by sorry", env, timeout_s=10)
        assert err.value.kind == "crash" and "exit code 134" in str(err.value)
        assert "INTERNAL PANIC" in err.value.output_tail
        assert repl.stats.crashes == 1 and not repl.alive


def test_memory_limit_kills_the_process():
    with standin("--oom-mb", "200", max_memory_mb=120, poll_interval_s=0.05) as repl:
        env = repl.header_env(["Mathlib"], timeout_s=10)
        with pytest.raises(ReplFailure) as err:
            repl.command("theorem t : STANDIN_OOM = 1 := by sorry", env, timeout_s=20)
        assert err.value.kind == "memory" and "120 MB limit" in str(err.value)
        assert repl.stats.memory_kills == 1 and not repl.alive


def test_restart_after_max_requests():
    with standin(max_requests=2) as repl:
        for _ in range(5):
            assert isinstance(repl.command("def f := 1", None, timeout_s=10), CommandResponse)
        assert repl.stats.starts == 3


def test_noise_before_the_answer_is_skipped():
    noisy = ["/bin/sh", "-c", f"echo 'warning: lake is building {{stuff}}'; echo; exec {sys.executable} {STANDIN}"]
    with LeanRepl(noisy) as repl:
        resp = repl.command("def f := 1", None, timeout_s=10)
        assert isinstance(resp, CommandResponse) and resp.env == 0
    assert _decode_answer('lake: {not json\n{"env": 3}\n\n') == {"env": 3}
    assert _decode_answer('{"env": 3, "messages": [\n') is None


def test_a_missing_repl_binary_is_a_clear_error():
    with pytest.raises(LeanUnavailable, match="could not start the Lean REPL"):
        LeanRepl(["/nonexistent/lake", "exe", "repl"]).start()
