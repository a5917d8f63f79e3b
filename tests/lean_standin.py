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
  - unknown "env" ids answer {"message": "Unknown environment."}, like the real REPL.
--log FILE appends every request received (one JSON per line), so tests can see what was sent.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

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
            recorded += [json.loads("".join(l.rstrip() for l in c)) for c in chunks(f.read())]
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
            messages.append({"severity": severity, "pos": pos_of(text, start), "endPos": pos_of(text, end),
                             "data": data})

        masked, swallow_at = comment_mask(text)
        marker = masked.find("STANDIN_SWALLOW")
        if marker >= 0 and (swallow_at is None or marker < swallow_at):
            swallow_at = marker
            masked = masked[:marker]
        names: set[str] = set(base["names"]) if base else set()
        imports: list[str] = []
        scopes: list[tuple[str, str]] = []
        lines = masked.split("\n")
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line) + 1)
        starts = [i for i, line in enumerate(lines) if line and not line[0].isspace()]
        seen_command = False
        for idx, i in enumerate(starts):
            end_line = starts[idx + 1] if idx + 1 < len(starts) else len(lines)
            start = offsets[i]
            end = min(offsets[end_line] - 1, len(masked))
            chunk = masked[start:end]
            head = lines[i]
            if head.startswith("import "):
                if base is not None or seen_command:
                    msg("error", start, start + len(head),
                        "invalid 'import' command, it must be used in the beginning of the file")
                    continue
                module = head.split()[1]
                if module.startswith("Nonexistent"):
                    msg("error", start, start + len(head), f"unknown module prefix '{module.split('.')[0]}'")
                imports.append(module)
                continue
            if not seen_command and imports:
                time.sleep(self.args.import_delay)
            seen_command = True
            self.command(chunk, start, text, names, scopes, msg, sorries)
        if imports and not seen_command:
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
        out["env"] = self.new_env(base, names - (base["names"] if base else set()),
                                  tuple(imports) if base is None else base["imports"])
        return out

    def command(self, chunk, start, text, names, scopes, msg, sorries) -> None:
        words = chunk.split()
        if words[:2] == ["noncomputable", "section"]:
            words = words[1:]
        head = words[0]
        if head == "#check":
            if " ".join(words[1:]) == "Nat":
                msg("info", start, start + 6, "Nat : Type")
            else:
                msg("error", start + 7, start + len(chunk.rstrip()), f"Unknown identifier `{' '.join(words[1:])}`")
        elif head in ("namespace", "section"):
            scopes.append((head, words[1] if len(words) > 1 else ""))
        elif head == "end":
            name = words[1] if len(words) > 1 else ""
            if not scopes:
                msg("error", start, start + len(chunk.rstrip()), "invalid 'end', insufficient scopes")
            elif scopes[-1][1] != name:
                msg("error", start, start + len(chunk.rstrip()),
                    f"invalid 'end', name mismatch (expected {scopes[-1][1] or 'nothing'})")
                scopes.pop()
            else:
                scopes.pop()
        elif head == "open":
            for w in words[1:]:
                if "Unknown" in w:
                    off = start + chunk.find(w)
                    msg("error", off, off + len(w), f"unknown namespace '{w}'")
        elif DECL.match(chunk):
            self.declaration(chunk, start, text, names, scopes, msg, sorries)

    def declaration(self, chunk, start, text, names, scopes, msg, sorries) -> None:
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
        rest = chunk[m.end():]
        name = None
        if kind != "example":
            nm = re.match(r"\s*([^\s(\[{:]+)", rest)
            name = nm.group(1) if nm else None
        had_error = False
        if chunk.count("(") != chunk.count(")"):
            msg("error", start + len(chunk.rstrip()), start + len(chunk.rstrip()),
                "unexpected end of input; expected ')'")
            had_error = True
        for e in re.finditer(r"\bSTANDIN_ERROR\b", chunk):
            msg("error", start + e.start(), start + e.end(), "Unknown identifier `STANDIN_ERROR`")
            had_error = True
        if name:
            full = ".".join([s for k, s in scopes if k == "namespace" and s] + [name])
            if full in names:
                off = start + m.end() + rest.find(name)
                msg("error", off, off + len(name), f"'{full}' has already been declared")
                had_error = True
            names.add(full)
        s = re.search(r"\bsorry\b", chunk)
        if s and not had_error:
            if name:
                name_off = start + m.end() + rest.find(name)
                name_end = name_off + len(name)
            else:
                name_off, name_end = start + m.start(1), start + m.end(1)
            msg("warning", name_off, name_end, "declaration uses `sorry`")
            goal = _conclusion(chunk)
            sorries.append({"proofState": len(sorries), "pos": pos_of(text, start + s.start()),
                            "goal": f"⊢ {goal}", "endPos": pos_of(text, start + s.end())})


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
    ap.add_argument("--replay", nargs=2, metavar=("IN", "OUT"), action="append",
                    help="a transcript to serve (repeat to serve several in sequence)")
    ap.add_argument("--import-delay", type=float, default=0.0)
    ap.add_argument("--cmd-delay", type=float, default=0.0)
    ap.add_argument("--decl-delay", type=float, default=0.0)
    ap.add_argument("--slow-s", type=float, default=30.0)
    ap.add_argument("--oom-mb", type=int, default=300)
    ap.add_argument("--log")
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
        emit(elab.run(request))
    return 0


if __name__ == "__main__":
    sys.exit(main())
