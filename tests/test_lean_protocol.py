"""Replay the recorded leanprover-community/repl transcripts (shared/data/lean-repl-transcripts)."""

import ast
import json
import sys
from pathlib import Path

import pytest

from atf.lean.protocol import (
    CommandResponse,
    ProofStepResponse,
    ReplError,
    encode_request,
    parse_response,
    read_requests,
    read_responses,
)
from atf.lean.repl import LeanRepl

STANDIN = str(Path(__file__).parent / "lean_standin.py")


@pytest.fixture(scope="module")
def transcripts(data_dir):
    root = data_dir / "lean-repl-transcripts"
    pairs = []
    for inp in sorted([*root.glob("*.in"), *root.glob("Mathlib/*.in")]):
        out = inp.with_name(inp.name[: -len(".in")] + ".expected.out")
        if out.exists():
            pairs.append((inp, out))
    return pairs


def test_every_recorded_answer_parses_and_round_trips(transcripts):
    assert len(transcripts) == 71  # 55 top-level + 16 Mathlib pairs (PROVENANCE.md)
    kinds = {CommandResponse: 0, ProofStepResponse: 0, ReplError: 0}
    n = 0
    for inp, out in transcripts:
        requests, answers = read_requests(inp), read_responses(out)
        assert len(requests) == len(answers), inp.name
        for raw in answers:
            parsed = parse_response(raw)
            kinds[type(parsed)] += 1
            assert parsed.to_json() == raw, (inp.name, raw)
            n += 1
    assert n == 217
    assert all(kinds.values()), kinds


def test_parsed_fields_match_the_recorded_json(data_dir):
    root = data_dir / "lean-repl-transcripts"
    first, step, done = [parse_response(r) for r in read_responses(root / "readme.expected.out")]
    assert isinstance(first, CommandResponse) and first.env == 0
    (msg,) = first.messages
    assert (msg.severity, msg.pos.line, msg.pos.column, msg.end_pos.column) == ("warning", 1, 4, 5)
    assert msg.is_sorry_warning and not msg.is_error
    (sorry,) = first.sorries
    assert (sorry.goal, sorry.proof_state, sorry.pos.column) == ("x : Unit\n⊢ Nat", 0, 29)
    assert isinstance(step, ProofStepResponse) and step.goals == ["x : Unit\n⊢ Int"]
    assert step.proof_status == "Incomplete: open goals remain"
    assert isinstance(done, ProofStepResponse) and done.goals == [] and done.proof_status == "Completed"

    (unknown_env,) = [parse_response(r) for r in read_responses(root / "unknown_environment.expected.out")]
    assert unknown_env == ReplError("Unknown environment.")
    tactic_error = parse_response(read_responses(root / "unknown_tactic.expected.out")[1])
    assert isinstance(tactic_error, ReplError) and tactic_error.message.startswith("Lean error:\n")

    (calc,) = [parse_response(r) for r in read_responses(root / "calc.expected.out")]
    assert [t.tactic.split("\n")[0] for t in calc.tactics] == ["calc", "", "sorry", "sorry"]
    assert "Trans.trans" in calc.tactics[0].used_constants
    (tree,) = [parse_response(r) for r in read_responses(root / "infotree.expected.out")]
    assert tree.infotree[0]["kind"] == "TacticInfo"

    # a multi-line error whose span crosses lines
    (err,) = parse_response(read_responses(root / "have_by_sorry.expected.out")[0]).errors
    assert (err.pos.line, err.end_pos.line) == (1, 2) and err.data.startswith("unsolved goals")


def test_requests_are_read_the_way_the_repl_reads_them(data_dir):
    root = data_dir / "lean-repl-transcripts"
    # raw line breaks inside a JSON string vanish: the REPL right-trims and concatenates lines
    assert read_requests(root / "invalid_line_break.in")[0]["cmd"] == "theorem foo : 1 = 1 := bysorry"
    assert read_requests(root / "line_breaks.in")[1]["cmd"] == "theorem foo : 1 = 1 := by\n  sorry"
    req = read_requests(root / "Mathlib" / "H20231020.in")[1]
    assert req == {"cmd": "theorem mathd_numbertheory_188 : Nat.gcd 180 168 = 12 := by norm_num", "env": 0}
    line = encode_request({"cmd": "a\nb", "env": 3})
    assert line.endswith("\n\n") and line.count("\n") == 2 and json.loads(line) == {"cmd": "a\nb", "env": 3}


def test_older_repl_answers_recorded_in_formalmath_parse(data_dir):
    rows = json.loads((data_dir / "formalmath-lite" / "FormalMATH_lite.json").read_text())
    for row in rows:
        raw = ast.literal_eval(row["compiler_feedback"])
        parsed = parse_response(raw)
        assert isinstance(parsed, CommandResponse) and parsed.to_json() == raw
        assert not parsed.errors  # compiler_feedback_bool is True for all of them
        assert any(m.is_sorry_warning for m in parsed.messages)


def test_unknown_shapes_are_rejected():
    with pytest.raises(ValueError, match="unrecognised"):
        parse_response({"hello": 1})
    with pytest.raises(ValueError, match="not a JSON object"):
        parse_response([1])


def _replay(pairs, tmp_path) -> int:
    """The stand-in serves each recorded answer only if the driver sent exactly the recorded request.
    Each transcript is one REPL session (its env ids start at 0, and the driver checks they only grow)."""
    expected_requests, sent = [], []
    round_trips = 0
    for n, (inp, out) in enumerate(pairs):
        log = tmp_path / f"sent{n}.jsonl"
        with LeanRepl(
            [sys.executable, STANDIN, "--log", str(log), "--replay", str(inp), str(out)], sandbox="none"
        ) as repl:
            for request, expected in zip(read_requests(inp), read_responses(out)):
                expected_requests.append(request)
                answer = repl.send(request, timeout_s=20)
                assert answer == expected, inp.name
                assert parse_response(answer).to_json() == expected
            assert repl.stats.starts == 1 and repl.stats.protocol_errors == 0
            round_trips += repl.stats.round_trips
        sent += [json.loads(line) for line in log.read_text().splitlines()]
    assert sent == expected_requests
    return round_trips


def test_driver_replays_the_checker_transcripts_through_the_protocol(transcripts, tmp_path):
    useful = {
        "readme",
        "file_env",
        "variables",
        "unknown_environment",
        "unknown_tactic",
        "pickle_environment",
        "dup_sorries",
        "H20231020",
    }
    pairs = [p for p in transcripts if p[0].name[: -len(".in")] in useful]
    assert {p[0].name[: -len(".in")] for p in pairs} == useful
    assert _replay(pairs, tmp_path) > len(pairs)


@pytest.mark.integration
def test_driver_replays_every_transcript_through_the_protocol(transcripts, tmp_path):
    assert _replay(transcripts, tmp_path) == 217


def test_replay_stand_in_refuses_a_request_that_differs_from_the_transcript(data_dir):
    root = data_dir / "lean-repl-transcripts"
    with LeanRepl(
        [sys.executable, STANDIN, "--replay", str(root / "readme.in"), str(root / "readme.expected.out")],
        sandbox="none",
    ) as repl:
        answer = parse_response(repl.send({"cmd": "def f (x : Unit) : Nat := by exact 0"}, timeout_s=20))
    assert isinstance(answer, ReplError) and "differs from the transcript" in answer.message
