"""Training data and recipes: token-view SFT rows, tool-masked DPO batches, expert-iteration selection,
YAML + flags, resume from checkpoint."""

import json
import os
import re
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
    return [
        ToolResult(r.arguments["statement"].count("(") == r.arguments["statement"].count(")"), "checked")
        for r in requests
    ]


def sc(s):
    return format_tool_call("syntax_check", {"statement": s})


def cc(s):
    return format_tool_call("consistency_check", {"statement": s})


def rollouts(tok, scripts, max_revisions=8):
    tools = [FunctionTool("syntax_check", SYNTAX_SCHEMA, syntax), ReferenceConsistencyTool({p: GOLD for p in scripts})]
    return ToolLoop(ReplayEngine(scripts, tok), tools, AgentConfig(max_revisions=max_revisions, max_turns=30)).run(
        list(scripts)
    )


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

    chosen, rejected = rollouts(
        tok, {"Find x.": [sc(GOLD), cc(GOLD)], "Find x again.": [sc(WRONG), cc(WRONG), "I give up."]}
    )

    def ids(msgs):
        return tok.apply_chat_template(msgs, tools=chosen.tools, tokenize=True, return_dict=True)["input_ids"]

    prompt = tok.apply_chat_template(
        chosen.messages[:2], tools=chosen.tools, tokenize=True, add_generation_prompt=True, return_dict=True
    )["input_ids"]
    example = {
        "prompt_ids": prompt,
        "chosen_ids": ids(chosen.messages)[len(prompt) :],
        "rejected_ids": ids(chosen.messages[:2] + rejected.messages[2:])[len(prompt) :],
    }
    batch = ToolMaskedPreferenceCollator.from_tokenizer(tok)([example])
    for row in range(2):
        seq, mask = batch["input_ids"][row].tolist(), batch["completion_mask"][row].tolist()
        kept = tok.decode([i for i, m in zip(seq, mask) if m])
        assert (
            "<tool_call>" in kept
            and "tool_response" not in kept
            and "checked" not in kept
            and "<|im_start|>" not in kept
        )
        assert kept.count("<|im_end|>") == (2 if row == 0 else 3)  # each assistant turn ends on its own eos
    assert "Consistency check failed" in tok.decode(
        batch["input_ids"][1]
    )  # the tool text is in the sequence, just not in the loss


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
        repetition_penalty, frequency_penalty = 1.0, 0.3

    problems = [BenchmarkProblem(f"p{i}", "t", "valid", f"Problem {i}.", GOLD, "") for i in range(2)]
    engine = ReplayEngine({p.informal: [sc(GOLD), cc(GOLD)] for p in problems}, tok)
    seen = []
    generate = engine.generate
    engine.generate = lambda prompts, params: seen.append(params) or generate(prompts, params)
    tools = [
        FunctionTool("syntax_check", SYNTAX_SCHEMA, syntax),
        ReferenceConsistencyTool({p.informal: GOLD for p in problems}),
    ]
    out = tmp_path / "samples.jsonl"
    (done,) = rollouts(tok, {"Problem 0.": [sc(GOLD), cc(GOLD)]})
    done.meta.update(id="p0", sample=0)
    write_jsonl(out, [done])  # as if a crashed run had finished one rollout
    samples = sample_round(engine, problems, Args, out, 0, tools)
    assert sorted((t.meta["id"], t.meta["sample"]) for t in samples) == [("p0", 0), ("p0", 1), ("p1", 0), ("p1", 1)]
    assert (
        all(t.success for t in samples) and engine.calls == 2
    )  # 3 missing rollouts, two steps each, all in flight together
    assert seen and all(p.frequency_penalty == 0.3 and p.temperature == 0.7 for p in seen)  # the round's sampling


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
    write_jsonl(
        data, rollouts(tok, {"Find x.": [sc(WRONG), cc(WRONG), sc(GOLD), cc(GOLD)], "Find y.": [sc(GOLD), cc(GOLD)]})
    )
    common = [
        "--config",
        "configs/tiny/sft.yaml",
        "--model_name_or_path",
        str(tmp_path / "base"),
        "--train_files",
        str(data),
        "--output_dir",
        str(tmp_path / "out"),
        "--save_strategy",
        "steps",
        "--save_steps",
        "1",
        "--resume_from_checkpoint",
        "auto",
    ]
    recipe = load_recipe("sft")
    script_args, training_args, model_args = recipe.parse(common + ["--max_steps", "1"])
    assert (
        training_args.max_steps == 1 and training_args.per_device_train_batch_size == 1 and not training_args.bf16
    )  # flag + YAML
    assert script_args.train_files == [str(data)] and training_args.report_to == []
    recipe.main(script_args, training_args, model_args)
    assert (
        "SFT on 2 successful trajectories" in capsys.readouterr().out and (tmp_path / "out" / "checkpoint-1").is_dir()
    )
    trainer = recipe.main(*recipe.parse(common + ["--max_steps", "2"]))
    assert (
        f"resuming from {tmp_path / 'out' / 'checkpoint-1'}" in capsys.readouterr().out
        and trainer.state.global_step == 2
    )
    engine = load_engine(f"hf:{tmp_path / 'out'}")
    out = engine.generate([[1, 2, 3]], SamplingParams(max_new_tokens=4, temperature=0))
    assert 1 <= len(out[0][0].token_ids) <= 4
    with pytest.raises(ValueError, match="give --train_files"):
        recipe.main(
            *recipe.parse(
                ["--config", "configs/tiny/sft.yaml", "--model_name_or_path", "x", "--output_dir", str(tmp_path / "x")]
            )
        )


@pytest.mark.integration
def test_lora_sft_saves_a_merged_model_and_the_adapter(tok, tmp_path, monkeypatch):
    """The merged model's forward equals the base model plus the saved adapter (and differs from the base alone);
    with --push_to_hub the merged folder is what is uploaded (HfApi faked: no network)."""
    import huggingface_hub
    import torch
    import transformers
    from peft import PeftModel
    from safetensors.torch import load_file
    from transformers import AutoModelForCausalLM

    from atf.llm.models import tiny_model

    model, t = tiny_model(tok, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "base")
    t.save_pretrained(tmp_path / "base")
    data = tmp_path / "train.jsonl"
    write_jsonl(data, rollouts(tok, {"Find y.": [sc(GOLD), cc(GOLD)]}))
    uploads = []

    class FakeApi:
        def __init__(self, token=None):
            pass

        def create_repo(self, repo, private=None, exist_ok=False):
            uploads.append(("create", repo))

        def upload_folder(self, repo_id, folder_path, ignore_patterns=()):
            uploads.append(("upload", repo_id, sorted(p.name for p in Path(folder_path).iterdir())))

    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    monkeypatch.setattr(transformers.Trainer, "init_hf_repo", lambda self, *a, **k: None)
    recipe = load_recipe("sft")
    recipe.main(
        *recipe.parse(
            [
                "--config",
                "configs/tiny/sft.yaml",
                "--model_name_or_path",
                str(tmp_path / "base"),
                "--train_files",
                str(data),
                "--output_dir",
                str(tmp_path / "lora"),
                "--max_steps",
                "1",
                "--use_peft",
                "--lora_r",
                "4",
                "--lora_target_modules",
                "q_proj",
                "v_proj",
                "--learning_rate",
                "0.05",
                "--push_to_hub",
                "--hub_model_id",
                "me/atf-lora",
                "--hub_strategy",
                "end",
            ]
        )
    )
    assert (tmp_path / "lora" / "adapter" / "adapter_config.json").exists()
    before, after = (
        load_file(tmp_path / "base" / "model.safetensors"),
        load_file(tmp_path / "lora" / "model.safetensors"),
    )
    assert not any("lora" in k for k in after) and set(after) <= set(before)  # merged: plain weights only
    ids = torch.tensor([tok.encode("theorem t (x : ℕ) : x = x := by sorry")])
    with torch.no_grad():
        base = AutoModelForCausalLM.from_pretrained(tmp_path / "base").eval()
        base_logits = base(ids).logits
        with_adapter = PeftModel.from_pretrained(base, tmp_path / "lora" / "adapter").eval()(ids).logits
        merged = AutoModelForCausalLM.from_pretrained(tmp_path / "lora").eval()(ids).logits
    assert torch.allclose(merged, with_adapter, atol=1e-5)
    assert (merged - base_logits).abs().max() > 1e-4  # the adapter learnt something
    assert uploads[0] == ("create", "me/atf-lora")
    assert (
        uploads[-1][:2] == ("upload", "me/atf-lora")
        and "model.safetensors" in uploads[-1][2]
        and "adapter" in uploads[-1][2]
    )


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
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--nproc_per_node",
            "2",
            "recipes/expert_iteration.py",
            "--config",
            "configs/tiny/expert_iteration.yaml",
            "--model_name_or_path",
            str(tmp_path / "base"),
            "--seed_files",
            str(seed),
            "--output_dir",
            str(tmp_path / "ei"),
            "--limit",
            "4",
            "--ddp_backend",
            "gloo",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    r0 = tmp_path / "ei" / "round_0"
    shards = [list(read_jsonl(r0 / f"samples.rank{k}.jsonl")) for k in range(2)]
    assert [len(s) for s in shards] == [2, 2] and not {t.meta["id"] for t in shards[0]} & {
        t.meta["id"] for t in shards[1]
    }
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


def test_shards_are_even_and_shared_within_tensor_parallel_groups():
    from atf.train.colocate import is_group_leader, shard

    items = list(range(10))
    parts = [shard(items, r, 4) for r in range(4)]
    assert [len(p) for p in parts] == [3, 3, 2, 2] and sum(parts, []) == items
    tp2 = [shard(items, r, 4, tp=2) for r in range(4)]
    assert tp2[0] == tp2[1] == items[:5] and tp2[2] == tp2[3] == items[5:]  # a group runs one engine together
    assert [is_group_leader(r, 2) for r in range(4)] == [True, False, True, False]
    assert shard(items[:1], 1, 2) == [] and shard(items[:1], 0, 2) == [0]
    with pytest.raises(ValueError, match="must divide"):
        shard(items, 0, 3, tp=2)


class FakeLLM:
    """Stands in for `vllm.LLM` (not installed here): records how it was built and the sleep / wake / weight-load
    calls, generates by replaying scripts. The real calls are checked on a GPU by tests/gpu/check_vllm_colocate.py."""

    built: list = []

    def __init__(self, model, **kwargs):
        from atf.llm.models import load_tokenizer

        self.model, self.kwargs, self.calls = model, kwargs, []
        self._tok = load_tokenizer(model)
        FakeLLM.built.append(self)
        test = self

        class Model:
            def load_weights(self, weights):
                test.calls.append(("load_weights", [n for n, _ in weights]))

        self.llm_engine = type("E", (), {})()
        self.llm_engine.model_executor = type("X", (), {})()
        self.llm_engine.model_executor.driver_worker = type("W", (), {})()
        self.llm_engine.model_executor.driver_worker.model_runner = type("R", (), {"model": Model()})()

    def get_tokenizer(self):
        return self._tok

    def sleep(self, level):
        self.calls.append(("sleep", level))

    def wake_up(self, tags=None):
        self.calls.append(("wake_up", tuple(tags or ())))

    def reset_prefix_cache(self):
        self.calls.append(("reset_prefix_cache",))

    def generate(self, inputs, params, use_tqdm=False):
        self.calls.append(("generate", len(inputs)))
        text = format_tool_call("syntax_check", {"statement": GOLD})
        ids = self._tok.encode(text, add_special_tokens=False)
        out = type("O", (), {"token_ids": ids, "text": text, "finish_reason": "stop", "stop_reason": None})()
        return [type("RO", (), {"outputs": [out] * params.n})() for _ in inputs]


@pytest.mark.integration
def test_expert_iteration_colocates_one_sleeping_vllm_engine_per_process(tok, tmp_path, monkeypatch):
    """sampler=vllm builds one engine per process as TRL's colocate mode does, sleeps it for training and loads the
    trained weights into it for the next round; sampling, training and saving all run (vLLM faked, CPU)."""
    import sys
    import types

    from atf.llm.models import tiny_model

    model, t = tiny_model(tok, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "base")
    t.save_pretrained(tmp_path / "base")
    seed = tmp_path / "seed.jsonl"
    write_jsonl(seed, rollouts(tok, {"Find x.": [sc(GOLD), cc(GOLD)]}))
    fake = types.ModuleType("vllm")
    fake.LLM = FakeLLM
    fake.SamplingParams = lambda **kw: types.SimpleNamespace(**kw)
    monkeypatch.setitem(sys.modules, "vllm", fake)
    monkeypatch.setattr(FakeLLM, "built", [])
    for var in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        monkeypatch.setenv(var, "")  # so that monkeypatch removes what the engine sets, after the test
        monkeypatch.delenv(var)
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        "".join(
            json.dumps({"id": f"p{i}", "informal": f"Problem {i}.", "formal": GOLD, "split": "valid"}) + "\n"
            for i in range(2)
        )
    )
    recipe = load_recipe("expert_iteration")
    args = recipe.parse(
        [
            "--config",
            "configs/tiny/expert_iteration.yaml",
            "--model_name_or_path",
            str(tmp_path / "base"),
            "--problems",
            str(problems),
            "--seed_files",
            str(seed),
            "--output_dir",
            str(tmp_path / "ei"),
            "--rounds",
            "2",
            "--sampler",
            "vllm",
            "--vllm_gpu_memory_utilization",
            "0.25",
            "--max_turns",
            "1",
        ]
    )
    recipe.main(*args)
    (llm,) = FakeLLM.built  # one engine for both rounds
    assert llm.model == str(tmp_path / "base")
    assert llm.kwargs == {
        "tensor_parallel_size": 1,
        "gpu_memory_utilization": 0.25,
        "max_model_len": None,
        "enable_sleep_mode": True,
        "distributed_executor_backend": "external_launcher",
        "seed": 0,
        "max_num_batched_tokens": 4096,
    }
    assert os.environ["RANK"] == "0" and os.environ["WORLD_SIZE"] == "1" and os.environ["LOCAL_RANK"] == "0"
    names = [c[0] for c in llm.calls]
    # round 0 samples with the weights it was built with, sleeps for training; round 1 wakes, loads round 0's model
    first_sleep = names.index("sleep")
    assert names[:first_sleep] == ["generate"] and llm.calls[first_sleep] == ("sleep", 2)
    assert names[first_sleep + 1] == "wake_up" and llm.calls[first_sleep + 1] == ("wake_up", ("weights",))
    loads = [c for c in llm.calls if c[0] == "load_weights"]
    assert {n for _, ns in loads for n in ns} >= {"model.embed_tokens.weight", "model.layers.0.self_attn.q_proj.weight"}
    rest = [n for n in names[first_sleep + 1 :] if n != "load_weights"]
    assert rest == ["wake_up", "reset_prefix_cache", "wake_up", "generate", "sleep"] and llm.calls[-1] == ("sleep", 2)
    assert ("wake_up", ("kv_cache",)) in llm.calls
    assert (tmp_path / "ei" / "round_1" / ".complete").exists()


@pytest.mark.integration
def test_multi_cpu_accelerate_config_runs_two_processes(tmp_path):
    """`accelerate launch --config_file configs/accelerate/multi_cpu.yaml` starts 2 CPU processes that form one
    gloo group of world size 2 (TrainingArguments as the recipes build them, use_cpu as configs/tiny set it)."""
    import socket
    import subprocess
    import sys

    probe = tmp_path / "probe.py"
    probe.write_text(
        "import sys\nimport torch.distributed as dist\nfrom transformers import TrainingArguments\n"
        "a = TrainingArguments(output_dir=sys.argv[1], use_cpu=True, report_to='none')\n"
        # one write per rank (print writes the text and its newline apart, so two ranks' lines could interleave)
        "sys.stdout.write(f'rank {a.process_index} world {a.world_size} backend {dist.get_backend()}\\n')\n"
        "sys.stdout.flush()\n"
    )
    accelerate = Path(sys.executable).parent / "accelerate"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    with socket.socket() as s:  # the default port 29500 may be taken by another run on this machine
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = subprocess.run(
        [
            str(accelerate),
            "launch",
            "--config_file",
            "configs/accelerate/multi_cpu.yaml",
            "--main_process_port",
            str(port),
            str(probe),
            str(tmp_path / "o"),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = sorted(re.findall(r"rank \d+ world \d+ backend \w+", run.stdout))
    assert lines == ["rank 0 world 2 backend gloo", "rank 1 world 2 backend gloo"]


def test_eval_split_holds_out_whole_problems():
    from atf.train.data import split_by_problem

    items = [(f"problem {i % 5}", i) for i in range(20)]
    train, held = split_by_problem(items, lambda x: x[0], 0.2)
    assert len(held) == 4 and len({p for p, _ in held}) == 1 and not {p for p, _ in held} & {p for p, _ in train}
    assert split_by_problem(items, lambda x: x[0], 0.2) == (train, held)  # same problems every run
    assert split_by_problem(items, lambda x: x[0], 0.0) == (items, [])
    with pytest.raises(ValueError, match="eval_fraction"):
        split_by_problem(items, lambda x: x[0], 1.0)


@pytest.mark.integration
def test_sft_recipe_evaluates_during_training_and_pushes_to_the_hub(tok, tmp_path, monkeypatch, capsys):
    """--eval_fraction splits problems off, eval_strategy/eval_steps evaluate them; --push_to_hub / --hub_model_id
    reach TrainingArguments and the Trainer's push runs on the saved folder, chat template included (faked: no
    network)."""
    import transformers

    from atf.llm.models import tiny_model

    model, t = tiny_model(tok, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "base")
    t.save_pretrained(tmp_path / "base")
    data = tmp_path / "train.jsonl"
    write_jsonl(data, rollouts(tok, {f"Find x{i}.": [sc(GOLD), cc(GOLD)] for i in range(4)}))
    pushed = []

    def push_to_hub(self, *a, **k):
        config = json.loads((Path(self.args.output_dir) / "tokenizer_config.json").read_text())
        pushed.append(
            (
                self.args.hub_model_id,
                "chat_template" in config or (Path(self.args.output_dir) / "chat_template.jinja").exists(),
            )
        )

    monkeypatch.setattr(transformers.Trainer, "init_hf_repo", lambda self, *a, **k: None)  # network at Trainer init
    monkeypatch.setattr(transformers.Trainer, "push_to_hub", push_to_hub)
    recipe = load_recipe("sft")
    script_args, training_args, model_args = recipe.parse(
        [
            "--config",
            "configs/tiny/sft.yaml",
            "--model_name_or_path",
            str(tmp_path / "base"),
            "--train_files",
            str(data),
            "--output_dir",
            str(tmp_path / "out"),
            "--eval_fraction",
            "0.25",
            "--eval_strategy",
            "steps",
            "--eval_steps",
            "1",
            "--push_to_hub",
            "--hub_model_id",
            "me/atf-tiny",
        ]
    )
    assert (
        training_args.push_to_hub and training_args.hub_model_id == "me/atf-tiny" and script_args.eval_fraction == 0.25
    )
    trainer = recipe.main(script_args, training_args, model_args)
    assert "SFT on 3 successful trajectories" in capsys.readouterr().out
    assert [h["step"] for h in trainer.state.log_history if "eval_loss" in h] == [1, 2]
    assert pushed == [("me/atf-tiny", True)]
    with pytest.raises(ValueError, match="needs eval data"):
        recipe.main(
            *recipe.parse(
                [
                    "--config",
                    "configs/tiny/sft.yaml",
                    "--model_name_or_path",
                    str(tmp_path / "base"),
                    "--train_files",
                    str(data),
                    "--output_dir",
                    str(tmp_path / "x"),
                    "--eval_strategy",
                    "steps",
                ]
            )
        )
