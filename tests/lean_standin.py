#!/usr/bin/env python3
"""A protocol stand-in for `lake exe repl` (a test double, not a Lean).

It speaks the REPL's framing exactly (a request is the lines up to a blank line, each right-trimmed
and concatenated; each answer is one multi-line JSON object followed by a blank line) and has two modes.

--replay IN OUT   serve a recorded transcript: answer the k-th request with the k-th recorded answer,
                  verbatim, after checking that the request equals the recorded one (repeatable:
                  several transcripts are served in sequence).
(default)         a toy elaborator with deterministic behaviour, so that batching, error attribution,
                  bisection, timeouts, crashes and memory limits can be tested end to end:
  - `import M` lines (only without "env") load a header, taking --import-delay seconds; a module whose
    name starts with `Nonexistent` fails to load;
  - each command costs --cmd-delay seconds and each declaration --decl-delay seconds;
  - `theorem`/`lemma`/`example`/`def`/`abbrev` declarations: a `sorry` gives the warning
    "declaration uses `sorry`" at the name and a `sorries` entry; the identifier STANDIN_ERROR gives
    "Unknown identifier `STANDIN_ERROR`" at its position; redeclaring a name in the same environment
    gives "'X' has already been declared"; unbalanced parentheses give a parse error;
  - STANDIN_SWALLOW acts like an unterminated comment: nothing after it is elaborated, and the error is
    reported at the end of the input (as Lean does);
  - STANDIN_STRAY adds an error at the end of the input without swallowing anything;
  - STANDIN_SLOW sleeps --slow-s seconds, STANDIN_CRASH exits abruptly (code 134), STANDIN_OOM
    allocates --oom-mb MB and waits;
  - `#check Nat` answers "Nat : Type"; `namespace`/`section`/`end` are checked for matching names;
    `open X` fails for X containing `Unknown`;
  - unknown "env" ids answer {"message": "Unknown environment."}, like the real REPL;
  - `#print "text"` answers the info message `text` (Lean 4's `#print` of a string literal);
    `#check X` / `#check @_root_.X` answer "X : ..." when X resolves, else "unknown identifier";
  - namespaces and name resolution, as Lean 4 does them (Lean.ResolveName.resolveGlobalName,
    Lean.Elab.mkDeclName): a declaration `n` inside `namespace A` is `A.n`; an identifier `x` used
    inside namespace `A.B` with namespaces `O` opened resolves to the first existing of `A.B.x`, `A.x`,
    `x`, `O.x`; `_root_.x` is `x`; `protected` at the root is "protected declarations must be in a
    namespace"; generalized field notation `n.f` with `(n : ℕ)` needs exactly `Nat.f` ("invalid field
    'f', the environment does not contain 'Nat.f'"), whatever namespace it is used in. `end` pops its
    scope before it checks the name (Lean's `elabEnd`), and `open` lasts until the end of its scope.
    Which identifiers are resolved: qualified names whose first component is not a bound variable
    nor one of MATHLIB_OPAQUE (namespaces whose contents are not modelled), and short names that are
    the last component of a modelled Mathlib name (MATHLIB_NAMES, loaded by `import Mathlib...`);
    other identifiers are taken as bound variables;
  - `mutual` is one command up to the next `end` (Lean's `mutual ... end` parser): a `mutual` that the
    statement leaves open consumes the next `end`, and any name after that `end` is a parse error.
Faults of the channel, triggered by a marker anywhere in a request's text (for the driver's tests):
  STANDIN_STDERR_ANSWER writes JSON that looks like answers on stderr first; STANDIN_DOUBLE answers
  twice (STANDIN_DOUBLE_LATE: the copy 0.3 s later); STANDIN_MISSING never answers;
  STANDIN_MALFORMED answers with a JSON object cut short; STANDIN_UNKNOWN_SHAPE answers {"result": ...}.
--hostile   executes payloads named in a declaration, as Lean would run an `#eval` that slipped past
  the pre-check: its output is an info message, an IO error an error message ("uncaught exception"),
  and running out of memory aborts the process ("INTERNAL PANIC: out of memory", exit 134):
  STANDIN_READ_SECRET (--secret-path), STANDIN_WRITE_OUTSIDE (--write-path), STANDIN_CONNECT
  (127.0.0.1:--connect-port), STANDIN_ALLOC (--alloc-mb), STANDIN_FORK (--fork-n processes).
--log FILE appends every request received (one JSON per line), so tests can see what was sent.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

DECL = re.compile(
    r"^(?:@\[[^\]]*\]\s*)*(?:(?:noncomputable|private|protected|partial)\s+)*(theorem|lemma|example|def|abbrev)\b"
)


def read_request(stdin) -> str | None:
    lines: list[str] = []
    while True:
        line = stdin.readline()
        if line == "":
            return "".join(lines) if lines else None
        if not line.strip():
            if lines:
                return "".join(lines)
            continue
        lines.append(line.rstrip())


def emit(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=1) + "\n\n")
    sys.stdout.flush()


def chunks(text: str) -> list[list[str]]:
    out, cur = [], []
    for line in text.split("\n"):
        if line.strip():
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def replay(pairs: list[list[str]], log) -> None:
    """Serve the transcripts one after the other, as if they were one long session."""
    recorded: list[dict] = []
    answers: list[str] = []
    for in_path, out_path in pairs:
        with open(in_path, encoding="utf-8") as f:
            recorded += [json.loads("".join(line.rstrip() for line in c)) for c in chunks(f.read())]
        with open(out_path, encoding="utf-8") as f:
            answers += ["\n".join(c) for c in chunks(f.read())]
    k = 0
    while (query := read_request(sys.stdin)) is not None:
        request = json.loads(query)
        if log:
            log.write(json.dumps(request, ensure_ascii=False) + "\n")
            log.flush()
        if k >= len(answers):
            emit({"message": "stand-in replay: no more recorded answers"})
        elif request != recorded[k]:
            emit({"message": f"stand-in replay: request {k} differs from the transcript"})
        else:
            sys.stdout.write(answers[k] + "\n\n")
            sys.stdout.flush()
        k += 1


# --- the toy elaborator ----------------------------------------------------------------------------


def comment_mask(text: str) -> tuple[str, int | None]:
    """Text with comments blanked (newlines kept) and the offset where an unterminated comment starts."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/-", i):
            depth, j = 0, i
            while j < n:
                if text.startswith("/-", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("-/", j):
                    depth, j = depth - 1, j + 2
                    if depth == 0:
                        break
                else:
                    j += 1
            if depth:
                return "".join(out[:i]), i
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        else:
            i += 1
    return "".join(out), None


def pos_of(text: str, offset: int) -> dict:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1)
    return {"line": line, "column": col}


# A few real Mathlib / core names, modelled exactly (clashes, resolution, dot notation).
MATHLIB_NAMES = {
    "add_comm",
    "mul_comm",
    "two_mul",
    "add_zero",
    "Nat.add_comm",
    "Nat.succ_le_iff",
    "Nat.succ",
    "Nat.pred",
    "Nat.factorial",
    "Nat.gcd",
    "Nat.lcm",
    "Nat.digits",
    "Nat.divisors",
    "Nat.Prime",
    "Nat.sqrt",
    "Nat.choose",
    "Nat.totient",
    "Nat.ModEq",
    "Real.sqrt",
    "Real.pi",
    "Real.log",
    "Real.exp",
    "Real.sin",
    "Real.cos",
}
# Namespaces whose contents are not modelled: any name in them resolves.
MATHLIB_OPAQUE = {
    "Nat",
    "Int",
    "Real",
    "Complex",
    "Rat",
    "Finset",
    "Set",
    "Polynomial",
    "Function",
    "List",
    "Multiset",
    "Fin",
    "ZMod",
    "Matrix",
    "EuclideanGeometry",
    "Filter",
    "MeasureTheory",
    "Topology",
    "BigOperators",
    "Mathlib",
    "IsLeast",
    "IsGreatest",
    "Even",
    "Odd",
    "Prime",
    "Irrational",
    "Classical",
    "Equiv",
    "Fintype",
    "Finite",
    "NNReal",
    "ENNReal",
    "Metric",
    "deriv",
    "Icc",
    "Ioo",
    "abs",
    "Int.floor",
    "Nat.floor",
}
_IDENT = re.compile(r"(?<![\w.'`])@?([^\W\d][\w'!?]*(?:\.[^\W\d][\w'!?]*)*)")
_BINDER = re.compile(r"[(\[{⦃]\s*([^:()\[\]{}⦃⦄]+?)\s*:\s*([^()\[\]{}:]*)")
_QUANT = re.compile(r"(?:∀|∃|∃!|fun|λ|∑|∏)\s*([^,:=]+?)\s*(?:,|:|=>|∈|\bin\b)")
_KEYWORDS = {
    "by",
    "sorry",
    "fun",
    "let",
    "have",
    "show",
    "from",
    "if",
    "then",
    "else",
    "in",
    "at",
    "with",
    "do",
    "match",
    "Type",
    "Prop",
    "Sort",
    "True",
    "False",
    "theorem",
    "lemma",
    "def",
    "abbrev",
    "example",
    "noncomputable",
    "private",
    "protected",
    "partial",
    "open",
    "where",
    "calc",
}


class Elaborator:
    def __init__(self, args):
        self.args = args
        self.envs: list[dict] = []

    def new_env(self, base: dict | None, names: set[str], imports: tuple[str, ...]) -> int:
        self.envs.append({"names": (base["names"] if base else set()) | names, "imports": imports})
        return len(self.envs) - 1

    def run(self, request: dict) -> dict:
        env_id = request.get("env")
        if env_id is not None and not (0 <= env_id < len(self.envs)):
            return {"message": "Unknown environment."}
        if "cmd" in request:
            text = request["cmd"]
        elif "path" in request:
            try:
                with open(request["path"], encoding="utf-8") as f:
                    text = f.read()
            except OSError as err:
                return {"message": str(err)}
        elif "tactic" in request:
            return {"message": "Lean error:\nthe stand-in does not run tactics"}
        else:
            return {"message": "the stand-in does not pickle"}
        time.sleep(self.args.cmd_delay)
        base = self.envs[env_id] if env_id is not None else None
        return self.elaborate(text, base)

    def elaborate(self, text: str, base: dict | None) -> dict:
        messages: list[dict] = []
        sorries: list[dict] = []

        def msg(severity, start, end, data):
            messages.append(
                {"severity": severity, "pos": pos_of(text, start), "endPos": pos_of(text, end), "data": data}
            )

        masked, swallow_at = comment_mask(text)
        marker = masked.find("STANDIN_SWALLOW")
        if marker >= 0 and (swallow_at is None or marker < swallow_at):
            swallow_at = marker
            masked = masked[:marker]
        names: set[str] = set(base["names"]) if base else set()
        imports: list[str] = list(base["imports"]) if base else []
        # scope frames: (kind, name, opens made in it); the root frame never closes
        self.scopes: list[tuple[str, str, list[str]]] = [("root", "", [])]
        lines = masked.split("\n")
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line) + 1)
        starts = [i for i, line in enumerate(lines) if line and not line[0].isspace()]
        new_imports = []
        seen_command = False
        idx = 0
        while idx < len(starts):
            i = starts[idx]
            end_line = starts[idx + 1] if idx + 1 < len(starts) else len(lines)
            start = offsets[i]
            end = min(offsets[end_line] - 1, len(masked))
            chunk = masked[start:end]
            head = lines[i]
            idx += 1
            if head.startswith("import "):
                if base is not None or seen_command:
                    msg(
                        "error",
                        start,
                        start + len(head),
                        "invalid 'import' command, it must be used in the beginning of the file",
                    )
                    continue
                module = head.split()[1]
                if module.startswith("Nonexistent"):
                    msg("error", start, start + len(head), f"unknown module prefix '{module.split('.')[0]}'")
                new_imports.append(module)
                imports.append(module)
                continue
            if not seen_command and new_imports:
                time.sleep(self.args.import_delay)
            seen_command = True
            if head.split()[0] == "mutual":
                # `mutual` declarations... `end`: one command; it takes the next `end`, whoever wrote it
                close = next((k for k in range(idx, len(starts)) if lines[starts[k]].split()[0] == "end"), None)
                stop = starts[close] if close is not None else len(lines)
                for k in range(idx, close if close is not None else len(starts)):
                    j = starts[k]
                    nxt = starts[k + 1] if k + 1 < len(starts) else len(lines)
                    self.command(
                        masked[offsets[j] : min(offsets[nxt] - 1, len(masked))],
                        offsets[j],
                        text,
                        names,
                        imports,
                        msg,
                        sorries,
                    )
                if close is None:
                    msg("error", len(text), len(text), "unexpected end of input; expected 'end'")
                    break
                end_words = lines[stop].split()
                if len(end_words) > 1:
                    off = offsets[stop] + lines[stop].find(end_words[1])
                    msg("error", off, off + len(end_words[1]), "unexpected identifier; expected command")
                idx = close + 1
                continue
            self.command(chunk, start, text, names, imports, msg, sorries)
        if imports and not seen_command and new_imports:
            time.sleep(self.args.import_delay)
        if swallow_at is not None:
            msg("error", len(text), len(text), "unterminated comment")
        elif "STANDIN_STRAY" in masked:
            msg("error", len(text), len(text), "unexpected end of input (stand-in: STANDIN_STRAY)")
        out: dict = {}
        if sorries:
            out["sorries"] = sorries
        if messages:
            out["messages"] = messages
        out["env"] = self.new_env(base, names - (base["names"] if base else set()), tuple(imports))
        return out

    # -- names -----------------------------------------------------------------------------------------
    def namespace(self) -> str:
        return ".".join(n for k, n, _ in self.scopes if k == "namespace" and n)

    def opens(self) -> list[str]:
        return [o for _, _, frame in self.scopes for o in frame]

    def known(self, full: str, names: set[str], imports) -> bool:
        mathlib = any(m.startswith("Mathlib") for m in imports)
        return full in names or (mathlib and full in MATHLIB_NAMES)

    def resolves(self, ident: str, names: set[str], imports) -> bool:
        if ident.startswith("_root_."):
            return self.known(ident[len("_root_.") :], names, imports)
        ns = self.namespace().split(".") if self.namespace() else []
        candidates = [".".join(ns[:k] + [ident]) for k in range(len(ns), -1, -1)]
        candidates += [f"{o}.{ident}" for o in self.opens()]
        return any(self.known(c, names, imports) for c in candidates)

    def check_references(self, chunk, start, decl_end, names, imports, msg) -> bool:
        """Resolve the identifiers a declaration uses (see the module doc); True if one failed."""
        mathlib = any(m.startswith("Mathlib") for m in imports)
        short = {n.rsplit(".", 1)[-1] for n in MATHLIB_NAMES if "." in n} if mathlib else set()
        bound: dict[str, str] = {}
        for m in _BINDER.finditer(chunk):
            for v in m.group(1).split():
                bound[v] = m.group(2).strip()
        for m in _QUANT.finditer(chunk):
            for v in m.group(1).replace("(", " ").replace(")", " ").split():
                bound.setdefault(v, "")
        failed = False
        for m in _IDENT.finditer(chunk, decl_end):
            ident = m.group(1)
            first, _, rest = ident.partition(".")
            if ident in _KEYWORDS or first in _KEYWORDS or ident.startswith("STANDIN_"):
                continue
            off = start + m.start(1)
            if first in bound:
                if rest and bound[first] in ("ℕ", "Nat"):
                    field = rest.split(".")[0]
                    if not self.known(f"Nat.{field}", names, imports):
                        msg(
                            "error",
                            off,
                            off + len(ident),
                            f"invalid field '{field}', the environment does not contain 'Nat.{field}'",
                        )
                        failed = True
                continue
            if rest and (first in MATHLIB_OPAQUE and mathlib):
                continue
            if not rest and ident not in short:
                continue
            if not self.resolves(ident, names, imports):
                msg("error", off, off + len(ident), f"Unknown identifier `{ident}`")
                failed = True
        return failed

    # -- commands --------------------------------------------------------------------------------------
    def command(self, chunk, start, text, names, imports, msg, sorries) -> None:
        words = chunk.split()
        if words[:2] == ["noncomputable", "section"]:
            words = words[1:]
        head = words[0]
        if head == "#print":
            m = re.match(r'#print\s+"([^"]*)"', chunk.strip())
            if m:
                msg("info", start, start + 6, m.group(1))
            return
        if head == "#check":
            target = " ".join(words[1:])
            name = target.lstrip("@")
            if target == "Nat":
                msg("info", start, start + 6, "Nat : Type")
            elif re.fullmatch(r"[^\W\d][\w'.!?]*", name) and self.resolves(name, names, imports):
                msg("info", start, start + 6, f"{name.removeprefix('_root_.')} : Prop")
            else:
                msg("error", start + 7, start + len(chunk.rstrip()), f"Unknown identifier `{target}`")
        elif head in ("namespace", "section"):
            self.scopes.append((head, words[1] if len(words) > 1 else "", []))
        elif head == "end":
            name = words[1] if len(words) > 1 else ""
            if len(self.scopes) == 1:
                msg("error", start, start + len(chunk.rstrip()), "invalid 'end', insufficient scopes")
                return
            expected = self.scopes[-1][1]
            self.scopes.pop()  # Lean's elabEnd pops the scope first, then complains about the name
            if expected != name:
                msg(
                    "error",
                    start,
                    start + len(chunk.rstrip()),
                    f"invalid 'end', name mismatch (expected {expected or 'nothing'})",
                )
        elif head == "open":
            targets = words[1 : words.index("in")] if "in" in words else words[1:]
            for w in targets:
                if "Unknown" in w:
                    off = start + chunk.find(w)
                    msg("error", off, off + len(w), f"unknown namespace '{w}'")
            if "in" in words:
                rest_at = chunk.find(" in") + 3
                self.scopes.append(("in", "", targets))
                self.command(
                    chunk[rest_at:].lstrip(),
                    start + len(chunk[:rest_at]) + (len(chunk[rest_at:]) - len(chunk[rest_at:].lstrip())),
                    text,
                    names,
                    imports,
                    msg,
                    sorries,
                )
                self.scopes.pop()
            else:
                self.scopes[-1][2].extend(targets)
        elif DECL.match(chunk):
            self.declaration(chunk, start, text, names, imports, msg, sorries)

    def declaration(self, chunk, start, text, names, imports, msg, sorries) -> None:
        time.sleep(self.args.decl_delay)
        if "STANDIN_CRASH" in chunk:
            sys.stderr.write("INTERNAL PANIC: the stand-in was told to crash\n")
            sys.stderr.flush()
            os._exit(134)
        if "STANDIN_OOM" in chunk:
            hog = b"\x01" * (self.args.oom_mb * 1024 * 1024)
            time.sleep(60)
            del hog
        if "STANDIN_SLOW" in chunk:
            time.sleep(self.args.slow_s)
        m = DECL.match(chunk)
        kind = m.group(1)
        rest = chunk[m.end() :]
        name = None
        if kind != "example":
            nm = re.match(r"\s*([^\s(\[{:]+)", rest)
            name = nm.group(1) if nm else None
        had_error = False
        if self.args.hostile:
            had_error = payload(chunk, start, self.args, msg) or had_error
        if chunk.count("(") != chunk.count(")"):
            msg(
                "error",
                start + len(chunk.rstrip()),
                start + len(chunk.rstrip()),
                "unexpected end of input; expected ')'",
            )
            had_error = True
        for e in re.finditer(r"\bSTANDIN_ERROR\b", chunk):
            msg("error", start + e.start(), start + e.end(), "Unknown identifier `STANDIN_ERROR`")
            had_error = True
        name_off = start + m.end() + rest.find(name) if name else start + m.start(1)
        decl_end = m.end() + (rest.find(name) + len(name) if name else 0)
        if name:
            ns = self.namespace()
            if "protected" in chunk[: m.start(1)] and not ns and "." not in name:
                msg("error", name_off, name_off + len(name), "protected declarations must be in a namespace")
                had_error = True
            full = name[len("_root_.") :] if name.startswith("_root_.") else ".".join(filter(None, [ns, name]))
            if full in names or self.known(full, set(), imports):
                msg("error", name_off, name_off + len(name), f"'{full}' has already been declared")
                had_error = True
            names.add(full)
        had_error = self.check_references(chunk, start, decl_end, names, imports, msg) or had_error
        s = re.search(r"\bsorry\b", chunk)
        if s and not had_error:
            name_end = name_off + len(name) if name else start + m.end(1)
            msg("warning", name_off, name_end, "declaration uses `sorry`")
            goal = _conclusion(chunk)
            sorries.append(
                {
                    "proofState": len(sorries),
                    "pos": pos_of(text, start + s.start()),
                    "goal": f"⊢ {goal}",
                    "endPos": pos_of(text, start + s.end()),
                }
            )


def payload(chunk: str, start: int, args, msg) -> bool:
    """Run the hostile payloads named in a declaration; True when one failed (an error was reported)."""
    import socket

    failed = False
    at = start + chunk.find("STANDIN_")

    def report(what: str, action) -> None:
        nonlocal failed
        try:
            msg("info", at, at + 8, f"{what}: {action()}")
        except OSError as err:  # Lean's #eval: an IO error is "uncaught exception: <error>"
            msg("error", at, at + 8, f"uncaught exception: {what}: {err}")
            failed = True

    if "STANDIN_READ_SECRET" in chunk:
        report("read", lambda: Path(args.secret_path).read_text(encoding="utf-8"))
    if "STANDIN_WRITE_OUTSIDE" in chunk:
        report("write", lambda: Path(args.write_path).write_text("pwned", encoding="utf-8"))
    if "STANDIN_CONNECT" in chunk:
        report("connect", lambda: socket.create_connection(("127.0.0.1", args.connect_port), timeout=2).close())
    if "STANDIN_ALLOC" in chunk:
        try:
            hog = bytearray(args.alloc_mb * 1024 * 1024)
            msg("info", at, at + 8, f"allocated {len(hog) >> 20} MB")
            del hog
        except MemoryError:  # Lean's runtime aborts when an allocation fails
            sys.stderr.write("INTERNAL PANIC: out of memory\n")
            sys.stderr.flush()
            os._exit(134)
    if "STANDIN_FORK" in chunk:

        def fork_all() -> str:
            for _ in range(args.fork_n):
                if os.fork() == 0:
                    time.sleep(5)
                    os._exit(0)
            return f"forked {args.fork_n} processes"

        report("fork", fork_all)
    return failed


def _conclusion(chunk: str) -> str:
    depth = 0
    colon = None
    for i, c in enumerate(chunk):
        if c in "([{⟨":
            depth += 1
        elif c in ")]}⟩":
            depth -= 1
        elif c == ":" and depth == 0 and chunk[i + 1 : i + 2] != "=":
            colon = i
        elif c == ":" and depth == 0 and chunk[i + 1 : i + 2] == "=":
            return " ".join(chunk[(colon + 1 if colon is not None else 0) : i].split())
    return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--replay",
        nargs=2,
        metavar=("IN", "OUT"),
        action="append",
        help="a transcript to serve (repeat to serve several in sequence)",
    )
    ap.add_argument("--import-delay", type=float, default=0.0)
    ap.add_argument("--cmd-delay", type=float, default=0.0)
    ap.add_argument("--decl-delay", type=float, default=0.0)
    ap.add_argument("--slow-s", type=float, default=30.0)
    ap.add_argument("--oom-mb", type=int, default=300)
    ap.add_argument("--log")
    ap.add_argument("--hostile", action="store_true", help="execute payloads named in declarations")
    ap.add_argument("--secret-path", default="/nonexistent")
    ap.add_argument("--write-path", default="/nonexistent/out")
    ap.add_argument("--connect-port", type=int, default=9)
    ap.add_argument("--alloc-mb", type=int, default=1024)
    ap.add_argument("--fork-n", type=int, default=200)
    args = ap.parse_args()
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    if args.replay:
        replay(args.replay, log)
        return 0
    elab = Elaborator(args)
    while (query := read_request(sys.stdin)) is not None:
        if query.startswith("#") or query.startswith("--"):
            continue
        try:
            request = json.loads(query)
        except json.JSONDecodeError as err:
            sys.stderr.write(f'uncaught exception: {{"message": "Could not parse JSON:\\n{err}"}}\n')
            return 1
        if log:
            log.write(json.dumps(request, ensure_ascii=False) + "\n")
            log.flush()
        answer_with_faults(elab, request)
    return 0


def answer_with_faults(elab: Elaborator, request: dict) -> None:
    text = str(request.get("cmd", ""))
    if "STANDIN_MISSING" in text:
        return
    if "STANDIN_STDERR_ANSWER" in text:
        fake = {"env": 10_000 + len(elab.envs)}
        sys.stderr.write(json.dumps(fake) + "\n\n" + json.dumps({"env": 0, "messages": []}, indent=1) + "\n\n")
        sys.stderr.flush()
    if "STANDIN_MALFORMED" in text:
        elab.run(request)
        sys.stdout.write('{"env": 1, "messages":\n [{"severity": "error",\n\n')
        sys.stdout.flush()
        return
    if "STANDIN_UNKNOWN_SHAPE" in text:
        elab.run(request)
        emit({"result": "the stand-in answers in a shape the REPL never uses"})
        return
    answer = elab.run(request)
    emit(answer)
    if "STANDIN_DOUBLE" in text:
        if "STANDIN_DOUBLE_LATE" in text:
            time.sleep(0.3)  # the copy arrives after the driver has sent its next request
        emit(answer)


if __name__ == "__main__":
    sys.exit(main())
