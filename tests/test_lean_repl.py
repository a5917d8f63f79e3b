"""The REPL driver (pipes) against the protocol stand-in (tests/lean_standin.py)."""

import json
import sys
from pathlib import Path

import pytest

from atf.lean.protocol import CommandResponse, ReplError
from atf.lean.repl import HeaderError, LeanRepl, LeanUnavailable, ReplFailure

STANDIN = str(Path(__file__).parent / "lean_standin.py")


def standin(*flags: str, **kwargs) -> LeanRepl:
    kwargs.setdefault("sandbox", "none")  # the driver itself; test_lean_sandbox.py runs it sandboxed
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


def test_text_that_cannot_be_an_answer_is_skipped():
    noisy = ["/bin/sh", "-c", f"echo 'warning: lake is building {{stuff}}'; echo; exec {sys.executable} {STANDIN}"]
    with LeanRepl(noisy, sandbox="none") as repl:
        resp = repl.command("def f := 1", None, timeout_s=10)
        assert isinstance(resp, CommandResponse) and resp.env == 0
        assert repl.stats.protocol_errors == 0


def test_a_missing_repl_binary_is_a_clear_error():
    with pytest.raises(LeanUnavailable, match="could not start the Lean REPL"):
        LeanRepl(["/nonexistent/lake", "exe", "repl"], sandbox="none").start()


# -- the channel cannot be spoofed (issue 9, item 3) ------------------------------------------------


def _ok(resp) -> bool:
    return isinstance(resp, CommandResponse) and not resp.errors


def test_stderr_that_looks_like_answers_is_never_read_as_one():
    with standin() as repl:
        env = repl.header_env(["Mathlib"], timeout_s=10)
        bad = repl.command("theorem a : STANDIN_ERROR = 1 := by sorry -- STANDIN_STDERR_ANSWER", env, timeout_s=10)
        good = repl.command("theorem b : 1 = 1 := by sorry", env, timeout_s=10)
    assert not _ok(bad) and bad.errors[0].data == "Unknown identifier `STANDIN_ERROR`"
    assert _ok(good) and good.env == bad.env + 1  # nothing shifted: each answer belongs to its request
    assert repl.stats.protocol_errors == 0 and repl.stats.starts == 1


def test_a_repeated_answer_is_never_taken_for_the_next_one():
    with standin() as repl:
        env = repl.header_env(["Mathlib"], timeout_s=10)
        first = repl.command("theorem a : 1 = 1 := by sorry -- STANDIN_DOUBLE", env, timeout_s=10)
        assert _ok(first)
        import time

        time.sleep(0.3)  # the duplicate is waiting in the pipe when the next request goes out
        with pytest.raises(ReplFailure) as err:
            repl.command("theorem b : STANDIN_ERROR = 1 := by sorry", env, timeout_s=10)
        assert err.value.kind == "protocol" and "nobody asked for" in str(err.value)
        assert not repl.alive and repl.stats.protocol_errors == 1


def test_a_repeated_answer_that_arrives_late_is_caught_by_its_env_id():
    with standin() as repl:
        env = repl.header_env(["Mathlib"], timeout_s=10)
        assert _ok(repl.command("theorem a : 1 = 1 := by sorry -- STANDIN_DOUBLE_LATE", env, timeout_s=10))
        with pytest.raises(ReplFailure, match="not newer than env 1") as err:
            repl.command("theorem b : STANDIN_ERROR = 1 := by sorry", env, timeout_s=10)
        assert err.value.kind == "protocol" and not repl.alive


@pytest.mark.parametrize(
    "marker,kind,words",
    [
        ("STANDIN_MALFORMED", "protocol", "malformed answer"),
        ("STANDIN_UNKNOWN_SHAPE", "protocol", "unknown shape"),
        ("STANDIN_MISSING", "timeout", "did not answer within"),
    ],
)
def test_a_malformed_unknown_or_missing_answer_fails_that_request_only(marker, kind, words):
    with standin() as repl:
        env = repl.header_env(["Mathlib"], timeout_s=10)
        with pytest.raises(ReplFailure, match=words) as err:
            repl.command(f"theorem a : 1 = 1 := by sorry -- {marker}", env, timeout_s=1)
        assert err.value.kind == kind and not repl.alive
        env = repl.header_env(["Mathlib"], timeout_s=10)  # a fresh process serves the next request
        assert _ok(repl.command("theorem b : 1 = 1 := by sorry", env, timeout_s=10))


def test_stderr_is_kept_apart_and_shown_with_a_crash():
    with standin() as repl:
        env = repl.header_env(["Mathlib"], timeout_s=10)
        with pytest.raises(ReplFailure) as err:
            repl.command("theorem t : STANDIN_CRASH = 1 := by sorry -- STANDIN_STDERR_ANSWER", env, timeout_s=10)
    assert err.value.kind == "crash" and "INTERNAL PANIC" in err.value.output_tail
    assert '"env": 10001' in err.value.output_tail  # the fake answer went to the log, not to the parser
