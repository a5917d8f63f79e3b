"""Training data and recipes: token-view SFT rows, tool-masked DPO batches, expert-iteration selection,
YAML + flags, resume from checkpoint."""

from pathlib import Path

import pytest

from atf.agent.loop import AgentConfig, ToolLoop
from atf.agent.parsing import format_tool_call
from atf.agent.replay import ReplayEngine
from atf.agent.tools import SYNTAX_SCHEMA, FunctionTool, ToolResult
from atf.agent.trajectory import read_jsonl, write_jsonl
from atf.data.benchmarks import BenchmarkProblem
from atf.train.data import keep_for_sft, merge_dedupe, sft_rows
from atf.train.expert_iteration import sample_round, select
from atf.train.reference import ReferenceConsistencyTool

REPO = Path(__file__).resolve().parent.parent
GOLD = "import Mathlib\n\ntheorem t (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry"
WRONG = GOLD.replace("x = 2 :=", "x = 3 :=")


def syntax(requests):
    return [ToolResult(r.arguments["statement"].count("(") == r.arguments["statement"].count(")"), "checked") for r in requests]


def sc(s):
    return format_tool_call("syntax_check", {"statement": s})


def cc(s):
    return format_tool_call("consistency_check", {"statement": s})


def rollouts(tok, scripts, max_revisions=8):
    tools = [FunctionTool("syntax_check", SYNTAX_SCHEMA, syntax), ReferenceConsistencyTool({p: GOLD for p in scripts})]
    return ToolLoop(ReplayEngine(scripts, tok), tools, AgentConfig(max_revisions=max_revisions, max_turns=30)).run(list(scripts))


@pytest.fixture(scope="module")
def tok(tiny_engine):
    return tiny_engine.tokenizer


def test_sft_rows_train_on_sampled_tokens_only(tok):
    (t,) = rollouts(tok, {"Find x.": [sc(WRONG), cc(WRONG), sc(GOLD), cc(GOLD)]})
    (row,) = sft_rows([t], tok)
    assert row["input_ids"] == t.prompt_ids + t.completion_ids
    kept = tok.decode([i for i, m in zip(row["input_ids"], row["assistant_masks"]) if m])
    assert kept.count("<tool_call>") == 4 and "tool_response" not in kept and "Formalize" not in kept
    # messages-only trajectories (HTTP rollouts) get the same view from the template's generation markers
    t.prompt_ids = t.completion_ids = t.completion_mask = None
    assert sft_rows([t], tok) == [row]


def test_dpo_collator_masks_tool_responses(tok):
    from atf.train.collators import ToolMaskedPreferenceCollator

    chosen, rejected = rollouts(tok, {"Find x.": [sc(GOLD), cc(GOLD)], "Find x again.": [sc(WRONG), cc(WRONG), "I give up."]})
    def ids(msgs):
        return tok.apply_chat_template(msgs, tools=chosen.tools, tokenize=True, return_dict=True)["input_ids"]

    prompt = tok.apply_chat_template(chosen.messages[:2], tools=chosen.tools, tokenize=True, add_generation_prompt=True, return_dict=True)["input_ids"]
    example = {"prompt_ids": prompt, "chosen_ids": ids(chosen.messages)[len(prompt):], "rejected_ids": ids(chosen.messages[:2] + rejected.messages[2:])[len(prompt):]}
    batch = ToolMaskedPreferenceCollator.from_tokenizer(tok)([example])
    for row in range(2):
        seq, mask = batch["input_ids"][row].tolist(), batch["completion_mask"][row].tolist()
        kept = tok.decode([i for i, m in zip(seq, mask) if m])
        assert "<tool_call>" in kept and "tool_response" not in kept and "checked" not in kept and "<|im_start|>" not in kept
        assert kept.count("<|im_end|>") == (2 if row == 0 else 3)  # each assistant turn ends on its own eos
    assert "Inconsistent" in tok.decode(batch["input_ids"][1])  # the tool text is in the sequence, just not in the loss


def test_expert_iteration_keeps_successes_under_the_revision_limit_and_merges(tok, tmp_path):
    scripts = {
        "quick": [sc(GOLD), cc(GOLD)],
        "slow": [sc(WRONG), cc(WRONG)] * 8 + [sc(GOLD), cc(GOLD)],  # succeeds at its 9th revision
        "fail": [sc(WRONG), cc(WRONG), "no idea"],
    }
    trajs = rollouts(tok, scripts, max_revisions=10)
    assert [(t.success, t.revisions) for t in trajs] == [(True, 1), (True, 9), (False, 1)]
    kept = select(trajs, max_kept_revisions=8)
    assert [t.problem for t in kept] == ["quick"]
    again = rollouts(tok, {"quick": [sc(GOLD), cc(GOLD)]})
    assert len(merge_dedupe(kept, again)) == 1 and keep_for_sft(again[0], 8)


def test_sample_round_resumes_from_its_file(tok, tmp_path):
    class Args:
        samples_per_problem, max_revisions, max_turns, max_new_tokens, temperature = 2, 8, 4, 256, 0.7

    problems = [BenchmarkProblem(f"p{i}", "t", "valid", f"Problem {i}.", GOLD, "") for i in range(2)]
    engine = ReplayEngine({p.informal: [sc(GOLD), cc(GOLD)] for p in problems}, tok)
    tools = [FunctionTool("syntax_check", SYNTAX_SCHEMA, syntax), ReferenceConsistencyTool({p.informal: GOLD for p in problems})]
    out = tmp_path / "samples.jsonl"
    (done,) = rollouts(tok, {"Problem 0.": [sc(GOLD), cc(GOLD)]})
    done.meta.update(id="p0", sample=0)
    write_jsonl(out, [done])  # as if a crashed run had finished one rollout
    samples = sample_round(engine, problems, Args, out, 0, tools)
    assert sorted((t.meta["id"], t.meta["sample"]) for t in samples) == [("p0", 0), ("p0", 1), ("p1", 0), ("p1", 1)]
    assert all(t.success for t in samples) and engine.calls == 2  # 3 missing rollouts, two steps each, all in flight together


def load_recipe(name):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"recipe_{name}", REPO / "recipes" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.integration
def test_sft_recipe_composes_yaml_and_flags_and_resumes(tok, tmp_path, capsys):
    """recipes/sft.py in-process (tests/test_chain.py runs it as a script): YAML + CLI flags compose, a
    longer second run resumes from the first run's checkpoint, the saved model loads back and generates."""
    from atf.llm import SamplingParams, load_engine
    from atf.llm.models import tiny_model

    model, t = tiny_model(tok, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "base")
    t.save_pretrained(tmp_path / "base")
    data = tmp_path / "train.jsonl"
    write_jsonl(data, rollouts(tok, {"Find x.": [sc(WRONG), cc(WRONG), sc(GOLD), cc(GOLD)], "Find y.": [sc(GOLD), cc(GOLD)]}))
    common = ["--config", "configs/tiny/sft.yaml", "--model_name_or_path", str(tmp_path / "base"), "--train_files", str(data),
              "--output_dir", str(tmp_path / "out"), "--save_strategy", "steps", "--save_steps", "1", "--resume_from_checkpoint", "auto"]
    recipe = load_recipe("sft")
    script_args, training_args, model_args = recipe.parse(common + ["--max_steps", "1"])
    assert training_args.max_steps == 1 and training_args.per_device_train_batch_size == 1 and not training_args.bf16  # flag + YAML
    assert script_args.train_files == [str(data)] and training_args.report_to == []
    recipe.main(script_args, training_args, model_args)
    assert "SFT on 2 successful trajectories" in capsys.readouterr().out and (tmp_path / "out" / "checkpoint-1").is_dir()
    trainer = recipe.main(*recipe.parse(common + ["--max_steps", "2"]))
    assert f"resuming from {tmp_path / 'out' / 'checkpoint-1'}" in capsys.readouterr().out and trainer.state.global_step == 2
    engine = load_engine(f"hf:{tmp_path / 'out'}")
    out = engine.generate([[1, 2, 3]], SamplingParams(max_new_tokens=4, temperature=0))
    assert 1 <= len(out[0][0].token_ids) <= 4
    with pytest.raises(ValueError, match="give --train_files"):
        recipe.main(*recipe.parse(["--config", "configs/tiny/sft.yaml", "--model_name_or_path", "x", "--output_dir", str(tmp_path / "x")]))


@pytest.mark.integration
def test_lora_sft_saves_a_merged_model_and_the_adapter(tok, tmp_path):
    from safetensors.torch import load_file

    from atf.llm.models import tiny_model

    model, t = tiny_model(tok, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "base")
    t.save_pretrained(tmp_path / "base")
    data = tmp_path / "train.jsonl"
    write_jsonl(data, rollouts(tok, {"Find y.": [sc(GOLD), cc(GOLD)]}))
    recipe = load_recipe("sft")
    recipe.main(*recipe.parse(["--config", "configs/tiny/sft.yaml", "--model_name_or_path", str(tmp_path / "base"), "--train_files", str(data),
                               "--output_dir", str(tmp_path / "lora"), "--max_steps", "1", "--use_peft", "--lora_r", "4",
                               "--lora_target_modules", "q_proj", "v_proj", "--learning_rate", "0.05"]))
    assert (tmp_path / "lora" / "adapter" / "adapter_config.json").exists()
    before, after = load_file(tmp_path / "base" / "model.safetensors"), load_file(tmp_path / "lora" / "model.safetensors")
    assert not any("lora" in k for k in after) and set(after) <= set(before)  # merged: plain weights only
    diff = {k: (before[k] - after[k]).abs().max().item() for k in after}
    assert diff["model.layers.0.self_attn.q_proj.weight"] > 0 and diff["model.layers.0.mlp.up_proj.weight"] == 0


@pytest.mark.slow
def test_expert_iteration_under_two_processes(tok, tmp_path, data_dir):
    """Two data-parallel CPU processes (torchrun, gloo): each samples its share of the problems into its own
    file, both train on the merged data, one model is saved."""
    import os
    import subprocess
    import sys

    from atf.llm.models import tiny_model

    pytest.importorskip("atf.lean")
    model, t = tiny_model(tok, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "base")
    t.save_pretrained(tmp_path / "base")
    seed = tmp_path / "seed.jsonl"
    write_jsonl(seed, rollouts(tok, {"Find x.": [sc(GOLD), cc(GOLD)], "Find y.": [sc(GOLD), cc(GOLD)]}))
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "recipes/expert_iteration.py",
         "--config", "configs/tiny/expert_iteration.yaml", "--model_name_or_path", str(tmp_path / "base"),
         "--seed_files", str(seed), "--output_dir", str(tmp_path / "ei"), "--limit", "4", "--ddp_backend", "gloo"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=1800,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    r0 = tmp_path / "ei" / "round_0"
    shards = [list(read_jsonl(r0 / f"samples.rank{k}.jsonl")) for k in range(2)]
    assert [len(s) for s in shards] == [2, 2] and not {t.meta["id"] for t in shards[0]} & {t.meta["id"] for t in shards[1]}
    assert (r0 / ".complete").exists() and (r0 / "model.safetensors").exists()


@pytest.mark.parametrize("recipe", ["sft", "expert_iteration", "dpo"])
@pytest.mark.parametrize("folder", ["configs", "configs/tiny"])
def test_every_shipped_config_parses_with_its_recipe(recipe, folder):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"recipe_{recipe}", REPO / "recipes" / f"{recipe}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import torch

    # The GPU configs ask for bf16, which TrainingArguments refuses on a CPU-only machine.
    cpu = [] if torch.cuda.is_available() else ["--bf16", "false"]
    parsed = module.parse(["--config", str(REPO / folder / f"{recipe}.yaml"), *cpu])
    training_args = parsed[1]
    assert training_args.output_dir and training_args.learning_rate > 0
