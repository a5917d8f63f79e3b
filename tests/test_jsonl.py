"""Resumable JSONL: a write torn at any byte (power loss, disk full, SIGKILL) is cut on resume with a warning
naming the file and line, its record is redone, and the final file equals an uninterrupted run's."""

from __future__ import annotations

import json
import logging

import pytest

from atf.jsonl import JsonlWriter, read_jsonl, read_text_jsonl, resume_jsonl

# U+2028/U+2029 are line breaks to str.splitlines(), never to JSONL; ℕ and the emoji are multi-byte in UTF-8.
RECORDS = [{"id": f"r{i}", "text": f"theorem t{i} (n : ℕ) : n + {i} = {i} + n\u2028ok\u2029 🧮"} for i in range(4)]


def run_job(path) -> None:
    """A resumable job: writes every record not already in `path`."""
    done = {row["id"] for row in resume_jsonl(path)}
    with JsonlWriter(path) as out:
        for record in RECORDS:
            if record["id"] not in done:
                out.write(record)


def test_a_tear_at_every_byte_of_the_last_record_resumes_to_the_same_file(tmp_path, caplog):
    full = tmp_path / "full.jsonl"
    run_job(full)
    data = full.read_bytes()
    assert read_jsonl(full) == RECORDS and data.count(b"\n") == len(RECORDS)
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    multibyte = [i for i in range(last_start, len(data)) if data[i] >= 0x80 and (data[i] & 0xC0) == 0x80]
    assert multibyte  # some offsets fall inside a character
    for cut in range(last_start, len(data)):
        torn = tmp_path / f"torn{cut}.jsonl"
        torn.write_bytes(data[:cut])
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="atf.jsonl"):
            run_job(torn)
        assert torn.read_bytes() == data, cut
        if cut > last_start:  # a partial line existed: the warning names the file and its line
            assert f"{torn}:{len(RECORDS)}:" in caplog.text and "cut short" in caplog.text


def test_inputs_split_on_newlines_only():
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS)
    assert "\u2028" in text and len(text.splitlines()) > len(RECORDS)  # what str.splitlines() would have broken
    assert [r for _, r in read_text_jsonl(text, "<stdin>")] == RECORDS


def test_a_bad_line_before_the_end_is_an_error_naming_file_and_line(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps(RECORDS[0]) + "\n{oops\n" + json.dumps(RECORDS[1]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{path}:2: not valid JSON"):
        resume_jsonl(path)


def test_readers_of_finished_files_skip_an_unfinished_tail_without_touching_it(tmp_path):
    path = tmp_path / "running.jsonl"
    rows = [json.dumps(r, ensure_ascii=False) for r in RECORDS[:2]]
    data = (rows[0] + "\n" + rows[1][:-9]).encode()
    path.write_bytes(data)
    assert read_jsonl(path, skip_torn_tail=True) == RECORDS[:1] and path.read_bytes() == data
    with pytest.raises(ValueError, match=":2:"):
        read_jsonl(path)


def test_syntax_check_resume_after_a_tear_anywhere_in_its_last_row(tmp_path):
    """`atf syntax-check -o X --resume`: the real CLI, torn at every byte of its last result row."""
    from atf.cli import main

    statements = [f"import Mathlib\ntheorem t{i} (n : ℕ) : n + {i} = {i} + n := by sorry -- «ℕ» 🧮" for i in range(3)]
    inp = tmp_path / "in.jsonl"
    inp.write_text(
        "".join(
            json.dumps({"id": f"s{i}", "statement": s}, ensure_ascii=False) + "\n" for i, s in enumerate(statements)
        ),
        encoding="utf-8",
    )
    args = ["syntax-check", "-i", str(inp), "--precheck-only", "--resume", "-o"]
    full = tmp_path / "full.jsonl"
    assert main(args + [str(full)]) == 0
    data = full.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    inside_chars = {i for i in range(last_start, len(data)) if (data[i] & 0xC0) == 0x80}
    assert inside_chars
    # every 13th byte and every byte inside a multi-byte character (the module test above takes every byte)
    for cut in sorted(set(range(last_start, len(data), 13)) | inside_chars | {len(data) - 1}):
        torn = tmp_path / "torn.jsonl"
        torn.write_bytes(data[:cut])
        assert main(args + [str(torn)]) == 0
        assert torn.read_bytes() == data, cut


def test_formalize_batch_resumes_after_a_torn_trajectory_or_chosen_row(tmp_path, monkeypatch, tiny_engine):
    """`atf formalize --benchmark F -o X`: a tear in the trajectories or in X.chosen.jsonl (here inside the
    multi-byte ℕ) is cut and redone; the files end as an uninterrupted run leaves them (meta aside)."""
    import atf.llm
    from atf.agent.parsing import format_tool_call
    from atf.agent.replay import ReplayEngine
    from atf.cli import main

    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        "".join(json.dumps({"id": f"q{i}", "informal": f"Show n + {i} = {i} + n in ℕ."}) + "\n" for i in range(2)),
        encoding="utf-8",
    )
    statement = "import Mathlib\n\ntheorem q{} (n : ℕ) : n + {} = {} + n := by sorry".format
    scripts = {
        f"Show n + {i} = {i} + n in ℕ.": [format_tool_call("syntax_check", {"statement": statement(i, i, i)}), "Done."]
        for i in range(2)
    }
    monkeypatch.setattr(atf.llm, "load_engine", lambda spec, **kw: ReplayEngine(scripts, tiny_engine.tokenizer))

    def run(out):
        argv = ["formalize", "-i", str(problems), "-o", str(out), "-k", "2", "--engine", "tiny", "--no-rerank"]
        assert main(argv) == 0
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n") if line]
        chosen = out.with_name(out.stem + ".chosen.jsonl").read_bytes()
        return sorted((r["meta"]["id"], r["meta"]["sample"], r["statement"], r["stop_reason"]) for r in rows), chosen

    full_rows, full_chosen = run(tmp_path / "full" / "t.jsonl")
    assert len(full_rows) == 4 and full_chosen.count(b"\n") == 2
    data = (tmp_path / "full" / "t.jsonl").read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    inside = next(i for i in range(last, len(data)) if (data[i] & 0xC0) == 0x80)
    for n, cut in enumerate((last + 1, inside, len(data) - 1)):
        out = tmp_path / f"r{n}" / "t.jsonl"
        out.parent.mkdir()
        out.write_bytes(data[:cut])
        assert run(out) == (full_rows, full_chosen)
    chosen_path = tmp_path / "full" / "t.chosen.jsonl"
    assert full_chosen.rfind("ℕ".encode()) > full_chosen.rstrip(b"\n").rfind(b"\n")
    chosen_path.write_bytes(full_chosen[: full_chosen.rfind("ℕ".encode()) + 1])  # torn inside its last ℕ
    assert run(tmp_path / "full" / "t.jsonl") == (full_rows, full_chosen)
