"""Run the Lean REPL inside a bubblewrap sandbox, with resource limits.

The pre-check is a filter, and no token filter is complete: Lean can run code while it elaborates. So
every REPL process runs in `bwrap` (Debian package `bubblewrap`) with

- new network, pid, ipc, uts and cgroup namespaces (no network at all, not even the host's loopback);
- read-only binds of the system directories, the toolchain and the Lean project, nothing else of
  the host's file system (no home directory, no HOME, a private size-capped /tmp);
- no new privileges, no capabilities, a new session (no terminal injection), killed with its parent;
- rlimits (set by `prlimit` on itself before it execs bwrap, so they are inherited): address space
  (default: the .olean files the REPL can map plus 8 GiB), CPU seconds over the process's life, file size,
  no core files, and a process count. RLIMIT_NPROC counts the processes of the *real uid* and never binds
  root, so when we run as root the REPL is switched (inside the sandbox, by `setpriv`) to an
  unprivileged uid of its own: a fork bomb then stops at `max_processes`, and the pid namespace dies
  with the REPL. As a non-root user bwrap maps our own uid in a user namespace and the limit is our
  current process count plus `max_processes`.

`SandboxConfig(mode="none")` runs the REPL directly (rlimits and no-new-privileges still apply); it is
only ever used when asked for explicitly (`--sandbox none`).
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

SANDBOX_MODES = ("bwrap", "none")
# Read-only system directories the toolchain needs (dynamic loader, libc, coreutils for lake).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/nsswitch.conf",
)


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot create its namespaces here."""


@dataclass(frozen=True)
class SandboxConfig:
    """How each REPL process is confined.

    mode: "bwrap" (default) or "none" (no sandbox: only when asked for explicitly).
    address_space_mb: RLIMIT_AS per REPL process; 0: no limit; None (default): sized from what the REPL can
        import, the .olean files under its working directory (the project and its packages) and its
        toolchain, plus `heap_mb`. Lean mmaps every imported .olean file (leanprover/lean4#587) and that
        counts against RLIMIT_AS: `import Mathlib` maps several GB before Lean does any work, so a fixed cap
        fits one Mathlib version and fails the import of a bigger one.
    heap_mb: with the automatic cap, the address space left for Lean's own work on top of its libraries.
    cpu_s: RLIMIT_CPU, CPU seconds over a REPL process's life (a backstop behind the per-request
        wall-clock timeout; the REPL is restarted when it dies of it).
    max_processes: processes the REPL may have at once (RLIMIT_NPROC, see the module doc).
    file_size_mb: RLIMIT_FSIZE, largest file the REPL may write (e.g. in its private /tmp).
    tmp_size_mb: size of the private /tmp (a tmpfs, so it is memory).
    ro_binds: extra host paths made visible read-only (the REPL command's own paths, its working
        directory and the elan home are bound already).
    uid_base: when running as root, REPL processes run as uids uid_base .. uid_base+999, one per process.
    """

    mode: str = "bwrap"
    address_space_mb: int | None = None
    heap_mb: int = 8192
    cpu_s: int | None = 3600
    max_processes: int = 64
    file_size_mb: int = 256
    tmp_size_mb: int = 256
    ro_binds: tuple[str, ...] = field(default_factory=tuple)
    uid_base: int = 61000

    def __post_init__(self) -> None:
        if self.mode not in SANDBOX_MODES:
            raise ValueError(f"sandbox mode must be one of {', '.join(SANDBOX_MODES)}, got {self.mode!r}")
        if self.address_space_mb is not None and self.address_space_mb < 0:
            raise ValueError(f"address_space_mb must be >= 0 (0: no limit), got {self.address_space_mb}")

    @classmethod
    def parse(cls, value: SandboxConfig | str | None) -> SandboxConfig:
        """A config from a config object, a mode name ("bwrap" / "none"), or None (the default)."""
        if value is None:
            return cls()
        if isinstance(value, SandboxConfig):
            return value
        return cls(mode=str(value))


_uids = itertools.count()
_uid_lock = threading.Lock()


def _next_uid(base: int) -> int:
    with _uid_lock:
        return base + next(_uids) % 1000


@dataclass
class Launch:
    """What to hand to subprocess.Popen (with start_new_session=True): the argv, environment and cwd."""

    argv: list[str]
    env: dict[str, str]
    cwd: str | None


def build_launch(command: Sequence[str], cwd: str | None, env: dict[str, str] | None, config: SandboxConfig) -> Launch:
    """The sandboxed command line for `command` run in `cwd` (raises SandboxUnavailable)."""
    argv = list(command)
    exe = shutil.which(argv[0]) if not os.path.isabs(argv[0]) else argv[0]
    if not exe or not os.access(exe, os.X_OK) or os.path.isdir(exe):
        raise FileNotFoundError(f"no executable {argv[0]!r}")
    argv[0] = exe
    base = cwd or os.getcwd()  # where the REPL would resolve a relative path: made absolute, so it can be bound
    argv[1:] = [
        os.path.join(base, a) if not os.path.isabs(a) and "/" in a and os.path.exists(os.path.join(base, a)) else a
        for a in argv[1:]
    ]
    setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
    binds = _bind_paths(argv, cwd, env, config)
    address_space_mb = config.address_space_mb
    if address_space_mb is None:
        address_space_mb = library_mb(tuple(binds)) + config.heap_mb
    if config.mode == "none":
        return Launch(
            [*_limits_prefix(config, None, address_space_mb), setpriv, "--no-new-privs", "--", *argv],
            dict(env) if env is not None else dict(os.environ),
            cwd,
        )
    bwrap = require_bwrap()
    root = os.geteuid() == 0
    uid = _next_uid(config.uid_base) if root else None
    inner_env = _inner_env(binds, env)
    args = [
        *_limits_prefix(config, uid, address_space_mb),
        bwrap,
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
    ]
    if not root:
        args += ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            args += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            args += ["--ro-bind", d, d]
    for f in SYSTEM_FILES:
        if os.path.exists(f):
            args += ["--ro-bind", f, f]
    # the private /tmp first: binds below it (a project or toolchain kept under /tmp) are mounted on top
    args += ["--proc", "/proc", "--dev", "/dev", "--size", str(config.tmp_size_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    made: set[str] = {"/", "/tmp", "/proc", "/dev", *SYSTEM_DIRS}
    for path in binds:
        for parent in reversed(Path(path).parents):
            p = str(parent)
            if p not in made:  # parents bwrap creates are 0700 by default: an unprivileged uid could not pass
                args += ["--perms", "0755", "--dir", p]
                made.add(p)
        args += ["--ro-bind", path, path]
        made.add(path)
    args += ["--chdir", cwd or "/tmp"]
    for k, v in inner_env.items():
        args += ["--setenv", k, v]
    if root:
        args += [
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--",
            setpriv,
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--no-new-privs",
            "--inh-caps=-all",
            "--bounding-set=-all",
        ]
    else:
        args += ["--", setpriv, "--no-new-privs"]
    args += ["--", *argv]
    return Launch(args, dict(os.environ), None)


def _bind_paths(argv: list[str], cwd: str | None, env: dict[str, str] | None, config: SandboxConfig) -> list[str]:
    """Host paths the REPL needs: each absolute path in its command (for X/bin/prog, all of X: a
    toolchain or a Python installation), the real path behind it, its working directory, the elan home."""
    wanted: list[str] = []
    for a in argv:
        if not os.path.isabs(a) or not os.path.exists(a):
            continue
        for p in dict.fromkeys([a, os.path.realpath(a)]):
            path = Path(p)
            if path.is_file():
                path = path.parent.parent if path.parent.name == "bin" else path.parent
            wanted.append(str(path))
    if cwd:
        wanted.append(os.path.realpath(cwd))
    elan = (env or os.environ).get("ELAN_HOME") or str(Path.home() / ".elan")
    if any(w == elan or w.startswith(elan + os.sep) for w in wanted):
        wanted.append(elan)
    wanted += [os.path.realpath(p) for p in config.ro_binds]
    out: list[str] = []
    for w in sorted(set(wanted), key=len):
        if w in ("/", "/tmp") or any(w == o or w.startswith(o.rstrip("/") + "/") for o in out):
            continue
        if any(w == d or w.startswith(d + "/") for d in SYSTEM_DIRS):
            continue
        out.append(w)
    return out


def _inner_env(binds: list[str], env: dict[str, str] | None) -> dict[str, str]:
    """A minimal environment: no HOME, a PATH over the bound bin/ directories, the caller's additions."""
    paths = [str(Path(b) / "bin") for b in binds if (Path(b) / "bin").is_dir()]
    out = {"PATH": ":".join(paths + ["/usr/local/bin", "/usr/bin", "/bin"]), "LANG": "C.UTF-8"}
    elan = os.environ.get("ELAN_HOME") or str(Path.home() / ".elan")
    if elan in binds:
        out["ELAN_HOME"] = elan
    for k, v in (env or {}).items():
        if k != "HOME":
            out[k] = v
    return out


@functools.lru_cache(maxsize=64)
def library_mb(roots: tuple[str, ...]) -> int:
    """MB of compiled Lean modules (`X.olean`, and the `.olean.server` / `.olean.private` parts newer Lean
    writes) below `roots`, which a REPL may map when it imports them. Once per set of roots per process."""
    total = 0
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in filenames:
                if ".olean" in name:
                    try:
                        total += os.stat(os.path.join(dirpath, name)).st_size
                    except OSError:
                        continue
    return -(-total // (1024 * 1024))


def _limits_prefix(config: SandboxConfig, uid: int | None, address_space_mb: int) -> list[str]:
    """`prlimit` setting the rlimits on itself before it execs the rest (rlimits are inherited). A command
    prefix rather than a pre-exec hook: a hook runs between fork and exec, unsafe in a threaded server."""
    mb = 1024 * 1024
    args = [shutil.which("prlimit") or "/usr/bin/prlimit", "--core=0", f"--fsize={config.file_size_mb * mb}"]
    if address_space_mb:
        args.append(f"--as={address_space_mb * mb}")
    if config.cpu_s is not None:
        args.append(f"--cpu={config.cpu_s}")
    if uid is not None:
        args.append(f"--nproc={config.max_processes}")
    elif os.geteuid() != 0:
        args.append(f"--nproc={_own_processes() + config.max_processes}")
    return [*args, "--"]


def _own_processes() -> int:
    uid = os.getuid()
    n = 0
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if os.stat(f"/proc/{p}").st_uid == uid:
                    n += 1
            except OSError:
                continue
    return n


def require_bwrap() -> str:
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxUnavailable(
            "bubblewrap (`bwrap`) is not installed, and the Lean REPL only runs sandboxed: install it "
            "(`apt-get install -y bubblewrap`; tools/install_lean.sh does), or pass `--sandbox none` "
            "(SandboxConfig(mode='none')) to run Lean unconfined on trusted input only"
        )
    return path


@functools.lru_cache(maxsize=8)
def probe(config: SandboxConfig) -> None:
    """Start `true` in the sandbox once per config; raises SandboxUnavailable with bwrap's own words."""
    if config.mode == "none":
        return
    launch = build_launch(["/bin/true"], None, None, config)
    try:
        done = subprocess.run(
            launch.argv, env=launch.env, start_new_session=True, capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError) as err:
        raise SandboxUnavailable(f"could not run bubblewrap: {err}") from err
    if done.returncode != 0:
        said = " ".join(done.stderr.split())[:400]
        raise SandboxUnavailable(
            f"bubblewrap cannot create its sandbox here ({said or f'exit code {done.returncode}'}). User "
            "namespaces are probably restricted in this container or kernel (check "
            "/proc/sys/kernel/unprivileged_userns_clone, /proc/sys/user/max_user_namespaces, "
            "kernel.apparmor_restrict_unprivileged_userns, or the container's seccomp profile). Allow them, "
            "or pass `--sandbox none` to run Lean unconfined on trusted input only"
        )
