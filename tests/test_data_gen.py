"""Cold-start synthesis and DPO pairs: plans replay through the real loop and are validated before kept."""

import random

import pytest

from atf.agent.tools import SYNTAX_SCHEMA, FunctionTool, ToolResult
from atf.agent.trajectory import read_jsonl
from atf.agent.validate import rule_violations
from atf.data.benchmarks import BenchmarkProblem, load_benchmark
from atf.train.corrupt import MEANING_CORRUPTIONS, SYNTAX_CORRUPTIONS, change_constant, drop_hypothesis, flip_relation
from atf.train.pairs import build_pairs
from atf.train.reference import ReferenceConsistencyTool, describe_difference
from atf.train.synth import PLANS, plan_script, synthesize

GOLD = "import Mathlib\n\ntheorem t (x y : ℤ) (h₀ : 0 < y) (h₁ : y < x) (h₂ : x + y + x * y = 80) : x = 26 := by sorry"


def balanced_syntax(requests):
    """A stand-in syntax check: balanced parentheses, a theorem keyword, a `:= by sorry` proof."""
    out = []
    for r in requests:
        s = r.arguments["statement"]
        ok = s.count("(") == s.count(")") and "theorem " in s and s.rstrip().endswith(":= by sorry")
        out.append(ToolResult(ok, "ok" if ok else "error: parse error"))
    return out


def problem(i=0, formal=GOLD, split="valid"):
    return BenchmarkProblem(f"p{i}", "test", split, f"Integers x > y > 0 satisfy x+y+xy=80 (#{i}). Show that x = 26.", formal, "import Mathlib\n\n")


def tools_for(problems, syntax=balanced_syntax):
    return [FunctionTool("syntax_check", SYNTAX_SCHEMA, syntax), ReferenceConsistencyTool({p.informal: p.formal for p in problems})]


def test_corruptions_change_what_they_claim():
    rng = random.Random(0)
    changed = {change_constant(GOLD, random.Random(i)) for i in range(20)}
    assert {c.rsplit(": x = ", 1)[1] for c in changed} == {"27 := by sorry", "25 := by sorry", "52 := by sorry"}
    assert all(c.startswith(GOLD.rsplit(": x = ", 1)[0]) for c in changed)  # hypotheses untouched
    flipped = flip_relation("theorem t (x : ℝ) (h : 0 < x) : x ^ 2 ≥ 0 := by sorry", rng)
    assert flipped.endswith(": x ^ 2 > 0 := by sorry") and "(h : 0 < x)" in flipped  # only the conclusion changes
    dropped = drop_hypothesis(GOLD, random.Random(3))
    assert dropped.count("(h") == 2 and dropped.endswith("x = 26 := by sorry")
    assert drop_hypothesis("theorem t (x : ℕ) (h : x > 0) : x ≠ 0 ∧ h = h := by sorry", rng) is None  # h is used
    for name, fn in SYNTAX_CORRUPTIONS.items():
        out = fn(GOLD, random.Random(0))
        assert out is not None and out != GOLD, name
        assert balanced_syntax([type("R", (), {"arguments": {"statement": out}})()])[0].passed is False, name
    assert flip_relation(GOLD, rng) is None  # `x = 26` has no order relation to flip
    for name, fn in MEANING_CORRUPTIONS.items():
        out = fn(GOLD.replace("x = 26", "26 ≤ x"), random.Random(0))
        assert out is not None and out != GOLD and out.endswith(":= by sorry"), name


def test_reference_check_reports_the_difference():
    tool = ReferenceConsistencyTool({"q": GOLD})
    from atf.agent.tools import ToolRequest

    renamed = GOLD.replace("theorem t ", "theorem my_name ").replace("import Mathlib\n\n", "import Mathlib\nopen Real\n\n")
    wrong = GOLD.replace("x = 26", "x = 25")
    res = tool.call([ToolRequest("q", {"statement": renamed}), ToolRequest("q", {"statement": wrong})])
    assert res[0].passed and not res[1].passed
    assert "`25` where the problem needs `26`" in res[1].feedback
    assert describe_difference(GOLD.replace(" (h₀ : 0 < y)", ""), GOLD) == ["the statement is missing `(h₀ : 0 < y)` from the problem"]


def test_plan_scripts_expect_the_right_verdicts():
    turns, expected, kinds = plan_script(GOLD, "fix_both", random.Random(0))
    assert expected == [("syntax_check", False), ("syntax_check", True), ("consistency_check", False), ("syntax_check", True), ("consistency_check", True)]
    assert len(turns) == 5 and len(kinds) == 2 and GOLD.replace("\n", "\\n") in turns[-2]
    turns, expected, _ = plan_script(GOLD, "give_up", random.Random(0))
    assert expected[-1] == ("consistency_check", False) and "<tool_call>" not in turns[-1]
    assert plan_script("theorem t : True := by sorry", "fix_meaning", random.Random(0)) is None


def test_synthesis_keeps_only_what_replays_as_planned(tiny_engine):
    tok = tiny_engine.tokenizer
    problems = [problem(i) for i in range(3)]
    trajs, stats = synthesize(problems, tok, tools_for(problems))
    assert stats.kept == {plan: 3 for plan in PLANS} and not stats.dropped
    by_plan = {}
    for t in trajs:
        by_plan.setdefault(t.meta["source"], []).append(t)
        assert rule_violations(t, 8, tok) == []
        assert t.meta["split"] == "valid" and t.meta["reference"] == GOLD
    assert all(t.success and t.revisions == 1 for t in by_plan["synth:direct"])
    assert all(t.success and t.revisions == 3 for t in by_plan["synth:fix_both"])
    assert all(not t.success and t.stop_reason == "no_tool_call" for t in by_plan["synth:give_up"])
    # a syntax check that (wrongly) accepts everything makes the syntax plans replay differently: dropped
    lenient = tools_for(problems, syntax=lambda reqs: [ToolResult(True, "ok") for _ in reqs])
    trajs2, stats2 = synthesize(problems, tok, lenient, plans=["fix_syntax", "direct"])
    assert stats2.dropped == {"fix_syntax:verdicts_differ": 3} and stats2.kept == {"direct": 3}


def test_synthesis_refuses_test_split(tiny_engine):
    with pytest.raises(ValueError, match="test-split"):
        synthesize([problem(0, split="test")], tiny_engine.tokenizer, tools_for([problem(0)]))


def test_dpo_pairs_prefer_success_then_fewer_revisions(tiny_engine):
    problems = [problem(0)]
    trajs, _ = synthesize(problems, tiny_engine.tokenizer, tools_for(problems))
    pairs = build_pairs(trajs, max_pairs_per_problem=10)
    assert [(p["chosen_revisions"], p["rejected_revisions"], p["rejected_success"]) for p in pairs] == [(1, 1, False), (1, 3, True), (1, 2, True), (1, 2, True)]
    for p in pairs:
        assert [m["role"] for m in p["prompt"]] == ["system", "user"] and p["chosen"][0]["role"] == "assistant"
        assert p["chosen"] != p["rejected"]
    assert build_pairs([t for t in trajs if not t.success]) == []  # no success, nothing to prefer


@pytest.mark.integration
def test_synthesize_script_on_minif2f_valid(data_dir, tmp_path, monkeypatch):
    """The data_gen script end to end on real dev problems, with the real syntax check."""
    pytest.importorskip("atf.lean")
    import importlib.util

    spec = importlib.util.spec_from_file_location("synthesize", "data_gen/synthesize.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "cold.jsonl"
    assert mod.main(["--benchmarks", "minif2f", "--limit", "4", "-o", str(out), "--plans", "direct", "fix_syntax", "fix_meaning"]) == 0
    trajs = list(read_jsonl(out))
    assert trajs and all(t.meta["split"] == "valid" for t in trajs)
    assert {t.meta["id"] for t in trajs} <= {p.id for p in load_benchmark("minif2f", "valid")[:4]}
    with pytest.raises(ValueError, match="test-split"):
        mod.main(["--benchmarks", "minif2f", "--split", "test", "--limit", "2", "-o", str(tmp_path / "x.jsonl")])


def test_teacher_rollouts_keep_rule_abiding_successes(tiny_engine):
    from atf.agent.parsing import format_tool_call
    from atf.agent.replay import ReplayEngine
    from atf.train.synth import teacher_trajectories

    problems = [problem(i) for i in range(3)]
    call = lambda name, s: format_tool_call(name, {"statement": s})  # noqa: E731
    wrong = GOLD.replace("x = 26", "x = 25")
    teacher = ReplayEngine(
        {
            problems[0].informal: [call("syntax_check", GOLD), call("consistency_check", GOLD)],
            problems[1].informal: [call("syntax_check", wrong), call("consistency_check", wrong), "Stuck."],
            problems[2].informal: [call("consistency_check", GOLD), call("syntax_check", GOLD), call("consistency_check", GOLD)],
        },
        tiny_engine.tokenizer,
        name="teacher",
    )
    kept, stats = teacher_trajectories(problems, teacher, tools_for(problems), k=2)
    assert stats.kept == {"teacher": 4} and stats.dropped == {"teacher:no_tool_call": 2}
    assert {t.meta["id"] for t in kept} == {"p0", "p2"} and all(t.meta["source"] == "teacher:teacher" for t in kept)
    p2 = next(t for t in kept if t.meta["id"] == "p2")
    assert p2.calls[0].passed is None and p2.revisions == 1  # the refused early call stays in the record, within the rules
    with pytest.raises(ValueError, match="test-split"):
        teacher_trajectories([problem(0, split="test")], teacher, tools_for(problems))


def test_expert_iteration_refuses_test_problems(data_dir):
    from atf.train.expert_iteration import training_problems

    assert len(training_problems(["minif2f:valid"], limit=3)) == 3
    with pytest.raises(ValueError, match="test-split"):
        training_problems(["minif2f:test"], limit=1)
    with pytest.raises(ValueError, match="test-split"):
        training_problems(["minif2f"])  # both splits
