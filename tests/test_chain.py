"""The whole chain on CPU with a tiny in-process model:
synth -> SFT step (as a script) -> expert-iteration round -> DPO step -> formalize.
Every training stage must change the parameters, and every saved model must load back and generate."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from safetensors.torch import load_file

from atf.agent.trajectory import read_jsonl

REPO = Path(__file__).resolve().parent.parent


def load_script(path):
    spec = importlib.util.spec_from_file_location(Path(path).stem + "_script", REPO / path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def changed(before: Path, after: Path) -> float:
    a, b = load_file(before / "model.safetensors"), load_file(after / "model.safetensors")
    common = set(a) & set(b)
    assert common, "no common tensors"
    return max((a[k].float() - b[k].float()).abs().max().item() for k in common)


def loads_and_generates(path: Path) -> None:
    from atf.llm import SamplingParams, load_engine

    engine = load_engine(f"hf:{path}")
    assert "{% generation %}" in engine.tokenizer.chat_template  # the ATF template travels with the checkpoint
    conversation = [{"role": "user", "content": "Show that 1 + 1 = 2."}]
    out = engine.chat([conversation], SamplingParams(max_new_tokens=4, temperature=0))
    assert 1 <= len(out[0][0].token_ids) <= 4


@pytest.mark.integration
def test_chain(data_dir, tmp_path, tiny_engine, capsys):
    pytest.importorskip("atf.lean")
    from atf.llm.models import tiny_model

    model, tok = tiny_model(tiny_engine.tokenizer, hidden_size=16, num_layers=1)
    base = tmp_path / "base"
    model.save_pretrained(base)
    tok.save_pretrained(base)

    # 1. cold-start synthesis on dev problems, replayed through the loop with the real syntax check
    cold = tmp_path / "cold.jsonl"
    synth = load_script("data_gen/synthesize.py")
    assert synth.main(["--benchmarks", "minif2f", "--limit", "3", "--tokenizer", str(base), "-o", str(cold)]) == 0
    trajs = list(read_jsonl(cold))
    assert sum(t.success for t in trajs) >= 3 and any(not t.success for t in trajs)

    # 2. SFT, run as a script with YAML + flags, wandb offline
    sft = tmp_path / "sft"
    env = {
        **os.environ,
        "WANDB_MODE": "offline",
        "WANDB_DIR": str(tmp_path),
        "HF_HUB_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }
    run = subprocess.run(
        [
            sys.executable,
            "recipes/sft.py",
            "--config",
            "configs/tiny/sft.yaml",
            "--model_name_or_path",
            str(base),
            "--train_files",
            str(cold),
            "--output_dir",
            str(sft),
            "--max_steps",
            "1",
            "--report_to",
            "wandb",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert list((tmp_path / "wandb").glob("offline-run-*"))
    assert changed(base, sft) > 0
    loads_and_generates(sft)

    # 3. one expert-iteration round: sample with the SFT model through the loop, merge with the seed data, train
    ei = load_script("recipes/expert_iteration.py")
    final = ei.main(
        *ei.parse(
            [
                "--config",
                "configs/tiny/expert_iteration.yaml",
                "--model_name_or_path",
                str(sft),
                "--seed_files",
                str(cold),
                "--output_dir",
                str(tmp_path / "ei"),
            ]
        )
    )
    round0 = tmp_path / "ei" / "round_0"
    assert final == str(round0) and (round0 / ".complete").exists()
    samples = list(read_jsonl(round0 / "samples.rank0.jsonl"))
    assert len(samples) == 2 and all(t.meta["round"] == 0 and t.meta["split"] == "valid" for t in samples)
    assert len(list(read_jsonl(round0 / "train.jsonl"))) >= sum(t.success for t in trajs)
    assert changed(sft, round0) > 0
    loads_and_generates(round0)

    # 4. DPO + NLL on pairs built from the trajectories
    pairs = tmp_path / "pairs.jsonl"
    build_pairs = load_script("data_gen/build_dpo_pairs.py")
    assert build_pairs.main(["-i", str(cold), str(round0 / "samples.rank0.jsonl"), "-o", str(pairs)]) == 0
    assert pairs.read_text().strip()
    dpo = load_script("recipes/dpo.py")
    script_args, training_args, model_args = dpo.parse(
        [
            "--config",
            "configs/tiny/dpo.yaml",
            "--model_name_or_path",
            str(round0),
            "--pair_files",
            str(pairs),
            "--output_dir",
            str(tmp_path / "dpo"),
        ]
    )
    assert training_args.loss_type == ["sigmoid", "sft"] and training_args.loss_weights == [1.0, 0.5]
    dpo.main(script_args, training_args, model_args)
    assert changed(round0, tmp_path / "dpo") > 0
    loads_and_generates(tmp_path / "dpo")

    # 5. formalize with the trained model and the real tools
    from atf.cli import main

    capsys.readouterr()
    code = main(
        [
            "formalize",
            "--engine",
            f"hf:{tmp_path / 'dpo'}",
            "-k",
            "2",
            "--max-new-tokens",
            "12",
            "--max-turns",
            "2",
            "--temperature",
            "0",
            "--json",
            "Show that for every natural number n, n + 0 = n.",
        ]
    )
    result = json.loads(capsys.readouterr().out)
    # A tiny model after one step per stage writes no <tool_call>: no statement, exit code 1, and each rollout
    # stops on its first turn, "length" when it used all 12 tokens, "no_tool_call" when it ended on eos.
    assert code == 1 and result["statement"] is None and len(result["samples"]) == 2
    eos = tiny_engine.tokenizer.eos_token_id
    for s in result["samples"]:
        assert s["meta"]["engine"].startswith("hf:") and s["meta"]["mode"] == "tokens"
        assert s["calls"] == [] and s["revisions"] == 0 and s["meta"]["turns"] == 1
        sampled = [t for t, m in zip(s["completion_ids"], s["completion_mask"]) if m]
        assert len(s["completion_ids"]) == len(s["completion_mask"]) and 1 <= len(sampled) <= 12
        expected = "length" if len(sampled) == 12 and sampled[-1] != eos else "no_tool_call"
        assert s["stop_reason"] == expected, (s["stop_reason"], len(sampled))
