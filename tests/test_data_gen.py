"""Cold-start synthesis and DPO pairs: plans replay through the real loop and are validated before kept."""

import json
import random
import re

import pytest

from atf.agent.tools import SYNTAX_SCHEMA, FunctionTool, ToolResult
from atf.agent.trajectory import read_jsonl
from atf.agent.validate import rule_violations
from atf.data.benchmarks import BenchmarkProblem, load_benchmark
from atf.train.corrupt import (
    MEANING_CORRUPTIONS,
    SYNTAX_CORRUPTIONS,
    change_constant,
    drop_hypothesis,
    flip_relation,
)
from atf.train.pairs import build_pairs
from atf.train.reference import (
    ReferenceConsistencyTool,
    describe_difference,
    differences,
)
from atf.train.synth import PLANS, UNDER_LOSS, plan_script, synthesize
from atf.train.synth_report import Figures, report, turns

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
    return BenchmarkProblem(
        f"p{i}",
        "test",
        split,
        f"Integers x > y > 0 satisfy x+y+xy=80 (#{i}). Show that x = 26.",
        formal,
        "import Mathlib\n\n",
    )


def tools_for(problems, syntax=balanced_syntax):
    return [
        FunctionTool("syntax_check", SYNTAX_SCHEMA, syntax),
        ReferenceConsistencyTool({p.informal: p.formal for p in problems}),
    ]


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


def test_reference_check_speaks_like_a_judge_and_never_quotes_the_gold():
    from atf.agent.tools import ToolRequest
    from atf.judge.result import ConsistencyResult, Vote

    tool = ReferenceConsistencyTool({"q": GOLD})
    renamed = GOLD.replace("theorem t ", "theorem my_name ").replace(
        "import Mathlib\n\n", "import Mathlib\nopen Real\n\n"
    )
    wrong = GOLD.replace("x = 26", "x = 25")
    missing = GOLD.replace(" (h₀ : 0 < y)", "")
    added = GOLD.replace("x = 26", "x = 26 ∧ y = 2")
    res = tool.call([ToolRequest("q", {"statement": s}) for s in (renamed, wrong, missing, added)])
    assert [r.passed for r in res] == [True, False, False, False]
    # the judges' own rendering, one judge in vote mode
    assert (
        res[0].feedback
        == ConsistencyResult("q", renamed, "vote", True, "consistent", [Vote("judge", "consistent")]).feedback()
    )
    assert res[1].feedback.startswith(
        "Consistency check failed (inconsistent): 1 of 1 judge(s) object.\n- judge: inconsistent."
    )
    assert "`25` in the conclusion" in res[1].feedback and "26" not in res[1].feedback
    assert "missing a hypothesis" in res[2].feedback and "0 < y" not in res[2].feedback
    assert "adds `∧ y = 2`" in res[3].feedback
    for r, s in zip(res[1:], (wrong, missing, added)):  # every quoted piece comes from the statement under review
        assert all(q in s for q in re.findall(r"`([^`]+)`", r.feedback))
    assert describe_difference(missing, GOLD) == ["the Lean statement is missing a hypothesis that the problem states"]
    assert differences(wrong, GOLD) == [("replace", "25", "26", "conclusion")]
    assert differences(GOLD.replace(":= by sorry", ":=\nbegin\n  sorry\nend"), GOLD)[0][3] == "proof"


def test_plan_scripts_expect_the_right_verdicts():
    turns_, expected, kinds, turn_kinds, corrupted = plan_script(GOLD, "fix_both", random.Random(0))
    assert expected == [
        ("syntax_check", False),
        ("syntax_check", True),
        ("consistency_check", False),
        ("syntax_check", True),
        ("consistency_check", True),
    ]
    assert turn_kinds == ["corrupted", "corrupted", "corrupted_check", "correction", "check"]
    assert len(turns_) == 5 and len(kinds) == 2 and json.dumps(GOLD, ensure_ascii=False)[1:-1] in turns_[-2]
    # built backwards: the syntax mistake sits on top of the meaning mistake, so each correction fixes one thing
    assert len(corrupted) == 2 and corrupted[0] != corrupted[1] and differences(corrupted[1], GOLD)
    assert kinds[0] in SYNTAX_CORRUPTIONS and kinds[1] in MEANING_CORRUPTIONS
    assert all(t.index("<tool_call>") > 20 for t in turns_)  # reasoning before every call
    turns_, expected, _, turn_kinds, _ = plan_script(GOLD, "give_up", random.Random(0))
    assert (
        expected[-1] == ("consistency_check", False) and "<tool_call>" not in turns_[-1] and turn_kinds[-1] == "give_up"
    )
    assert plan_script("theorem t : True := by sorry", "fix_meaning", random.Random(0)) is None
    assert not UNDER_LOSS["corrupted"] and not UNDER_LOSS["corrupted_check"] and UNDER_LOSS["correction"]


def loss_text(tok, t):
    return tok.decode([i for i, m in zip(t.completion_ids, t.completion_mask) if m])


def test_synthesis_keeps_only_what_replays_as_planned(tiny_engine):
    tok = tiny_engine.tokenizer
    problems = [problem(i) for i in range(3)]
    trajs, stats = synthesize(problems, tok, tools_for(problems))
    assert stats.kept == {f"synth:{plan}": 3 for plan in PLANS} and not stats.dropped
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
    _trajs2, stats2 = synthesize(problems, tok, lenient, plans=["fix_syntax", "direct"])
    assert stats2.dropped == {"fix_syntax:verdicts_differ": 3} and stats2.kept == {"synth:direct": 3}


def test_deliberate_mistakes_stay_in_context_but_out_of_the_loss(tiny_engine):
    tok = tiny_engine.tokenizer
    problems = [problem(i) for i in range(4)]
    trajs, _ = synthesize(problems, tok, tools_for(problems), plans=["fix_syntax", "fix_meaning", "fix_both"])
    assert len(trajs) == 12
    gold_call = json.dumps(GOLD, ensure_ascii=False)
    for t in trajs:
        context = tok.decode(t.completion_ids)
        under_loss = loss_text(tok, t)
        for bad in t.meta["corrupted"]:
            bad_call = json.dumps(bad, ensure_ascii=False)
            assert (
                bad_call in context and bad_call not in under_loss
            )  # the model reads its mistake, never learns to write it
        assert under_loss.count(gold_call) == 2  # the correction and the consistency call on it
        for turn in turns(t):
            assert turn.under_loss == UNDER_LOSS[turn.kind] and (turn.loss_tokens == turn.tokens) == turn.under_loss
        for m in t.messages:
            if m["role"] == "tool" and m["content"].startswith("Consistency check failed"):
                assert "26" not in m["content"]  # the gold's constant is never quoted back
    fig = Figures()
    for t in trajs:
        fig.add(t)
    assert (fig.first_wrong, fig.differing, fig.successes) == (0, 0, 12) and fig.under_loss == 24
    assert all(fig.masked_tokens[k] > 0 and fig.loss_tokens[k] == 0 for k in ("corrupted", "corrupted_check"))


def test_summary_reproduces_the_issue_figures_on_unmasked_data(tiny_engine):
    """The same measurement on the old kind of data (every turn under loss) finds the trained mistakes."""
    tok = tiny_engine.tokenizer
    problems = [problem(i) for i in range(4)]
    trajs, stats = synthesize(problems, tok, tools_for(problems), plans=["direct", "fix_meaning"])
    old = []
    for t in trajs:
        spans = t.meta.pop("turn_spans")
        mask = [0] * len(t.completion_ids)
        for a, b in spans:
            mask[a:b] = [1] * (b - a)
        t.completion_mask = mask
        t.meta.pop("turn_kinds")
        old.append(t)
    text = report(old)
    assert "first statement under loss is not the final one: 4 of 8 successes (50%)" in text
    assert "statements under loss that differ from the final statement: 8 of 24" in text
    fixed, _ = synthesize(problems, tok, tools_for(problems), plans=["direct", "fix_meaning"])
    text = report(fixed, [stats])
    assert "0 of 8 successes (0%)" in text and "differ from the final statement: 0 of 16" in text
    assert "mix (kept): synth:direct 4, synth:fix_meaning 4" in text


def test_reasoning_follows_the_problem_not_a_stock_phrase(tiny_engine):
    from atf.train import rationale
    from atf.train.synth_report import lead_sentence

    golds = [
        GOLD,
        GOLD.replace("x = 26", "y = 2"),
        "import Mathlib\n\ntheorem u (n : ℕ) (h : 2 < n) : n ^ 2 > 4 := by sorry",
        "import Mathlib\n\ntheorem v : (2 : ℝ) + 2 = 4 := by sorry",
    ]
    rng = random.Random(0)
    plans = [rationale.plan(g, rng) for g in golds]
    assert "`x = 26`" in plans[0] and "`y = 2`" in plans[1] and "`(h : 2 < n)`" in plans[2] and "`(n : ℕ)`" in plans[2]
    assert "`(h₀ : 0 < y)`" in plans[0] and "`(x y : ℤ)`" in plans[0] and "no variables" in plans[3].lower()
    fix = rationale.fix_meaning(GOLD.replace("x = 26", "x = 25"), GOLD, rng)
    assert "`25` should be `26`" in fix
    fix = rationale.fix_syntax("drop_assign", GOLD.rsplit(":=", 1)[0].rstrip(), GOLD, rng)
    assert ":= by sorry" in fix
    problems = [BenchmarkProblem(f"q{i}", "test", "valid", f"Problem {i}.", g, "") for i, g in enumerate(golds)]
    trajs, _ = synthesize(problems, tiny_engine.tokenizer, tools_for(problems), plans=["direct"])
    reasoning = {t.messages[2]["content"].split("<tool_call>")[0] for t in trajs}
    assert len(reasoning) == len(golds) and all(len(r) > 40 for r in reasoning)
    assert lead_sentence(trajs[2].messages[2]["content"]).endswith("`(n : ℕ)`.")


def test_synthesis_refuses_test_split(tiny_engine):
    with pytest.raises(ValueError, match="test-split"):
        synthesize([problem(0, split="test")], tiny_engine.tokenizer, tools_for([problem(0)]))


def test_dpo_pairs_prefer_success_then_fewer_revisions(tiny_engine):
    problems = [problem(0)]
    trajs, _ = synthesize(problems, tiny_engine.tokenizer, tools_for(problems))
    pairs = build_pairs(trajs, max_pairs_per_problem=10)
    assert [(p["chosen_revisions"], p["rejected_revisions"], p["rejected_success"]) for p in pairs] == [
        (1, 1, False),
        (1, 3, True),
        (1, 2, True),
        (1, 2, True),
    ]
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
    assert (
        mod.main(
            [
                "--benchmarks",
                "minif2f",
                "--limit",
                "4",
                "-o",
                str(out),
                "--plans",
                "direct",
                "fix_syntax",
                "fix_meaning",
            ]
        )
        == 0
    )
    trajs = list(read_jsonl(out))
    assert trajs and all(t.meta["split"] == "valid" for t in trajs)
    assert {t.meta["id"] for t in trajs} <= {p.id for p in load_benchmark("minif2f", "valid")[:4]}
    with pytest.raises(ValueError, match="test-split"):
        mod.main(["--benchmarks", "minif2f", "--split", "test", "--limit", "2", "-o", str(tmp_path / "x.jsonl")])


def scripted_teacher(problems, tokenizer):
    """A teacher that sometimes breaks the rules; the loop refuses the broken calls, synthesis must reject them."""
    from atf.agent.parsing import format_tool_call
    from atf.agent.replay import ReplayEngine

    def call(name, s):
        return format_tool_call(name, {"statement": s})

    wrong = GOLD.replace("x = 26", "x = 25")
    scripts = [
        [
            "Checking it.\n" + call("syntax_check", GOLD),
            "Now meaning.\n" + call("consistency_check", GOLD),
        ],  # by the rules
        [
            call("syntax_check", wrong),
            call("consistency_check", wrong),
            "The constant is 26.\n" + call("syntax_check", GOLD),
            call("consistency_check", GOLD),
        ],  # a real mistake, corrected: kept
        [
            call("consistency_check", GOLD),
            call("syntax_check", GOLD),
            call("consistency_check", GOLD),
        ],  # consistency first
        [
            '<tool_call>\n{"name": "syntax_check", "arguments": {"statement": }\n</tool_call>',
            call("syntax_check", GOLD),
            call("consistency_check", GOLD),
        ],  # malformed JSON
        [
            call("lean_run", GOLD),
            call("syntax_check", GOLD),
            call("consistency_check", GOLD),
        ],  # a tool that does not exist
        [call("syntax_check", wrong), call("consistency_check", wrong), "Stuck."],  # gives up
        [
            call("syntax_check", wrong),
            call("syntax_check", wrong + " "),
            call("syntax_check", GOLD),
            call("consistency_check", GOLD),
        ],
    ]
    return ReplayEngine({p.informal: sc for p, sc in zip(problems, scripts)}, tokenizer, name="teacher")


def run_scripted_teacher(problems, tok, **kwargs):
    """The scripted teacher over `problems`, 2 samples each, revision limit 2, the student's tokenizer."""
    from atf.agent.loop import AgentConfig
    from atf.train.synth import teacher_trajectories

    return teacher_trajectories(
        problems,
        scripted_teacher(problems, tok),
        tools_for(problems),
        AgentConfig(max_revisions=2),
        k=2,
        tokenizer=tok,
        **kwargs,
    )


def test_teacher_rollouts_keep_only_rule_abiding_successes(tiny_engine):
    from atf.train.synth import teacher_trajectories

    tok = tiny_engine.tokenizer
    problems = [problem(i) for i in range(7)]
    written = []
    kept, stats = run_scripted_teacher(problems, tok, on_kept=written.append)
    assert stats.kept == {"teacher": 4} and written == kept
    assert stats.dropped == {
        "teacher:broke_rule:consistency_before_syntax_pass": 2,
        "teacher:broke_rule:malformed_call": 2,
        "teacher:broke_rule:unknown_tool": 2,
        "teacher:not_passed:no_tool_call": 2,
        "teacher:not_passed:revision_limit": 2,
    }
    assert sorted({t.meta["id"] for t in kept}) == ["p0", "p1"] and all(
        t.meta["source"] == "teacher:teacher" for t in kept
    )
    corrected = next(t for t in kept if t.meta["id"] == "p1")
    assert corrected.meta["turn_kinds"] == ["direct", "check", "correction", "check"]
    assert all(turn.under_loss for turn in turns(corrected))  # the teacher's own mistakes are real ones: imitated
    for t in kept:
        assert rule_violations(t, 2, tok) == []
    with pytest.raises(ValueError, match="test-split"):
        teacher_trajectories([problem(0, split="test")], scripted_teacher(problems, tok), tools_for(problems))


def test_teacher_rollouts_resume_after_a_kill_without_repeating_or_losing_one(tiny_engine):
    """`skip` leaves out what an earlier run attempted; `on_attempt` reports every rollout, kept or dropped."""
    tok = tiny_engine.tokenizer
    problems = [problem(i) for i in range(7)]

    def run(skip=()):
        attempts = []
        kept, _ = run_scripted_teacher(
            problems,
            tok,
            skip=skip,
            on_attempt=lambda meta, reason: attempts.append(((meta["id"], meta["sample"]), reason)),
        )
        return kept, attempts

    full, attempts = run()
    assert len(attempts) == 14 and sum(reason is None for _, reason in attempts) == len(full) == 4
    first = {key for key, _ in attempts[:5]}  # the run killed after five rollouts
    rest, rest_attempts = run(skip=first)
    assert {key for key, _ in rest_attempts} == {key for key, _ in attempts} - first
    assert sorted((t.meta["id"], t.meta["sample"]) for t in rest) == sorted(
        (t.meta["id"], t.meta["sample"]) for t in full if (t.meta["id"], t.meta["sample"]) not in first
    )


def test_synthesize_resume_keeps_complete_records_and_redoes_only_the_rest(tmp_path, monkeypatch, tiny_engine):
    """The script's --resume: a torn last line is cut, attempted rollouts are skipped (a trajectory written just
    before the kill counts as attempted), unfinished plans are redone once."""
    import importlib.util

    from atf import jsonl
    from atf.agent.trajectory import Trajectory

    spec = importlib.util.spec_from_file_location("synthesize", "data_gen/synthesize.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out, progress = tmp_path / "t.jsonl", tmp_path / "t.jsonl.progress"
    teacher_meta = {"id": "p0", "sample": 0, "source": "teacher:x"}
    t0 = Trajectory(problem="q0", messages=[], meta=dict(teacher_meta)).to_dict()
    t1 = Trajectory(problem="q1", messages=[], meta={"id": "p1", "sample": 1, "source": "teacher:x"}).to_dict()
    plan = Trajectory(problem="q2", messages=[], meta={"id": "p2", "source": "synth:direct"}).to_dict()
    jsonl.write_jsonl(out, [t0, plan, t1])
    with open(out, "a", encoding="utf-8") as f:
        f.write('{"problem": "torn')
    jsonl.write_jsonl(
        progress,
        [{"id": "p0", "sample": 0, "dropped": None}, {"id": "p3", "sample": 0, "dropped": "not_passed:length"}],
    )
    attempted, plans_done = mod.resume_state(out, progress)
    assert attempted == {("p0", 0), ("p1", 1), ("p3", 0)} and not plans_done
    assert [r["problem"] for r in jsonl.read_jsonl(out)] == ["q0", "q1"]  # plan records go: redone whole
    jsonl.write_jsonl(progress, [{"plans": "done"}], append=True)
    assert mod.resume_state(out, progress)[1]
    with pytest.raises(SystemExit):
        mod.main(["--plans", "--resume", "--append", "-o", str(out)])


def test_chat_teacher_gets_the_students_token_view(tiny_engine):
    """A teacher without the student's tokenizer (an HTTP server) runs in chat mode; its kept rollouts get the
    student's token view, with every assistant turn under loss and nothing else."""
    from atf.agent.tokens import encode, render_text
    from atf.train.synth import teacher_trajectories

    tok = tiny_engine.tokenizer
    problems = [problem(i) for i in range(2)]
    teacher = scripted_teacher(problems, None)
    kept, stats = teacher_trajectories(problems, teacher, tools_for(problems), tokenizer=tok)
    assert stats.kept == {"teacher": 2}
    for t in kept:
        assert t.meta["mode"] == "chat" and t.meta["token_view"] == "retokenized"
        assert t.prompt_ids + t.completion_ids == encode(tok, render_text(tok, t.messages, t.tools, False))
        under_loss = loss_text(tok, t)
        assert under_loss.count("<tool_call>") == len(t.calls) and "tool_response" not in under_loss


def test_expert_iteration_refuses_test_problems(data_dir):
    from atf.train.expert_iteration import training_problems

    assert len(training_problems(["minif2f:valid"], limit=3)) == 3
    with pytest.raises(ValueError, match="test-split"):
        training_problems(["minif2f:test"], limit=1)
    with pytest.raises(ValueError, match="test-split"):
        training_problems(["minif2f"])  # both splits


# ---------------------------------------------------------------- problems at scale


def numina_rows():
    return [
        {
            "name": "n1",
            "informal_statement": "Find all real x with x^2 = 4.",
            "solution": "x = 2 or x = -2",
            "source": "olympiads",
        },
        {"name": "n2", "informal_statement": "Show that 7 divides 2^6 - 1.", "solution": "63 = 7 * 9", "source": "amc"},
    ]


def test_user_problem_files_are_training_data(tmp_path):
    import datasets

    from atf.data.benchmarks import load_problems, parse_field_mapping, training_split

    fields = parse_field_mapping(["problem=informal_statement", "id=name"])
    assert fields == {"informal": "informal_statement", "id": "name"}
    parquet = tmp_path / "numina.parquet"
    datasets.Dataset.from_list(numina_rows()).to_parquet(str(parquet))
    jsonl = tmp_path / "mine.jsonl"
    jsonl.write_text("\n".join(json.dumps(r) for r in numina_rows()) + "\n")
    arrow_dir = tmp_path / "saved"
    datasets.DatasetDict(
        {"train": datasets.Dataset.from_list(numina_rows()[:1]), "test": datasets.Dataset.from_list(numina_rows()[1:])}
    ).save_to_disk(str(arrow_dir))
    for source in (parquet, jsonl):
        ps = load_problems(str(source), None, fields)
        assert [(p.id, p.split, p.informal) for p in ps] == [
            ("n1", "train", "Find all real x with x^2 = 4."),
            ("n2", "train", "Show that 7 divides 2^6 - 1."),
        ]
        assert load_problems(str(source), training_split(str(source)), fields) == ps
    ps = load_problems(str(jsonl))  # default columns: `informal_statement` and `name` are read without a mapping
    assert [p.id for p in ps] == ["n1", "n2"]
    saved = load_problems(str(arrow_dir), None, fields)
    assert [(p.id, p.split) for p in saved] == [("n1", "train"), ("n2", "test")]  # a dataset's own splits are kept
    with_split = tmp_path / "split.jsonl"
    with_split.write_text(
        json.dumps({"problem": "Show 1 = 1.", "split": "test"}) + "\n" + json.dumps({"problem": "Show 2 = 2."}) + "\n"
    )
    assert [p.split for p in load_problems(str(with_split))] == ["test", "train"]
    with pytest.raises(KeyError, match="column 'statement'"):
        load_problems(str(parquet), None, {"informal": "statement"})
    with pytest.raises(ValueError, match="FIELD=COLUMN"):
        parse_field_mapping(["problem"])
    with pytest.raises(ValueError, match="FIELD=COLUMN"):
        parse_field_mapping(["answer=solution"])
    unmapped = tmp_path / "unmapped.jsonl"
    unmapped.write_text(json.dumps({"statement_text": "Show 1 = 1."}) + "\n")
    with pytest.raises(ValueError, match="--field problem=COLUMN"):
        load_problems(str(unmapped))
    with pytest.raises(FileNotFoundError, match="neither a benchmark"):
        load_problems(str(tmp_path / "missing.jsonl"))  # not a file, and (offline) not a hub dataset either


def test_decontamination_drops_copies_rewordings_and_embeddings_of_test_problems():
    from atf.data.decontaminate import Decontaminator, decontaminate, ngrams, words

    def item(pid, source, text):
        return BenchmarkProblem(pid, source, "test" if source == "bench" else "train", text, "", "")

    test = [
        item("t1", "bench", "What is the remainder when $2^{2010}$ is divided by 7? Show that it is 4."),
        item("t2", "bench", "Let $f(x) = 3x + 2$. Find $f(f(1))$. Show that it is 17."),
        item(
            "t3",
            "bench",
            "Find the units digit of 3^7. $\\textbf{(A)}\\ 5 \\qquad\\textbf{(B)}\\ 6 \\qquad"
            "\\textbf{(C)}\\ 7 \\qquad\\textbf{(D)}\\ 8 \\qquad\\textbf{(E)}\\ 9$ Show that it is \\textbf{(C)}\\ 7.",
        ),
    ]
    index = Decontaminator(test)
    train = [
        item("copy", "mine", "What is the remainder when 2^{2010} is divided by 7? Show that it is 4."),
        item("reworded", "mine", "Let \\(f(x)=3x+2\\). Find \\(f(f(1))\\). Show that it is 18."),
        item(
            "embedded",
            "mine",
            "Warm-up. What is the remainder when $2^{2010}$ is divided by 7? Show that it is 4. "
            "Then generalise to any odd modulus and prove your claim carefully with full justification.",
        ),
        item("other", "mine", "Prove that the sum of the first n odd numbers is n squared."),
        item("near", "mine", "What is the remainder when 3^100 is divided by 5? Show it is 1."),
        item(
            "amc",
            "mine",
            "How many primes are below 20? $\\textbf{(A)}\\ 5 \\qquad\\textbf{(B)}\\ 6 \\qquad"
            "\\textbf{(C)}\\ 7 \\qquad\\textbf{(D)}\\ 8 \\qquad\\textbf{(E)}\\ 9$ Show that it is \\textbf{(D)}\\ 8.",
        ),
    ]
    kept, dropped = decontaminate(train, index)
    assert [p.id for p in kept] == ["other", "near", "amc"]  # the same answer choices do not make the same problem
    assert [(p.id, m.id) for p, m in dropped] == [("copy", "t1"), ("reworded", "t2"), ("embedded", "t1")]
    assert dropped[0][1].overlap == 1.0
    assert (
        words("$\\frac{1}{2}$ + X") == ["frac", "1", "2", "x"]
        and ngrams("a b", 8) == {("a", "b")}
        and ngrams("") == set()
    )


@pytest.mark.integration
def test_decontamination_against_the_real_test_splits(data_dir):
    from atf.data.decontaminate import (
        Decontaminator,
        benchmark_test_splits,
        decontaminate,
    )

    test = benchmark_test_splits()
    assert {p.benchmark for p in test} == set(__import__("atf.data.benchmarks", fromlist=["BENCHMARKS"]).BENCHMARKS)
    index = Decontaminator(test)
    valid = load_benchmark("minif2f", "valid")
    sample = [test[0], BenchmarkProblem("x", "mine", "train", "Prove " + test[-1].informal, "", "")] + valid[:40]
    kept, dropped = decontaminate(sample, index)
    assert [p.id for p, _ in dropped][:2] == [test[0].id, "x"]
    assert len(kept) >= 35  # valid problems are mostly not copies of test ones


@pytest.mark.integration
def test_synthesize_script_reads_a_users_parquet_with_a_field_mapping(tmp_path, capsys, tiny_engine):
    import datasets

    spec = __import__("importlib.util").util.spec_from_file_location("synthesize", "data_gen/synthesize.py")
    mod = __import__("importlib.util").util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    tiny = tmp_path / "tok"
    tiny_engine.tokenizer.save_pretrained(tiny)
    rows = [
        {"name": f"u{i}", "text": f"Integers x > y > 0 satisfy x+y+xy=80 (case {i}). Show that x = 26.", "lean": GOLD}
        for i in range(2)
    ]
    parquet = tmp_path / "mine.parquet"
    datasets.Dataset.from_list(rows).to_parquet(str(parquet))
    out = tmp_path / "out.jsonl"
    args = [
        "--benchmarks",
        str(parquet),
        "--field",
        "problem=text",
        "--field",
        "id=name",
        "--field",
        "formal=lean",
        "--plans",
        "direct",
        "fix_meaning",
        "--tokenizer",
        str(tiny),
        "--out",
        str(out),
        "--no-decontaminate",
    ]
    assert mod.main(args) == 0
    trajs = list(read_jsonl(out))
    assert sorted(t.meta["id"] for t in trajs) == ["u0", "u0", "u1", "u1"] and all(
        t.meta["split"] == "train" for t in trajs
    )
    err = capsys.readouterr().err
    assert "mix (kept): synth:direct 2, synth:fix_meaning 2" in err and "0 of 4 successes (0%)" in err
    with pytest.raises(SystemExit, match="nothing to synthesize"):
        mod.main(["--benchmarks", str(parquet), "--plans", "--out", str(out)])
    with pytest.raises(SystemExit, match="needs gold statements"):
        mod.main(
            [
                "--benchmarks",
                str(parquet),
                "--field",
                "problem=text",
                "--plans",
                "direct",
                "--tokenizer",
                str(tiny),
                "--out",
                str(out),
                "--no-decontaminate",
            ]
        )


def load_learning_check():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("learning_check", "eval/learning_check.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["learning_check"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_learning_check_measures_what_the_issue_asks():
    from atf.agent.trajectory import ToolCall, Trajectory

    mod = load_learning_check()
    args = mod.build_parser().parse_args(["--max-steps", "3", "--budget-s", "30", "--eval-limit", "4"])
    assert (args.max_steps, args.budget_s, args.eval_limit, args.model) == (3, 30.0, 4, "smollm2")
    base = {"problem": "p", "messages": []}
    trajs = [
        Trajectory(
            **base,
            calls=[ToolCall("syntax_check", {"statement": "s"}, True, "ok")],
            syntax_ok=True,
            revisions=1,
            stop_reason="no_tool_call",
        ),
        Trajectory(
            problem="p",
            messages=[{"role": "assistant", "content": "<tool_call>\n{oops"}],
            calls=[ToolCall("?", {}, None, "Error")],
            stop_reason="no_tool_call",
        ),  # a block, but malformed: not well-formed
        Trajectory(
            **base,
            calls=[
                ToolCall("syntax_check", {"statement": "s"}, False, "error"),
                ToolCall("syntax_check", {"statement": "t"}, False, "error"),
            ],
            revisions=2,
            stop_reason="turn_limit",
        ),
        Trajectory(**base, stop_reason="length"),
    ]
    m = mod.measure(trajs, 1.0)
    assert (m.tool_call_block, m.well_formed_call, m.precheck_pass, m.mean_revisions) == (0.25, 0.5, 0.25, 0.75)
    assert m.stop_reasons == {"no_tool_call": 2, "turn_limit": 1, "length": 1}
    assert mod.length_share(m) == 0.25  # the rollouts a repetition loop ends


def test_learning_check_trains_only_the_top_blocks(tiny_engine):
    import torch

    from atf.llm.models import tiny_model

    model, _ = tiny_model(tiny_engine.tokenizer, hidden_size=16, num_layers=3)
    mod = load_learning_check()
    mod.freeze_callback(2).on_train_begin(None, None, None, model=model)
    ids = torch.tensor([[1, 2, 3, 4]])
    model(input_ids=ids, labels=ids).loss.backward()
    blocks = model.model.layers
    assert model.get_input_embeddings().weight.grad is None  # tied to the output head: frozen too
    assert all(p.grad is None for p in blocks[0].parameters())
    assert all(p.grad is not None for b in blocks[1:] for p in b.parameters())


@pytest.mark.integration
def test_learning_check_runs_one_step_on_a_tiny_model(data_dir, tmp_path, tiny_engine, capsys):
    from atf.llm.models import tiny_model

    model, tok = tiny_model(tiny_engine.tokenizer, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "base")
    tok.save_pretrained(tmp_path / "base")
    mod = load_learning_check()
    out = tmp_path / "lc"
    assert (
        mod.main(
            [
                "--model",
                str(tmp_path / "base"),
                "--train-limit",
                "1",
                "--eval-limit",
                "2",
                "--max-steps",
                "1",
                "--max-new-tokens",
                "8",
                "--max-turns",
                "1",
                "--max-length",
                "1280",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    results = json.loads((out / "results.json").read_text())
    assert results["training"]["steps"] == 1 and results["before"]["rollouts"] == 2 == results["after"]["rollouts"]
    assert "well-formed tool call" in capsys.readouterr().out and (out / "model" / "config.json").exists()


@pytest.mark.integration
def test_synthesize_script_runs_a_teacher_engine_spec(data_dir, tmp_path, capsys, tiny_engine):
    """`--teacher hf:<dir>` goes through the real loop; a random model never calls a tool, so every rollout is
    rejected and counted by reason, and nothing is written."""
    from atf.llm.models import tiny_model

    model, tok = tiny_model(tiny_engine.tokenizer, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "teacher")
    tok.save_pretrained(tmp_path / "teacher")
    spec = __import__("importlib.util").util.spec_from_file_location("synthesize", "data_gen/synthesize.py")
    mod = __import__("importlib.util").util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "teacher.jsonl"
    assert (
        mod.main(
            [
                "--teacher",
                f"hf:{tmp_path / 'teacher'}",
                "--teacher-samples",
                "2",
                "--benchmarks",
                "minif2f",
                "--limit",
                "2",
                "--plans",
                "--tokenizer",
                str(tmp_path / "teacher"),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "mix (kept): none" in err and re.search(r"rejected: teacher:not_passed:(length|no_tool_call) \d", err)
    assert out.read_text() == ""


def test_learning_check_valid_probe_holds_its_problems_out_of_training(data_dir, tiny_engine):
    """--eval-split valid measures miniF2F valid problems: none of them may be in the training data."""
    mod = load_learning_check()
    probe = mod.eval_problems(1, "valid")
    assert [p.split for p in probe] == ["valid"] and probe[0].benchmark == "minif2f"
    trained, _ = mod.cold_start(tiny_engine.tokenizer, 2, ["direct"], 0)
    ids = {t.meta["id"] for t in trained}
    assert probe[0].id in ids  # the first valid problem is trained on unless held out
    held, _ = mod.cold_start(tiny_engine.tokenizer, 2, ["direct"], 0, held_out=probe)
    assert {t.meta["id"] for t in held} == ids - {probe[0].id}
