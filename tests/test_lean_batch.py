"""Grouped batch compilation end to end: SyntaxChecker -> pool -> REPL pipes -> the protocol stand-in."""

import json
import sys
from pathlib import Path

import pytest

from atf.lean import SyntaxChecker, parse_statement
from atf.lean.batch import build_group, prepare
from tests.sandbox_support import needs_bwrap

STANDIN = str(Path(__file__).parent / "lean_standin.py")
H = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat\n\n"


def checker(tmp_path=None, *flags, **kwargs) -> SyntaxChecker:
    argv = [sys.executable, STANDIN, *flags]
    if tmp_path is not None:
        argv += ["--log", str(tmp_path / "sent.jsonl")]
    kwargs.setdefault("sandbox", "none")  # batching itself; test_lean_sandbox.py runs batches sandboxed
    # the stand-in loads a header at once: if an answer ever went missing, the retry on a fresh REPL would come
    # after 20 s instead of the 600 s meant for Mathlib, and the test would say so instead of hanging
    kwargs.setdefault("header_timeout_s", 20.0)
    return SyntaxChecker(argv, **kwargs)


def sent(tmp_path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "sent.jsonl").read_text().splitlines()]


MIXED = [
    H + "/-- fine -/\ntheorem a (x : ℝ) (h₀ : 0 < x) : 0 < x ^ 2 := by\n  sorry",
    H + "theorem a (x : ℝ) : x = x := by sorry",  # same name as the first: isolated by namespaces
    H + "theorem b (x : ℝ)\n    (h : STANDIN_ERROR x) :\n    x = x := by sorry",
    H + "def twice := 1\ndef twice := 2\ntheorem c : twice = 1 := by sorry",
    H + "noncomputable section\nabbrev c_solution : ℕ := sorry\ntheorem c : c_solution = 1 := by sorry",
    H + "instance : Inhabited ℕ := ⟨3⟩\ntheorem d : (default : ℕ) = 3 := by sorry",
    "import Mathlib\n\ntheorem e : (1 : ℕ) = 1 := by sorry",
]


def _summary(results):
    return [(r.ok, r.checked_by, r.failure, r.errors, r.goals) for r in results]


def test_grouped_verdicts_equal_one_by_one_verdicts_with_fewer_round_trips():
    with checker() as grouped, checker(group=False) as single:
        g = grouped.check_many(MIXED)
        s = single.check_many(MIXED)
        assert _summary(g) == _summary(s)
        # 2 headers: 2 loads; 5 groupable statements of the first header in 1 command, 1 alone, 1 of the second
        assert grouped.stats().header_loads == 2 and grouped.stats().round_trips == 2 + 3
        assert single.stats().round_trips == 2 + len(MIXED)
    assert [r.ok for r in g] == [True, True, False, False, True, True, True]
    assert all(r.checked_by == "lean" for r in g)
    # errors come back in each statement's own coordinates, with the wrapper's namespace stripped
    assert g[2].errors == ["9:9: Unknown identifier `STANDIN_ERROR`"]
    assert g[3].errors == ["9:4: 'twice' has already been declared"]
    assert g[0].goals == ["⊢ 0 < x ^ 2"]


def test_a_statement_that_swallows_the_rest_breaks_only_itself(tmp_path):
    stmts = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(6)]
    stmts[2] = H + "theorem t2 : STANDIN_SWALLOW 2 = 2 := by sorry"
    with checker(tmp_path) as c:
        results = c.check_many(stmts)
    assert [r.ok for r in results] == [True, True, False, True, True, True]
    assert results[2].errors == ["8:46: unterminated comment"]  # at the end of its own text, as Lean says
    cmds = [r["cmd"] for r in sent(tmp_path)[1:]]
    # one grouped command, then the breaker alone, then the statements after it regrouped
    assert len(cmds) == 3 and [c.count("#print") for c in cmds] == [6, 1, 3]


def test_messages_outside_every_block_make_the_group_fall_back_to_single_commands(tmp_path):
    stmts = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(4)]
    stmts[1] = H + "theorem t1 : STANDIN_STRAY = 1 := by sorry"
    with checker(tmp_path) as c:
        results = c.check_many(stmts)
    assert [r.ok for r in results] == [True, False, True, True]
    assert results[1].errors == ["8:42: unexpected end of input (stand-in: STANDIN_STRAY)"]
    assert len(sent(tmp_path)) == 1 + 1 + 4  # header, the group, then each statement alone


@pytest.mark.parametrize("split", ["bisect", "singles"])
def test_a_crash_inside_a_group_costs_only_the_crashing_statement(split):
    stmts = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(8)]
    stmts[5] = H + "theorem t5 : STANDIN_CRASH = 5 := by sorry"
    with checker(split=split) as c:
        results = c.check_many(stmts)
        stats = c.stats()
    assert [r.ok for r in results] == [i != 5 for i in range(8)]
    assert results[5].failure == "crash" and results[5].checked_by == "lean"
    assert "crashed while checking this statement" in results[5].errors[0]
    assert "INTERNAL PANIC" in results[5].feedback()
    assert stats.crashes >= 2  # the group, then the statement alone (and its one retry)


def test_a_slow_statement_times_out_alone():
    stmts = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(4)]
    stmts[1] = H + "theorem t1 : STANDIN_SLOW = 1 := by sorry"
    with checker(None, "--slow-s", "30", timeout_s=0.6, group_extra_s=0.1) as c:
        results = c.check_many(stmts)
    assert [r.failure for r in results] == [None, "timeout", None, None]
    assert "within 0.6 s" in results[1].errors[0]


def test_a_header_that_fails_to_load_fails_only_its_statements():
    stmts = ["import NonexistentLib\n\ntheorem a : 1 = 1 := by sorry", H + "theorem b : 1 = 1 := by sorry"]
    with checker() as c:
        bad, good = c.check_many(stmts)
    assert bad.failure == "header" and "unknown module prefix 'NonexistentLib'" in bad.errors[0]
    assert good.ok


def test_statements_failing_the_precheck_never_reach_lean(tmp_path):
    evil = H + '#eval IO.println "pwned"\ntheorem t : 1 = 1 := by sorry'
    with checker(tmp_path) as c:
        r, ok = c.check_many([evil, H + "theorem u : 1 = 1 := by sorry"])
    assert not r.ok and r.checked_by == "precheck" and r.failure == "precheck"
    assert "not sent to Lean" in r.feedback()
    assert ok.ok
    assert all("pwned" not in req.get("cmd", "") for req in sent(tmp_path))


def test_identical_statements_are_checked_once(tmp_path):
    s = H + "theorem t : 1 = 1 := by sorry"
    with checker(tmp_path) as c:
        results = c.check_many([s, s, s])
    assert [r.ok for r in results] == [True] * 3
    assert len(sent(tmp_path)) == 2  # the header and one (single-statement) command


def test_pool_runs_groups_in_parallel_and_prefers_workers_that_hold_the_header():
    one_header = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(12)]
    with checker(None, workers=2, max_group_size=3) as c:
        assert all(r.ok for r in c.check_many(one_header))
        stats = c.stats()
    assert stats.starts == 2 and stats.header_loads == 2 and stats.round_trips == 2 + 4  # both workers busy

    stmts = []
    for h in range(4):
        header = f"import Mathlib\nimport Extra{h}\n\n"
        stmts += [header + f"theorem t{h}_{i} : {i} = {i} := by sorry" for i in range(6)]
    with checker(None, workers=2, max_group_size=3) as c:
        assert all(r.ok for r in c.check_many(stmts))
        stats = c.stats()
    # 8 jobs over 4 headers: a worker keeps to headers it holds, so loads stay near one per header
    # (an idle worker may still take over the last job of another's header)
    assert 4 <= stats.header_loads <= 6 and stats.round_trips == stats.header_loads + 8


def test_default_header_and_positions_in_the_users_text():
    with checker(default_header="import Mathlib") as c:
        r = c.check("theorem t (x : ℕ) :\n  STANDIN_ERROR x := by sorry")
    assert r.errors == ["2:2: Unknown identifier `STANDIN_ERROR`"]
    assert "   2 |   STANDIN_ERROR x := by sorry\n     |   ^^^^^^^^^^^^^" in r.feedback()


def test_without_lean_results_say_precheck(monkeypatch, tmp_path):
    monkeypatch.delenv("ATF_LEAN_REPL", raising=False)
    monkeypatch.setenv("ATF_LEAN_HOME", str(tmp_path / "nothing-installed"))
    c = SyntaxChecker()
    assert not c.lean_available
    good, bad = c.check_many([H + "theorem t : 1 = 1 := by sorry", H + "theorem t : (1 = 1 := by sorry"])
    assert good.ok and good.checked_by == "precheck" and "Lean was not run" in good.feedback()
    assert "ATF_LEAN_REPL" in good.feedback()
    assert not bad.ok and bad.checked_by == "precheck"


@needs_bwrap
def test_repl_is_found_from_the_environment(monkeypatch):
    monkeypatch.setenv("ATF_LEAN_REPL", f"{sys.executable} {STANDIN}")
    with SyntaxChecker() as c:
        assert c.lean_available and c.check(H + "theorem t : 1 = 1 := by sorry").checked_by == "lean"


def test_group_command_layout_keeps_statements_apart():
    items = [prepare(parse_statement(s)) for s in MIXED[:2] + MIXED[4:5]]
    cmd = build_group(items)
    lines = cmd.text.split("\n")
    probes = [lines[k - 1] for k in cmd.probes]
    assert probes[:3] == ["#check @_root_.a", "#check @_root_.BigOperators.a", "#check @_root_.Real.a"]
    assert "#check @_root_.c_solution" in probes and "#check @_root_.Nat.c" in probes
    assert lines[len(cmd.probes)] == f"namespace {cmd.blocks[0].namespace}"
    for b in cmd.blocks:
        assert lines[b.first_line - 1] == f"namespace {b.namespace}"
        assert (
            lines[b.sentinel_line - 1] == f'#print "{b.marker}"' and lines[b.sentinel_line - 2] == f"end {b.namespace}"
        )
    # the noncomputable section the third statement leaves open is closed inside its block
    assert lines[cmd.blocks[2].sentinel_line - 3] == "end"
    assert prepare(parse_statement(MIXED[5])).alone_reason == "declares a global instance"


# -- the channel: a faulty answer fails or retries only its own statements (issue 9, item 3) ----------


@pytest.mark.integration
def test_faulty_answers_never_shift_a_verdict():
    base = [H + f"theorem t{i} : {'STANDIN_ERROR' if i % 3 == 0 else i} = {i} := by sorry" for i in range(10)]
    faults = {
        1: "STANDIN_STDERR_ANSWER",
        3: "STANDIN_DOUBLE",
        4: "STANDIN_DOUBLE_LATE",
        5: "STANDIN_MALFORMED",
        7: "STANDIN_UNKNOWN_SHAPE",
        8: "STANDIN_MISSING",
    }
    faulty = [s + (f"  -- {faults[i]}" if i in faults else "") for i, s in enumerate(base)]
    with checker(timeout_s=1.0) as clean_checker:
        expected = [(r.ok, r.errors) for r in clean_checker.check_many(base)]
    with checker(timeout_s=1.0) as c:
        got = c.check_many(faulty)
        stats = c.stats()
    for i, r in enumerate(got):
        if i in (5, 7):
            assert r.failure == "protocol" and not r.ok and "no valid answer" in r.errors[0], i
        elif i == 8:
            assert r.failure == "timeout", i
        else:
            assert (r.ok, r.errors) == expected[i], i
    assert stats.protocol_errors >= 4 and stats.timeouts == 2  # the group, then statement 8 alone


# -- grouping never changes a verdict (issue 9, item 4) --------------------------------------------


def _verdicts(stmts, group):
    from atf.lean import LeanRepl
    from atf.lean.batch import GroupChecker

    items = [prepare(parse_statement(s)) for s in stmts]
    with LeanRepl([sys.executable, STANDIN], sandbox="none") as repl:
        out = GroupChecker(repl, timeout_s=10, header_timeout_s=20).check(items[0].header, items, group=group)
    return [(v.ok, [m.data for m in v.errors]) for v in out]


M = "import Mathlib\n\n"
CLEAN = M + "theorem clean (x : ℕ) : x + 0 = x := by sorry"
USES_SQRT = M + "theorem uses_sqrt : sqrt 4 = 2 := by sorry"  # `sqrt` is `Real.sqrt` only under `open Real`
CROSS_TALK = {
    # generalized field notation looks for exactly `Nat.double`, which the wrapper would rename
    "dotted name": (
        [M + "def Nat.double (n : ℕ) : ℕ := 2 * n\ntheorem t (n : ℕ) : n.double = 2 * n := by sorry"],
        [(True, [])],
    ),
    # Mathlib has `add_comm` at the root: declaring it again is an error, but not inside a namespace
    "root lemma name": (
        [M + "theorem add_comm (a b : ℕ) : a + b = b + a := by sorry"],
        [(False, ["'add_comm' has already been declared"])],
    ),
    "protected at the root": (
        [M + "protected theorem foo : 1 = 1 := by sorry"],
        [(False, ["protected declarations must be in a namespace"])],
    ),
    # the names of the old wrapper namespaces (ATF_S<k>) could be guessed and reached from another statement
    "guessed wrapper name": (
        [
            M + "def helper : ℕ := 1\ntheorem t0 : helper = 1 := by sorry",
            M + "theorem t1 : ATF_S1.helper = 1 := by sorry",
        ],
        [(True, []), (False, ["Unknown identifier `ATF_S1.helper`"])],
    ),
    # a `mutual` left open takes the wrapper's `end`: the `open Real` before it then reaches later statements
    "open mutual": (
        [M + "open Real\nmutual\ntheorem m0 : 1 = 1 := by sorry", USES_SQRT],
        [(False, ["unexpected end of input; expected 'end'"]), (False, ["Unknown identifier `sqrt`"])],
    ),
    # a stray `end` closes the wrapper's namespace (Lean pops the scope before it checks the name)
    "stray end": (
        [M + "end\nopen Real\ntheorem e0 : 1 = 1 := by sorry", USES_SQRT],
        [(False, ["invalid 'end', insufficient scopes"]), (False, ["Unknown identifier `sqrt`"])],
    ),
    # a named section left open is closed by name inside the block (Lean rejects a bare `end` for it)
    "named section left open": (
        [M + "section Foo\nopen Real\ntheorem s0 : sqrt 4 = 2 := by sorry", USES_SQRT],
        [(True, []), (False, ["Unknown identifier `sqrt`"])],
    ),
    # balanced scoped commands stay inside their block (a guard: true before and after)
    "balanced open": (
        [M + "open Real\ntheorem o0 : sqrt 4 = 2 := by sorry", USES_SQRT],
        [(True, []), (False, ["Unknown identifier `sqrt`"])],
    ),
}


@pytest.mark.parametrize("case", sorted(CROSS_TALK))
def test_grouping_gives_the_verdicts_of_checking_alone(case):
    stmts, expected = CROSS_TALK[case]
    stmts = [CLEAN, *stmts, CLEAN.replace("clean", "clean2")]
    expected = [(True, []), *expected, (True, [])]
    alone = _verdicts(stmts, group=False)
    assert alone == expected  # the stand-in models Lean's behaviour for the case
    assert _verdicts(stmts, group=True) == alone


def test_a_name_that_exists_in_an_opened_namespace_is_checked_alone(tmp_path):
    # at the root, `succ_le_iff` would compete with `Nat.succ_le_iff` under `open Nat`; inside the wrapper,
    # `ATF_..succ_le_iff` shadows it: the probes find `Nat.succ_le_iff`, so Lean sees the statement alone
    stmts = [CLEAN, M + "open Nat\ntheorem succ_le_iff (m n : ℕ) : m < n := by sorry", CLEAN.replace("clean", "c2")]
    with checker(tmp_path) as c:
        assert [r.ok for r in c.check_many(stmts)] == [True, True, True]
    cmds = [r["cmd"] for r in sent(tmp_path) if "env" in r]
    assert "#check @_root_.Nat.succ_le_iff" in cmds[0] and cmds[1].startswith("\nopen Nat\ntheorem succ_le_iff")


def test_wrapper_names_and_sentinels_are_unpredictable():
    items = [prepare(parse_statement(s)) for s in MIXED[:2]]
    a, b = build_group(items), build_group(items)
    assert a.blocks[0].namespace != b.blocks[0].namespace and a.blocks[0].marker != b.blocks[0].marker
    assert len(a.tag) >= 16 and a.tag in a.blocks[1].namespace and a.tag in a.blocks[1].marker


# -- a hung statement costs one timeout, not its batch's (issue 9, item 5) ----------------------------


@pytest.mark.integration
@pytest.mark.parametrize("hung", [0, 5])
def test_a_hung_statement_costs_its_group_one_timeout_then_singles(tmp_path, hung):
    stmts = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(8)]
    stmts[hung] = H + f"theorem t{hung} : STANDIN_SLOW = 1 := by sorry"
    with checker(tmp_path, "--slow-s", "30", timeout_s=0.8) as c:
        results = c.check_many(stmts)
        stats = c.stats()
    assert [r.failure for r in results] == ["timeout" if i == hung else None for i in range(8)]
    assert all(r.ok for i, r in enumerate(results) if i != hung)
    # the group's one timeout, then each statement alone with its own timeout: two in all, never a bisection
    assert stats.timeouts == 2 and stats.starts == 3
    cmds = [r["cmd"] for r in sent(tmp_path) if "env" in r]
    assert [c.count("#print") for c in cmds] == [8] + [1] * 8


def test_statements_of_different_owners_never_share_a_command(tmp_path):
    stmts = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(5)]
    with checker(tmp_path) as c:
        results = c.check_many(stmts + [stmts[1]], owners=["a", "b", "a", "b", "c", "c"])
        with pytest.raises(ValueError, match="2 owners for 5 statements"):
            c.check_many(stmts, owners=["a", "b"])
    assert all(r.ok for r in results)
    cmds = sorted(r["cmd"] for r in sent(tmp_path) if "env" in r)
    assert sorted(tuple(f"t{i} :" in cmd for i in range(5)) for cmd in cmds) == sorted(
        [(True, False, True, False, False), (False, True, False, True, False), (False, False, False, False, True)]
    )


def test_a_hung_statement_never_delays_another_owners_verdicts(tmp_path):
    stmts = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(4)]
    stmts[0] = H + "theorem t0 : STANDIN_SLOW = 1 := by sorry"
    seen: list[int] = []
    with checker(tmp_path, "--slow-s", "30", timeout_s=1.5, workers=2) as c:
        results = c.check_many(stmts, on_result=lambda n, r: seen.append(n), owners=[0, 0, 1, 1])
    assert [r.failure for r in results] == ["timeout", None, None, None]
    # owner 1's group runs on the other worker: its verdicts come first; owner 0's clean statement waits for
    # its group's timeout (grouped with the hung one, as before)
    assert set(seen[:2]) == {2, 3} and len(seen) == 4
    cmds = [r["cmd"] for r in sent(tmp_path) if "env" in r]
    assert not any("t0 :" in cmd and "t2 :" in cmd for cmd in cmds)


def test_verdicts_are_handed_over_as_soon_as_they_are_known():
    from atf.lean import LeanRepl
    from atf.lean.batch import GroupChecker

    stmts = [H + f"theorem t{i} : {i} = {i} := by sorry" for i in range(4)]
    stmts[3] = H + "theorem t3 : STANDIN_SLOW = 1 := by sorry"
    items = [prepare(parse_statement(s)) for s in stmts]
    seen = []
    with LeanRepl([sys.executable, STANDIN, "--slow-s", "30"], sandbox="none") as repl:
        GroupChecker(repl, timeout_s=0.5).check(items[0].header, items, on_verdict=lambda i, v: seen.append((i, v.ok)))
    assert seen == [(0, True), (1, True), (2, True), (3, False)]


@pytest.mark.parametrize(
    "text,reason",
    [
        ("mutual\ntheorem a : 1 = 1 := by sorry\nend\ntheorem t : 1 = 1 := by sorry", "opens a `mutual`"),
        ("namespace Foo\ntheorem t : 1 = 1 := by sorry\nend Foo", "opens a `namespace`"),
        ("end\ntheorem t : 1 = 1 := by sorry", "closes a scope it did not open"),
        ("def Nat.double (n : ℕ) := 2 * n\ntheorem t : 1 = 1 := by sorry", "dotted name `Nat.double`"),
        ("protected theorem t : 1 = 1 := by sorry", "uses `protected`"),
        ('scoped notation "x" => 1\ntheorem t : 1 = 1 := by sorry', "uses `scoped`"),
        ("attribute [scoped simp] foo\ntheorem t : 1 = 1 := by sorry", "global or scoped attribute"),
        ('syntax "foo" : term\ntheorem t : 1 = 1 := by sorry', "uses `syntax`"),
        ("alias foo := bar\ntheorem t : 1 = 1 := by sorry", "uses `alias`"),
        ("theorem t : ATF_0123_0.x = 1 := by sorry", "wrapper's namespace"),
        ("theorem «my thm» : 1 = 1 := by sorry", "probes cannot name"),
        ('section\nopen Real\nlocal notation "τ" => 2 * π\ntheorem t : τ = τ := by sorry\nend', None),
        ("attribute [local simp] add_comm\nset_option maxRecDepth 1000 in\ntheorem t : 1 = 1 := by sorry", None),
    ],
)
def test_what_is_checked_alone(text, reason):
    got = prepare(parse_statement("import Mathlib\n" + text)).alone_reason
    assert (got is None) if reason is None else (reason in got), got
