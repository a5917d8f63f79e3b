"""Every REPL runs in a bubblewrap sandbox (issue 9, item 2), tested with the stand-in's hostile mode:
a statement that slipped past the pre-check executes a payload, as an `#eval` would in Lean."""

import os
import secrets
import socket
import sys
import threading
from pathlib import Path

import pytest

from atf.lean import SyntaxChecker
from atf.lean.repl import LeanUnavailable
from atf.lean.sandbox import SandboxConfig, build_launch
from tests.sandbox_support import needs_bwrap

STANDIN = str(Path(__file__).parent / "lean_standin.py")
H = "import Mathlib\n\n"


class Listener:
    """A loopback TCP listener that counts the connections it accepts."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()

    def close(self):
        self.sock.close()


@pytest.fixture
def targets(tmp_path):
    """A secret outside the project (in the home directory, and in the host's /tmp), a path to write
    outside the REPL's tmp, and a loopback listener."""
    token = secrets.token_hex(16)
    home_secret = Path.home() / f".atf-sandbox-test-{token[:8]}"
    home_secret.write_text(f"SECRET-{token}")
    tmp_secret = tmp_path / "secret.txt"
    tmp_secret.write_text(f"SECRET-{token}")
    listener = Listener()
    write_path = Path(STANDIN).parent / f"pwned-{token[:8]}"  # the stand-in's own directory: bound read-only
    yield {
        "token": token,
        "home_secret": home_secret,
        "tmp_secret": tmp_secret,
        "listener": listener,
        "write_path": write_path,
        "tmp_write": tmp_path / "pwned",
    }
    listener.close()
    home_secret.unlink(missing_ok=True)
    write_path.unlink(missing_ok=True)


def hostile(targets, secret: Path, write: Path, sandbox, **kwargs) -> SyntaxChecker:
    argv = [
        sys.executable,
        STANDIN,
        "--hostile",
        "--secret-path",
        str(secret),
        "--write-path",
        str(write),
        "--connect-port",
        str(targets["listener"].port),
        "--alloc-mb",
        "1024",
        "--fork-n",
        "300",
    ]
    return SyntaxChecker(argv, sandbox=sandbox, timeout_s=20, **kwargs)


PAYLOADS = ["STANDIN_READ_SECRET", "STANDIN_WRITE_OUTSIDE", "STANDIN_CONNECT", "STANDIN_ALLOC", "STANDIN_FORK"]


def _batch(payloads):
    stmts = []
    for k, p in enumerate(payloads):
        stmts.append(H + f"theorem clean{k} (x : ℕ) : x + {k} = {k} + x := by sorry")
        stmts.append(H + f"theorem evil{k} : {p} = 1 := by sorry")
    stmts.append(H + "theorem clean_last : (2 : ℕ) + 2 = 4 := by sorry")
    return stmts


@needs_bwrap
@pytest.mark.integration
def test_every_payload_is_contained_and_fails_only_its_statement(targets):
    config = SandboxConfig(address_space_mb=512, max_processes=32)
    for secret, write in [
        (targets["home_secret"], targets["write_path"]),
        (targets["tmp_secret"], targets["tmp_write"]),
    ]:
        stmts = _batch(PAYLOADS)
        with hostile(targets, secret, write, config) as c:
            results = c.check_many(stmts)
            stats = c.stats()
        clean = [r for s, r in zip(stmts, results) if "STANDIN_" not in s]
        evil = {p: r for p, r in zip(PAYLOADS, [r for s, r in zip(stmts, results) if "STANDIN_" in s])}
        assert all(r.ok and r.checked_by == "lean" for r in clean), [r.errors for r in clean]
        assert not any(r.ok for r in evil.values()), {p: r.errors for p, r in evil.items()}
        assert "uncaught exception: read" in evil["STANDIN_READ_SECRET"].errors[0]
        assert "uncaught exception: write" in evil["STANDIN_WRITE_OUTSIDE"].errors[0]
        assert "uncaught exception: connect" in evil["STANDIN_CONNECT"].errors[0]
        assert evil["STANDIN_ALLOC"].failure == "crash" and "out of memory" in evil["STANDIN_ALLOC"].feedback()
        assert "uncaught exception: fork" in evil["STANDIN_FORK"].errors[0]
        assert all(targets["token"] not in str(r.to_dict()) for r in results)
        assert not write.exists() and targets["listener"].accepted == 0
        assert stats.crashes >= 1  # the allocation killed a REPL; the statements after it got a fresh one


@pytest.mark.integration
def test_without_the_sandbox_the_same_payloads_do_act(targets):
    """The control: the payloads are live, so the test above proves containment, not a dud."""
    stmts = _batch(PAYLOADS[:3])
    with hostile(targets, targets["tmp_secret"], targets["tmp_write"], "none") as c:
        results = c.check_many(stmts)
    assert all(r.ok for r in results)
    assert targets["tmp_write"].read_text() == "pwned" and targets["listener"].accepted == 1


@needs_bwrap
def test_the_repl_runs_unprivileged_without_home_network_or_host_files(tmp_path):
    import json
    import subprocess

    script = (
        f"import json, os, socket; print(json.dumps([os.getuid(), os.environ.get('HOME'), "
        f"os.path.exists({str(tmp_path)!r}), [n for _, n in socket.if_nameindex()], "
        f"open('/proc/self/status').read().split('NoNewPrivs:')[1].split()[0], "
        f"os.access({sys.executable!r}, os.W_OK)]))"
    )
    launch = build_launch([sys.executable, "-c", script], None, None, SandboxConfig())
    done = subprocess.run(
        launch.argv, env=launch.env, start_new_session=True, capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 0, done.stderr
    uid, home, sees_host_tmp, interfaces, no_new_privs, can_write_toolchain = json.loads(done.stdout)
    assert uid != 0 and (os.geteuid() == 0 or uid == os.getuid())  # as root: an unprivileged uid of its own
    assert home is None and not sees_host_tmp and interfaces == ["lo"] and no_new_privs == "1"
    assert not can_write_toolchain


def test_the_address_space_cap_is_sized_from_the_libraries_lean_can_map(tmp_path):
    """Lean mmaps each imported .olean (leanprover/lean4#587), and RLIMIT_AS counts mappings: the default
    cap is the .olean bytes below the project and the toolchain plus heap_mb, so a bigger Mathlib still loads."""
    import resource
    import subprocess

    from atf.lean.sandbox import library_mb

    project = tmp_path / "project"
    for rel, mb in [
        (".lake/packages/mathlib/.lake/build/lib/lean/Mathlib.olean", 1500),
        (".lake/packages/mathlib/.lake/build/lib/lean/Mathlib/Data.olean.server", 300),
        (".lake/build/lib/lean/Proj.olean", 200),
        (".lake/build/lib/lean/Proj.ilean", 900),
    ]:
        f = project / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        with open(f, "wb") as out:
            out.truncate(mb * 1024 * 1024)  # sparse: sizes without the disk
    assert library_mb((str(project),)) == 2000  # .ilean files are not mapped
    script = "import resource; print(resource.getrlimit(resource.RLIMIT_AS)[0])"

    def cap(config):
        launch = build_launch([sys.executable, "-c", script], str(project), None, config)
        done = subprocess.run(
            launch.argv, env=launch.env, cwd=launch.cwd, capture_output=True, text=True, timeout=30, check=True
        )
        return int(done.stdout)

    venv = library_mb((str(Path(sys.executable).parent.parent),))  # the "toolchain" of this command
    assert cap(SandboxConfig(mode="none", heap_mb=1000)) == (2000 + venv + 1000) * 1024 * 1024
    assert cap(SandboxConfig(mode="none", address_space_mb=700)) == 700 * 1024 * 1024
    assert cap(SandboxConfig(mode="none", address_space_mb=0)) == resource.RLIM_INFINITY
    with pytest.raises(ValueError, match="address_space_mb must be >= 0"):
        SandboxConfig(address_space_mb=-1)


def test_the_sandbox_is_the_default_and_none_only_when_asked():
    assert SandboxConfig().mode == "bwrap" and SandboxConfig.parse(None).mode == "bwrap"
    assert SandboxConfig.parse("none").mode == "none"
    with pytest.raises(ValueError, match="sandbox mode must be one of"):
        SandboxConfig(mode="off")


def test_a_missing_bwrap_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(LeanUnavailable, match=r"bubblewrap \(`bwrap`\) is not installed.*--sandbox none"):
        SyntaxChecker([sys.executable, STANDIN], sandbox=SandboxConfig(tmp_size_mb=17))


def test_restricted_user_namespaces_are_detected_and_said(monkeypatch, tmp_path):
    fake = tmp_path / "bwrap"
    fake.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to create new namespace, likely because the kernel "
        "does not allow non-privileged user namespaces.' >&2\nexit 1\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    with pytest.raises(LeanUnavailable, match="User namespaces are probably restricted") as err:
        SyntaxChecker([sys.executable, STANDIN], sandbox=SandboxConfig(tmp_size_mb=18))
    assert "No permissions to create new namespace" in str(err.value)


@needs_bwrap
def test_memory_watch_and_relative_paths_work_through_the_sandbox(monkeypatch):
    from atf.lean import LeanRepl, ReplFailure

    monkeypatch.chdir(Path(STANDIN).parent.parent)
    with LeanRepl(
        [sys.executable, "tests/lean_standin.py", "--oom-mb", "200"], max_memory_mb=120, poll_interval_s=0.05
    ) as repl:
        env = repl.header_env(["Mathlib"], timeout_s=20)
        with pytest.raises(ReplFailure) as err:
            repl.command("theorem t : STANDIN_OOM = 1 := by sorry", env, timeout_s=20)
    assert err.value.kind == "memory" and repl.sandbox.mode == "bwrap" and repl.stats.memory_kills == 1
