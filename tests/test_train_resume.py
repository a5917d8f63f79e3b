"""Preemption: a run killed while writing a checkpoint resumes from the last complete one, and the resumed training
computes the same losses as an uninterrupted run; SIGUSR1 saves a checkpoint and stops."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from atf.agent.parsing import format_tool_call
from atf.agent.trajectory import write_jsonl
from atf.train.model import last_complete_checkpoint, resume_checkpoint

REPO = Path(__file__).resolve().parent.parent
GOLD = "import Mathlib\n\ntheorem t (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry"


def make_checkpoint(root: Path, step: int, state: str | None) -> Path:
    path = root / f"checkpoint-{step}"
    path.mkdir(parents=True)
    (path / "model.safetensors").write_bytes(b"x")
    if state is not None:
        (path / "trainer_state.json").write_text(state)
    return path


def test_resume_skips_checkpoints_without_a_readable_trainer_state(tmp_path):
    make_checkpoint(tmp_path, 2, json.dumps({"global_step": 2}))
    make_checkpoint(tmp_path, 10, json.dumps({"global_step": 10}))
    make_checkpoint(tmp_path, 11, '{"global_step": 1')  # cut short while writing
    make_checkpoint(tmp_path, 12, None)  # killed before trainer_state.json
    assert last_complete_checkpoint(tmp_path) == str(tmp_path / "checkpoint-10")  # numeric order, not text
    assert resume_checkpoint("auto", str(tmp_path)) == str(tmp_path / "checkpoint-10")
    assert (
        resume_checkpoint("auto", str(tmp_path / "none-yet")) is None
        and resume_checkpoint(False, str(tmp_path)) is None
    )
    with pytest.raises(ValueError, match="incomplete"):
        resume_checkpoint(str(tmp_path / "checkpoint-12"), str(tmp_path))


@pytest.fixture(scope="module")
def base_and_data(tiny_engine, tmp_path_factory):
    from atf.agent.loop import AgentConfig, ToolLoop
    from atf.agent.replay import ReplayEngine
    from atf.agent.tools import SYNTAX_SCHEMA, FunctionTool, ToolResult
    from atf.llm.models import tiny_model
    from atf.train.reference import ReferenceConsistencyTool

    tok = tiny_engine.tokenizer
    root = tmp_path_factory.mktemp("resume")
    model, t = tiny_model(tok, hidden_size=16, num_layers=1)
    model.save_pretrained(root / "base")
    t.save_pretrained(root / "base")
    problems = [f"Find x number {i}." for i in range(6)]
    scripts = {
        p: [
            format_tool_call("syntax_check", {"statement": GOLD}),
            format_tool_call("consistency_check", {"statement": GOLD}),
        ]
        for p in problems
    }
    tools = [
        FunctionTool("syntax_check", SYNTAX_SCHEMA, lambda rs: [ToolResult(True, "ok") for _ in rs]),
        ReferenceConsistencyTool({p: GOLD for p in problems}),
    ]
    write_jsonl(root / "train.jsonl", ToolLoop(ReplayEngine(scripts, tok), tools, AgentConfig()).run(problems))
    return root


def sft_args(root: Path, out: str, steps: int = 4, save_steps: int = 1) -> list[str]:
    return [
        "--config",
        "configs/tiny/sft.yaml",
        "--model_name_or_path",
        str(root / "base"),
        "--train_files",
        str(root / "train.jsonl"),
        "--output_dir",
        str(root / out),
        "--max_steps",
        str(steps),
        "--save_strategy",
        "steps",
        "--save_steps",
        str(save_steps),
        "--resume_from_checkpoint",
        "auto",
        "--learning_rate",
        "0.01",
    ]


def losses(trainer) -> dict[int, float]:
    return {h["step"]: h["loss"] for h in trainer.state.log_history if "loss" in h}


# Run in a subprocess: SIGKILL the process while it writes checkpoint-3 (after the weights, optimizer and RNG states,
# before trainer_state.json, the order transformers' Trainer._save_checkpoint writes them), as a preemption would.
KILL_MID_SAVE = """
import os, signal, sys
sys.path.insert(0, {repo!r})
from transformers.trainer_callback import TrainerState
real = TrainerState.save_to_json
def save_to_json(self, path):
    if self.global_step == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    real(self, path)
TrainerState.save_to_json = save_to_json
import importlib.util
spec = importlib.util.spec_from_file_location("sft", {repo!r} + "/recipes/sft.py")
sft = importlib.util.module_from_spec(spec); spec.loader.exec_module(sft)
sft.main(*sft.parse({argv!r}))
"""


@pytest.mark.integration
def test_killed_mid_save_resumes_with_the_uninterrupted_losses(base_and_data, capsys):
    from test_train import load_recipe

    root = base_and_data
    recipe = load_recipe("sft")
    whole = losses(recipe.main(*recipe.parse(sft_args(root, "whole"))))
    assert sorted(whole) == [1, 2, 3, 4]

    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1", "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "-c", KILL_MID_SAVE.format(repo=str(REPO), argv=sft_args(root, "killed"))],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == -9, run.stderr[-3000:]
    broken = root / "killed" / "checkpoint-3"
    assert broken.is_dir() and any(broken.glob("*.safetensors")) and not (broken / "trainer_state.json").exists()

    capsys.readouterr()
    resumed = recipe.main(*recipe.parse(sft_args(root, "killed")))
    assert f"resuming from {root / 'killed' / 'checkpoint-2'}" in capsys.readouterr().out  # the last complete one
    assert resumed.state.global_step == 4
    again = losses(resumed)  # steps 1-2 from checkpoint-2's log history, 3-4 computed after the resume
    assert sorted(again) == [1, 2, 3, 4]
    for step in (1, 2, 3, 4):
        assert again[step] == pytest.approx(whole[step], rel=1e-5, abs=1e-6), (step, again, whole)


@pytest.mark.integration
def test_sigusr1_saves_a_checkpoint_and_stops(base_and_data, monkeypatch):
    """SIGUSR1 (Slurm's notice) mid-run: the step ends with a complete checkpoint, Preempted (exit 75) is raised,
    nothing is saved as final; the rerun resumes from that checkpoint and finishes. $ATF_PREEMPT_FILE does the same."""
    import signal

    from test_train import load_recipe
    from transformers import TrainerCallback

    from atf.train.preemption import PREEMPT_FILE_ENV, Preempted

    class SignalAt(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):
            if state.global_step == 1:
                os.kill(os.getpid(), signal.SIGUSR1)

    import trl

    real_init = trl.SFTTrainer.__init__

    def init_with(self, *a, **kw):
        real_init(self, *a, **kw)
        self.add_callback(SignalAt())

    root = base_and_data
    recipe = load_recipe("sft")
    monkeypatch.setattr(trl.SFTTrainer, "__init__", init_with)
    with pytest.raises(Preempted) as stop:
        recipe.main(*recipe.parse(sft_args(root, "usr1", steps=3, save_steps=100)))
    assert stop.value.code == 75 and "step 2" in str(stop.value)
    assert sorted(p.name for p in (root / "usr1").glob("checkpoint-*")) == ["checkpoint-2"]  # saved on the signal only
    assert not (root / "usr1" / "model.safetensors").exists()
    monkeypatch.setattr(trl.SFTTrainer, "__init__", real_init)
    flag = root / "preempt-flag"
    flag.write_text("")
    monkeypatch.setenv(PREEMPT_FILE_ENV, str(flag))
    with pytest.raises(Preempted, match="step 3"):  # the flag file: stops after the first resumed step
        recipe.main(*recipe.parse(sft_args(root, "usr1", steps=4, save_steps=100)))
    assert last_complete_checkpoint(root / "usr1") == str(root / "usr1" / "checkpoint-3")
    flag.unlink()
    trainer = recipe.main(*recipe.parse(sft_args(root, "usr1", steps=4, save_steps=100)))
    assert trainer.state.global_step == 4 and (root / "usr1" / "model.safetensors").exists()
