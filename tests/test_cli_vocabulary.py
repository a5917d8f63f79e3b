"""One CLI vocabulary: every example in every --help and every command line in the README parses (parse
only, nothing runs); flags are spelled, typed and documented one way; each default is written once."""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import re
import shlex
import sys
from pathlib import Path

import pytest

from atf.cli import build_parser

REPO = Path(__file__).resolve().parent.parent
SCRIPT_DIRS = ("tools", "data_gen", "eval", "recipes")


class Parsed(Exception):
    """Raised in place of running a script once its arguments have parsed."""


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def load_script(path: Path):
    spec = importlib.util.spec_from_file_location(f"{path.parent.name}_{path.stem}_cli", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # as `python path` would: dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def parse_script(path: Path, argv: list[str], monkeypatch) -> None:
    """Run the script's own argument parsing (its argparse or TrlParser) and stop right after it."""
    original = argparse.ArgumentParser.parse_known_args

    def parse_then_stop(self, args=None, namespace=None):
        original(self, args, namespace)
        raise Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", parse_then_stop)
    mod = load_script(path)
    entry = mod.parse if path.parent.name == "recipes" else mod.main  # recipes: parse(argv); others: main(argv)
    with pytest.raises(Parsed):
        if inspect.signature(entry).parameters:
            entry(argv)
        else:  # main() reads sys.argv
            monkeypatch.setattr(sys, "argv", [str(path), *argv])
            entry()


def command_lines(text: str) -> list[str]:
    """Shell command lines in help text or markdown: continuation lines joined (also inside open quotes),
    pipes, comments and VAR=value prefixes dropped."""
    text = re.sub(r"\\\n\s*", " ", text)
    out, pending = [], ""
    for raw in text.split("\n"):
        line = f"{pending}\n{raw}" if pending else raw.strip()
        if not pending and not re.search(r"\b(atf|python3?|accelerate launch)\s", line):
            continue  # prose
        try:
            argv_of(line)
        except ValueError:  # an argument in quotes spans lines
            pending = line
            continue
        pending = ""
        line = line.split(" | ")[-1].strip()
        line = re.sub(r"^(\w+=\S+\s+)+", "", line)
        line = re.sub(r"^nice\s+", "", line)
        if re.match(r"^(atf|python3?|accelerate launch)\s", line):
            out.append(line)
    return out


def argv_of(line: str) -> list[str]:
    line = line.replace("$'", "'")  # bash ANSI-C quoting: the text is irrelevant to parsing
    return shlex.split(line, comments=True)


def check(line: str, monkeypatch) -> None:
    argv = argv_of(line)
    if argv[0] == "atf":
        build_parser().parse_args(argv[1:])
        return
    if argv[0] == "accelerate":
        argv = argv[next(i for i, a in enumerate(argv) if a.endswith(".py")) :]
    else:
        argv = argv[1:]
    script = REPO / argv[0]
    assert script.parent.name in SCRIPT_DIRS + ("bench",), f"{line}: not a project script"
    if script.parent.name == "tools":  # doors into `atf serve-*`
        command = {"syntax_server": "serve-syntax", "consistency_server": "serve-consistency"}[script.stem]
        build_parser().parse_args([command, *argv[1:]])
        return
    if not re.search(r"ArgumentParser|TrlParser", script.read_text(encoding="utf-8")):
        assert argv[1:] == [], f"{line}: {argv[0]} takes no arguments"
        return
    parse_script(script, argv[1:], monkeypatch)


def help_examples() -> list[tuple[str, str]]:
    found = [("atf --help", line) for line in command_lines(build_parser().epilog)]
    for name, sub in subparsers(build_parser()).items():
        for text in (sub.epilog or "", sub.description or ""):
            found += [(f"atf {name} --help", line) for line in command_lines(text)]
    for folder in SCRIPT_DIRS:
        for path in sorted((REPO / folder).glob("*.py")):
            doc = load_docstring(path)
            found += [(str(path.relative_to(REPO)), line) for line in command_lines(doc)]
    return found


def load_docstring(path: Path) -> str:
    import ast

    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    spans = [s.replace("\n", " ") for s in re.findall(r"(?<!`)`([^`]+)`(?!`)", prose)]
    lines = [line for block in blocks for line in command_lines(block)]
    lines += [line for span in spans for line in command_lines(span)]
    # the set-up line chains installs with && before the main job
    command = re.compile(r"\s*(atf|python3? \S+\.py|accelerate)")
    return [cmd.strip() for line in lines for cmd in line.split("&&") if command.match(cmd)]


HELP_EXAMPLES = help_examples()
README_COMMANDS = readme_commands()


def test_examples_and_commands_were_found():
    assert len(HELP_EXAMPLES) >= 15 and len(README_COMMANDS) >= 15
    assert any("formalize -k 8" in line and "--judge" in line for _, line in HELP_EXAMPLES)


@pytest.mark.parametrize("where,line", HELP_EXAMPLES, ids=[f"{w}: {c[:60]}" for w, c in HELP_EXAMPLES])
def test_every_help_example_parses(where, line, monkeypatch):
    check(line, monkeypatch)


@pytest.mark.parametrize("line", README_COMMANDS, ids=[c[:70] for c in README_COMMANDS])
def test_every_readme_command_parses(line, monkeypatch):
    check(line, monkeypatch)


def test_judge_is_repeatable_and_never_eats_the_problem():
    p = build_parser()
    args = p.parse_args(
        [
            "formalize",
            "-k",
            "8",
            "--engine",
            "tiny",
            "--judge",
            "smollm2::max_new_tokens=8",
            "--judge",
            "openai:http://[::1]:8000/v1#m",
            "Show that 2 + 2 = 4.",
        ]
    )
    assert args.judges == ["smollm2::max_new_tokens=8", "openai:http://[::1]:8000/v1#m"]
    assert args.problem == "Show that 2 + 2 = 4." and args.k == 8
    for name in ("formalize", "consistency-check", "serve-consistency"):
        judge = next(a for a in subparsers(p)[name]._actions if "--judge" in a.option_strings)
        assert isinstance(judge, argparse._AppendAction) and judge.dest == "judges"


def test_bad_engine_specs_fail_at_parse_time_with_the_valid_keys(capsys):
    p = build_parser()
    with pytest.raises(SystemExit):
        p.parse_args(["formalize", "--engine", "smollm2::max_tokens=8", "x"])
    err = capsys.readouterr().err
    assert "unknown engine option 'max_tokens'" in err and "max_new_tokens" in err and "batch_size" in err
    with pytest.raises(SystemExit):
        p.parse_args(["consistency-check", "-i", "x.jsonl", "--judge", "smollm2::samples=three"])
    assert "must be int" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        p.parse_args(["rerank", "-i", "x.json", "--informalizer", "gpt4"])
    assert "unknown engine spec 'gpt4'" in capsys.readouterr().err


def test_old_spellings_still_parse_into_the_new_flags_and_warn(capsys):
    p = build_parser()
    args = p.parse_args(["formalize", "--benchmark", "minif2f", "--out", "r.jsonl", "--chunk", "3"])
    assert str(args.output) == "r.jsonl" and args.batch_size == 3
    assert "--out is deprecated, use --output" in capsys.readouterr().err
    assert p.parse_args(["serve-syntax", "--max-wait-ms", "20"]).max_wait_s == pytest.approx(0.02)
    assert p.parse_args(["syntax-check", "x", "--timeout", "5"]).timeout_s == 5
    assert p.parse_args(["rerank", "-i", "x", "--timeout-ms", "300"]).timeout_s == pytest.approx(0.3)
    assert p.parse_args(["rerank", "-i", "x", "--out", "y"]).output == "y"


def all_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    return [(f"atf {name}", sub) for name, sub in subparsers(build_parser()).items()]


def visible(parser: argparse.ArgumentParser):
    return [a for a in parser._actions if a.help != argparse.SUPPRESS and not isinstance(a, argparse._HelpAction)]


def script_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """The argparse parser of every script in data_gen/, eval/ and tests/bench/, caught as it parses."""
    out = []
    original = argparse.ArgumentParser.parse_known_args

    def catch(self, args=None, namespace=None):
        out.append((current, self))
        raise Parsed

    argparse.ArgumentParser.parse_known_args = catch
    try:
        for folder in ("data_gen", "eval", "tests/bench"):
            for path in sorted((REPO / folder).glob("*.py")):
                if "ArgumentParser(" not in path.read_text(encoding="utf-8"):
                    continue
                current = str(path.relative_to(REPO))
                main = load_script(path).main
                try:
                    main([]) if inspect.signature(main).parameters else main()
                except Parsed:
                    pass
    finally:
        argparse.ArgumentParser.parse_known_args = original
    return out


PARSERS = all_parsers() + script_parsers()


@pytest.mark.parametrize("name,parser", PARSERS, ids=[n for n, _ in PARSERS])
def test_flags_have_help_units_and_no_stale_default_literals(name, parser):
    formatter = parser._get_formatter()
    for action in visible(parser):
        flags = action.option_strings or [action.dest]
        assert action.help, f"{name} {flags[0]} has no help"
        for flag in action.option_strings:
            if re.search(r"timeout|wait|deadline|delay", flag):
                assert flag.endswith("-s"), f"{name} {flag}: time flags are in seconds and end in -s"
            assert flag not in ("--out", "--chunk"), f"{name} {flag}: use -o/--output, --batch-size"
        shown = formatter._expand_help(action) if "%(" in action.help else action.help
        for literal in re.findall(r"default:? ([-\d.]+)\b", action.help):
            # a number written into the help must be the flag's real default (better: %(default)s)
            assert literal == str(action.default), f"{name} {flags[0]}: help says {literal}, default {action.default}"
        assert shown


def test_the_revision_limit_is_written_once():
    """The default revision limit lives in AgentConfig; every other place reads it."""
    pattern = re.compile(r"(max[_-](?:kept[_-])?revisions\"?\s*(?::\s*[\w |]+)?\s*[=,]\s*(?:field\()?(?:default=)?\d+)")
    hits = []
    for folder in ("atf", "data_gen", "eval", "recipes", "tools"):
        for path in (REPO / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
                if pattern.search(line):
                    hits.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert len(hits) == 1 and hits[0].startswith("atf/agent/loop.py"), hits
    from atf.agent.loop import AgentConfig
    from atf.train.args import ExpertIterationArguments

    ei = ExpertIterationArguments()
    assert ei.max_revisions == ei.max_kept_revisions == AgentConfig.max_revisions
    assert ei.temperature == AgentConfig.temperature  # the loop that is trained is the loop that is evaluated
