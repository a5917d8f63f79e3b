"""GPU check of the training recipes with the shipped configs (bf16, activation checkpointing, 4096 tokens), the
part the CPU tests run in float32 with `use_cpu: true` (configs/tiny/*.yaml).

    python tests/gpu/check_train_cuda.py --cold cold.jsonl --pairs pairs.jsonl --out DIR

cold.jsonl comes from `data_gen/synthesize.py`, pairs.jsonl from `data_gen/build_dpo_pairs.py`. The model is a random
4-layer Llama with SmolLM2's tokenizer and ATF's chat template (`atf.llm.models.tiny_model`): the shipped weights do not
fit in what travels to a GPU machine here, and the check is about the CUDA path, not the model. Stages:
  1. SFT with configs/sft.yaml (bf16 weights, gradient checkpointing, batch 4 x 4) in-process: loss finite and falling,
     every tensor of the saved model changed is bf16, the saved model loads and generates on the GPU;
  2. SFT with LoRA (use_peft, all-linear), merged on save: the merged model differs from the base and generates;
  3. DPO + NLL with configs/dpo.yaml (`loss_type: [sigmoid, sft]`) run as users run it, `accelerate launch
     recipes/dpo.py`: exit 0, the logged chosen/rejected rewards are finite, the saved model differs from its start.
Prints one JSON line per stage and writes them to DIR/gpu_train_check.jsonl; exits 1 if a check fails.

Status: written when a GPU was to be lent and then was not; it has not yet run on a GPU. Its `--cpu` flow ran here
through SFT's training steps (loss logged) before the run was stopped for time.
On a GPU machine without TRL: carry the wheels of trl, datasets, dill and multiprocess and put them on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def load_script(path: str):
    spec = importlib.util.spec_from_file_location(Path(path).stem + "_script", REPO / path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def max_change(before: Path, after: Path) -> tuple[float, set[str]]:
    from safetensors.torch import load_file

    a, b = load_file(before / "model.safetensors"), load_file(after / "model.safetensors")
    common = set(a) & set(b)
    return max((a[k].float() - b[k].float()).abs().max().item() for k in common), {str(b[k].dtype) for k in b}


def generates_on(path: Path, device: str) -> int:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.bfloat16).to(device)
    text = tok.apply_chat_template(
        [{"role": "user", "content": "Show that 1 + 1 = 2."}], tokenize=False, add_generation_prompt=True
    )
    ids = tok(text, return_tensors="pt").to(device)
    out = model.generate(**ids, max_new_tokens=8, do_sample=False)
    return int(out.shape[1] - ids["input_ids"].shape[1])


def losses(trainer) -> list[float]:
    return [row["loss"] for row in trainer.state.log_history if "loss" in row]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cold", required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sft-steps", type=int, default=40)
    ap.add_argument("--dpo-steps", type=int, default=10)
    ap.add_argument("--cpu", action="store_true", help="dry run of the flow on CPU in float32 (the bf16 checks fail)")
    args = ap.parse_args(argv)

    import torch
    import transformers
    import trl

    from atf.llm.models import tiny_model

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results, failures = [], []

    def report(stage: str, ok: bool, **fields) -> None:
        row = {"stage": stage, "ok": ok, **fields}
        print(json.dumps(row), flush=True)
        results.append(row)
        if not ok:
            failures.append(stage)

    report(
        "env",
        torch.cuda.is_available(),
        torch=torch.__version__,
        transformers=transformers.__version__,
        trl=trl.__version__,
        device=torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
    )
    if not torch.cuda.is_available() and not args.cpu:
        return 1
    device = "cpu" if args.cpu else "cuda"

    work = out / "runs"
    base = work / "base"
    model, tok = tiny_model(hidden_size=256, num_layers=4, seed=0)
    model.save_pretrained(base)
    tok.save_pretrained(base)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    common = ["--report_to", "none", "--save_strategy", "no", "--logging_steps", "5", "--learning_rate", "1e-3"]
    if args.cpu:
        common += ["--use_cpu", "true", "--bf16", "false", "--dtype", "float32", "--max_length", "1024"]

    # 1. SFT with the shipped config
    sft_script = load_script("recipes/sft.py")

    def run_sft(output_dir: str, *flags: str):
        argv = ["--config", "configs/sft.yaml", "--model_name_or_path", str(base), "--train_files", args.cold]
        return sft_script.main(*sft_script.parse([*argv, "--output_dir", output_dir, *flags, *common]))

    sft = work / "sft"
    t0 = time.time()
    if not args.cpu:
        torch.cuda.reset_peak_memory_stats()
    trainer = run_sft(str(sft), "--max_steps", str(args.sft_steps), "--eval_steps", str(args.sft_steps))
    seconds = time.time() - t0
    ls = losses(trainer)
    evals = [row["eval_loss"] for row in trainer.state.log_history if "eval_loss" in row]
    change, dtypes = max_change(base, sft)
    report(
        "sft",
        bool(ls)
        and all(math.isfinite(x) for x in ls)
        and ls[-1] < ls[0]
        and change > 0
        and dtypes == {"torch.bfloat16"}
        and trainer.args.bf16
        and trainer.args.gradient_checkpointing
        and bool(evals),
        steps=trainer.state.global_step,
        loss_first=ls[0] if ls else None,
        loss_last=ls[-1] if ls else None,
        eval_loss=evals[-1] if evals else None,
        max_param_change=change,
        saved_dtypes=sorted(dtypes),
        gradient_checkpointing=trainer.args.gradient_checkpointing,
        peak_gib=None if args.cpu else round(torch.cuda.max_memory_allocated() / 2**30, 2),
        seconds=round(seconds, 1),
        generated_tokens=generates_on(sft, device),
    )
    del trainer
    if not args.cpu:
        torch.cuda.empty_cache()

    # 2. SFT with LoRA, merged on save
    lora = work / "sft_lora"
    trainer = run_sft(
        str(lora),
        "--max_steps",
        "10",
        "--eval_strategy",
        "no",
        "--use_peft",
        "true",
        "--lora_r",
        "8",
        "--lora_alpha",
        "16",
        "--lora_target_modules",
        "all-linear",
    )
    ls = losses(trainer)
    change, dtypes = max_change(base, lora)
    report(
        "sft_lora",
        bool(ls) and all(math.isfinite(x) for x in ls) and change > 0 and (lora / "model.safetensors").exists(),
        steps=trainer.state.global_step,
        loss_first=ls[0] if ls else None,
        loss_last=ls[-1] if ls else None,
        max_param_change=change,
        merged_files=sorted(p.name for p in lora.iterdir() if p.suffix in (".safetensors", ".json"))[:8],
        generated_tokens=generates_on(lora, device),
    )
    del trainer
    if not args.cpu:
        torch.cuda.empty_cache()

    # 3. DPO + NLL as users launch it
    dpo = work / "dpo"
    t0 = time.time()
    cmd = [
        sys.executable,
        "-m",
        "accelerate.commands.launch",
        "--num_processes",
        "1",
        "--mixed_precision",
        "bf16",
        "recipes/dpo.py",
        "--config",
        "configs/dpo.yaml",
        "--model_name_or_path",
        str(sft),
        "--pair_files",
        args.pairs,
        "--output_dir",
        str(dpo),
        "--max_steps",
        str(args.dpo_steps),
        "--eval_steps",
        str(args.dpo_steps),
        "--report_to",
        "none",
        "--save_strategy",
        "no",
        "--logging_steps",
        "1",
        "--learning_rate",
        "1e-4",
        "--per_device_train_batch_size",
        "2",
        "--gradient_accumulation_steps",
        "2",
    ]
    if args.cpu:
        cmd[4:6] = ["--cpu"]
        cmd += ["--use_cpu", "true", "--bf16", "false", "--dtype", "float32", "--max_length", "1024"]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    (out / "dpo_stdout.txt").write_text(run.stdout[-20000:] + "\n--- stderr ---\n" + run.stderr[-20000:])
    logged = []
    for line in run.stdout.splitlines():
        line = line.strip()
        if line.startswith("{") and "rewards/chosen" in line:
            try:
                logged.append(eval(line, {"__builtins__": {}}, {"nan": float("nan"), "inf": float("inf")}))
            except Exception:  # noqa: BLE001 - a log line we cannot read is reported as missing
                pass
    rewards_ok = bool(logged) and all(
        math.isfinite(float(row["rewards/chosen"])) and math.isfinite(float(row["rewards/rejected"])) for row in logged
    )
    change = max_change(sft, dpo)[0] if (dpo / "model.safetensors").exists() else 0.0
    report(
        "dpo_accelerate_launch",
        run.returncode == 0 and rewards_ok and change > 0,
        returncode=run.returncode,
        logged_steps=len(logged),
        last=logged[-1] if logged else None,
        max_param_change=change,
        seconds=round(time.time() - t0, 1),
        stderr_tail=run.stderr[-600:] if run.returncode else "",
    )

    (out / "gpu_train_check.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
    print("FAILED: " + ", ".join(failures) if failures else "all checks passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
