"""slurm/*.sbatch: valid bash, and train.sbatch gives every node its machine rank and the main node's address
(run with stand-ins for srun / scontrol / nvidia-smi / accelerate that record what they were asked)."""

import os
import stat
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_sbatch_scripts_parse():
    scripts = sorted((REPO / "slurm").glob("*.sbatch"))
    assert {s.name for s in scripts} >= {"train.sbatch", "vllm_serve.sbatch", "tool_servers.sbatch"}
    for s in scripts:
        assert subprocess.run(["bash", "-n", str(s)], capture_output=True).returncode == 0, s


def _shim(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/bash\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_train_sbatch_launches_accelerate_per_node(tmp_path):
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    _shim(bin_, "scontrol", "echo node-a; echo node-b")
    _shim(bin_, "nvidia-smi", 'for i in 0 1 2 3; do echo "GPU $i: H100"; done')
    # srun: run the command once per node, as slurm would, with that node's SLURM_PROCID
    _shim(bin_, "srun", 'while [[ "$1" == --* ]]; do shift; done; for r in 0 1; do SLURM_PROCID=$r "$@"; done')
    _shim(bin_, "accelerate", f'echo "$@" >> {tmp_path}/launches.txt')
    env = {
        **os.environ,
        "PATH": f"{bin_}:{os.environ['PATH']}",
        "SLURM_JOB_NODELIST": "node-[a-b]",
        "SLURM_NNODES": "2",
        "SLURM_SUBMIT_DIR": str(REPO),
        "VIRTUAL_ENV": os.environ.get("VIRTUAL_ENV", "/venv"),
    }
    logs_existed = (REPO / "logs").exists()
    run = subprocess.run(
        ["bash", "slurm/train.sbatch", "dpo", "configs/dpo.yaml", "zero3", "--use_peft", "--learning_rate", "1e-6"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    if not logs_existed and (REPO / "logs").is_dir() and not any((REPO / "logs").iterdir()):
        (REPO / "logs").rmdir()  # the script makes logs/ for slurm's output files
    assert run.returncode == 0, run.stderr
    launches = (tmp_path / "launches.txt").read_text().splitlines()
    assert len(launches) == 2
    for rank, line in enumerate(launches):
        assert (
            f"--machine_rank {rank} " in line and "--main_process_ip node-a " in line and "--num_processes 8 " in line
        )
        assert line.startswith("launch --config_file configs/accelerate/zero3.yaml --num_machines 2")
        assert line.endswith("recipes/dpo.py --config configs/dpo.yaml --use_peft --learning_rate 1e-6")


def test_scripts_work_from_a_clean_clone():
    """Slurm opens `--output=logs/...` before the script runs: logs/ must be in the repo, not made by the script."""
    tracked = subprocess.run(["git", "ls-files", "logs"], cwd=REPO, capture_output=True, text=True).stdout.split()
    assert "logs/.gitkeep" in tracked
    ignored = subprocess.run(["git", "check-ignore", "-q", "logs/.gitkeep"], cwd=REPO).returncode
    assert (
        ignored == 1 and subprocess.run(["git", "check-ignore", "-q", "logs/atf-train-1.out"], cwd=REPO).returncode == 0
    )
    for s in (REPO / "slurm").glob("*.sbatch"):
        for line in s.read_text().splitlines():
            if line.startswith("#SBATCH --output="):
                assert (REPO / Path(line.split("=", 1)[1]).parent).is_dir(), (s.name, line)
    train = (REPO / "slurm" / "train.sbatch").read_text()
    assert "#SBATCH --requeue" in train and "#SBATCH --signal=B:USR1@" in train


def test_train_sbatch_checkpoints_and_requeues_on_usr1(tmp_path):
    """Slurm's USR1 (sent to the batch shell by --signal=B:USR1@120) makes training save and stop through
    $ATF_PREEMPT_FILE; the script waits for it, then `scontrol requeue`s the job. The srun stand-in plays training:
    it polls the flag file as PreemptionCallback does each step, and exits 75 as Preempted does."""
    import signal
    import time

    bin_ = tmp_path / "bin"
    bin_.mkdir()
    _shim(bin_, "scontrol", f'if [ "$1" = requeue ]; then echo "$@" >> {tmp_path}/scontrol.txt; else echo node-a; fi')
    _shim(bin_, "nvidia-smi", 'echo "GPU 0: H100"')
    _shim(
        bin_,
        "srun",
        f"echo started > {tmp_path}/started; "
        f'for i in $(seq 600); do if [ -e "$ATF_PREEMPT_FILE" ]; then echo saved > {tmp_path}/saved; exit 75; fi; '
        "sleep 0.1; done; exit 1",
    )
    env = {
        **os.environ,
        "PATH": f"{bin_}:{os.environ['PATH']}",
        "SLURM_JOB_NODELIST": "node-a",
        "SLURM_NNODES": "1",
        "SLURM_JOB_ID": "4242",
        "SLURM_SUBMIT_DIR": str(REPO),
        "VIRTUAL_ENV": "/venv",
    }
    job = subprocess.Popen(
        ["bash", "slurm/train.sbatch", "sft", "configs/sft.yaml", "ddp"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(300):
            if (tmp_path / "started").exists():
                break
            time.sleep(0.1)
        assert (tmp_path / "started").exists()
        job.send_signal(signal.SIGUSR1)
        _, err = job.communicate(timeout=60)
    finally:
        job.kill()
    assert job.returncode == 0, err
    assert (tmp_path / "saved").read_text().strip() == "saved"
    assert (tmp_path / "scontrol.txt").read_text().split() == ["requeue", "4242"]
    assert not (REPO / "logs" / "preempt-4242").exists()  # cleared for the requeued run
