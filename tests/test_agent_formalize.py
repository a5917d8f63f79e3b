"""k rollouts + reranking, the trace, pass@k, and `atf formalize` (single problem and resumable batch)."""

import json

import pytest

from atf.agent.formalize import Formalizer, candidate_pool, choose, format_trace
from atf.agent.metrics import pass_at_k, passk_table
from atf.agent.parsing import format_tool_call
from atf.agent.replay import ReplayEngine
from atf.agent.tools import CONSISTENCY_SCHEMA, SYNTAX_SCHEMA, FunctionTool, ToolResult
from atf.agent.trajectory import Trajectory, read_jsonl

A = "import Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by sorry"
B = "import Mathlib\n\ntheorem t (n : ℕ) : 0 + n = n := by sorry"
BAD = "import Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by sorry)"


def sc(s):
    return format_tool_call("syntax_check", {"statement": s})


def cc(s):
    return format_tool_call("consistency_check", {"statement": s})


def stand_in_tools():
    syntax = FunctionTool(
        "syntax_check",
        SYNTAX_SCHEMA,
        lambda rs: [
            ToolResult(r.arguments["statement"].count("(") == r.arguments["statement"].count(")"), "syntax verdict")
            for r in rs
        ],
    )
    consistency = FunctionTool(
        "consistency_check", CONSISTENCY_SCHEMA, lambda rs: [ToolResult(True, "consistent") for _ in rs]
    )
    return [syntax, consistency]


class OrderByLength:
    """A stand-in reranker: prefers shorter statements (the real one is tested below when available)."""

    def __init__(self):
        self.seen = []

    def rerank(self, problem, candidates, valid=None):
        self.seen.append((list(candidates), list(valid)))
        order = sorted(range(len(candidates)), key=lambda i: (not valid[i], len(candidates[i])))
        return type("R", (), {"order": order, "scores": [-len(c) for c in candidates]})()


def traj(statement, syntax_ok, consistency_ok):
    return Trajectory("p", [], statement=statement, syntax_ok=syntax_ok, consistency_ok=consistency_ok)


def test_candidate_pool_prefers_the_best_tier():
    ts = [traj(BAD, False, False), traj(A, True, False), traj(B, True, True), traj(None, False, False)]
    assert candidate_pool(ts) == ([2], "passed")
    assert candidate_pool(ts[:2]) == ([1], "syntax_ok")
    assert candidate_pool(ts[:1]) == ([0], "any")
    assert candidate_pool(ts[3:]) == ([], "none")
    assert choose("p", ts[3:], OrderByLength()).statement is None


def test_formalizer_runs_k_rollouts_per_problem_and_reranks(tiny_engine):
    class PerSample(ReplayEngine):
        """Sample j of a problem gets script j: first turns go out in sample order, later turns are matched
        to their script by the rollout's first reply."""

        def __init__(self, scripts, tok):
            super().__init__({}, tok)
            self.per_sample = scripts

        def generate(self, prompts, params):
            self.calls += 1
            out = []
            for i, ids in enumerate(prompts):
                text = self.tokenizer.decode(ids)
                turn = text.count("<|im_start|>assistant") - 1
                if turn == 0:
                    script = self.per_sample[i % len(self.per_sample)]
                else:
                    first = text.split("<|im_start|>assistant\n")[1]
                    script = next(s for s in self.per_sample if first.startswith(s[0]))
                out.append([self._completion(script[turn] if turn < len(script) else "", params)])
            return out

    engine = PerSample([[sc(A), cc(A)], ["Try: " + sc(BAD), sc(B), cc(B)], [sc(BAD), "I stop."]], tiny_engine.tokenizer)
    reranker = OrderByLength()
    f = Formalizer(engine, stand_in_tools(), reranker, k=3)
    (r,) = f.formalize(["Show that n + 0 = n."])
    assert [t.meta["sample"] for t in r.samples] == [0, 1, 2]
    assert r.tier == "passed" and r.candidates == [0, 1, 2] and reranker.seen == [([A, B, BAD], [True, True, False])]
    assert r.statement == A and r.chosen == 0  # same length: stable order keeps sample 0
    assert len(r.scores) == 3
    trace = format_trace(r)
    assert (
        "syntax_check -> PASS" in trace and "Chosen statement:" in trace and trace.rstrip().endswith(A.splitlines()[-1])
    )
    assert r.to_dict()["success"] and len(r.to_dict()["samples"]) == 3


def test_pass_at_k():
    assert pass_at_k(4, 0, 1) == 0 and pass_at_k(4, 4, 1) == 1 and pass_at_k(4, 1, 1) == 0.25
    assert pass_at_k(4, 1, 4) == 1 and abs(pass_at_k(5, 2, 2) - 0.7) < 1e-9
    ts = []
    for pid, verdicts in {"a": [(True, True), (False, False)], "b": [(True, False), (False, False)]}.items():
        for s, c in verdicts:
            t = traj(A, s, c)
            t.meta = {"id": pid}
            ts.append(t)
    table = passk_table(ts, [1, 2])
    assert table == {"SC": {1: 0.5, 2: 1.0}, "CC": {1: 0.25, 2: 0.5}}
    with pytest.raises(ValueError, match="at least k"):
        passk_table(ts, [3])


def test_formalize_cli_batch_mode_appends_and_resumes(tmp_path, monkeypatch, tiny_engine, capsys):
    """`atf formalize --benchmark FILE -o X`: real tools, rollouts appended as they finish, rerun skips them."""
    pytest.importorskip("atf.lean")
    import atf.llm
    from atf.cli import main

    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        "".join(
            json.dumps({"id": f"q{i}", "informal": f"Show that n + {i} = {i} + n for all natural n."}) + "\n"
            for i in range(3)
        )
    )

    def statement(i):
        return f"import Mathlib\n\ntheorem q{i} (n : ℕ) : n + {i} = {i} + n := by sorry"

    scripts = {f"Show that n + {i} = {i} + n for all natural n.": [sc(statement(i)), "Done."] for i in range(3)}
    engines = []

    def fake_load_engine(spec, **kw):
        engines.append(ReplayEngine(scripts, tiny_engine.tokenizer, name=spec))
        return engines[-1]

    monkeypatch.setattr(atf.llm, "load_engine", fake_load_engine)
    out = tmp_path / "runs" / "t.jsonl"
    args = ["formalize", "--benchmark", str(problems), "-o", str(out), "-k", "2", "--engine", "tiny", "--no-rerank"]
    assert main(args + ["--limit", "2"]) == 0
    first = list(read_jsonl(out))
    assert sorted((t.meta["id"], t.meta["sample"]) for t in first) == [("q0", 0), ("q0", 1), ("q1", 0), ("q1", 1)]
    assert all(
        t.syntax_ok and t.stop_reason == "no_tool_call" and t.calls[0].name == "syntax_check" for t in first
    )  # real pre-checks
    assert main(args) == 0  # all 3: only q2 runs
    assert len(list(read_jsonl(out))) == 6
    chosen = [json.loads(line) for line in (tmp_path / "runs" / "t.chosen.jsonl").read_text().splitlines()]
    assert [c["id"] for c in chosen] == ["q0", "q1", "q2"] and all(c["tier"] == "syntax_ok" for c in chosen)
    assert main(args) == 0 and len(engines) == 2  # nothing left to run: no engine loaded
    capsys.readouterr()
    assert (
        main(["formalize", "--benchmark", str(problems)]) == 2
        and "batch mode needs -o/--output" in capsys.readouterr().err
    )
    assert main(["formalize", "   "]) == 2 and "give a problem to formalize" in capsys.readouterr().err


@pytest.mark.slow
def test_formalize_with_the_shipped_model_on_a_fresh_cache(tmp_path):
    """The README's first command: `atf formalize "<problem>"` with the embedded SmolLM2 and real tools,
    starting from an empty cache (the GGUF is converted on first use)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "ATF_CACHE": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1"}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "atf.cli",
            "formalize",
            "-k",
            "2",
            "--max-new-tokens",
            "96",
            "--max-turns",
            "2",
            "--json",
            "Show that for every natural number n, n + 0 = n.",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert run.returncode in (0, 1), run.stderr[-3000:]
    result = json.loads(run.stdout)
    assert len(result["samples"]) == 2 and all(s["meta"]["engine"] == "smollm2" for s in result["samples"])
    assert (tmp_path / "cache" / "smollm2-135m-instruct" / ".complete").exists()


@pytest.mark.integration
def test_formalize_through_the_real_tools_and_reranker(tiny_engine):
    """Scripted model, everything else real: the syntax checker, the judge ensemble (a tiny judge) and the
    SymEq + SemCo reranker over the candidates."""
    pytest.importorskip("atf.lean")
    rerank = pytest.importorskip("atf.rerank")
    if not hasattr(rerank, "Reranker"):
        pytest.skip("atf.rerank.Reranker has not landed yet")
    from atf.agent.tools import ConsistencyCheckTool, SyntaxCheckTool
    from atf.judge import ConsistencyChecker, Judge
    from atf.llm.base import SamplingParams

    judge = Judge(engine=tiny_engine, params=SamplingParams(max_new_tokens=8, temperature=0))
    tools = [SyntaxCheckTool(), ConsistencyCheckTool(ConsistencyChecker([judge]))]
    problem = "Show that n + 0 = n for every natural number n."
    engine = ReplayEngine({problem: [sc(A), cc(A), "Done."]}, tiny_engine.tokenizer)
    reranker = rerank.Reranker(
        informalizer=tiny_engine, informalize_params=SamplingParams(max_new_tokens=12, temperature=0)
    )
    (r,) = Formalizer(engine, tools, reranker, k=2).formalize([problem])
    assert all(
        t.syntax_ok and t.calls[1].name == "consistency_check" and t.calls[1].passed is not None for t in r.samples
    )
    assert (
        r.statement == A and r.tier in ("passed", "syntax_ok") and r.scores is None
    )  # one distinct candidate: no rerank
    result = reranker.rerank(problem, [A, B, A], valid=[False, True, True])
    assert sorted(result.order) == [0, 1, 2] and len(result.scores) == 3 and result.order[-1] == 0  # invalid last
    assert choose(
        problem, [traj(A, True, False), traj(B, True, False), traj(BAD, False, False)], reranker
    ).statement in (A, B)
