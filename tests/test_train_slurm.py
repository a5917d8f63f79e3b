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
    _shim(bin_, "scontrol", 'echo node-a; echo node-b')
    _shim(bin_, "nvidia-smi", 'for i in 0 1 2 3; do echo "GPU $i: H100"; done')
    # srun: run the command once per node, as slurm would, with that node's SLURM_PROCID
    _shim(bin_, "srun", 'while [[ "$1" == --* ]]; do shift; done; for r in 0 1; do SLURM_PROCID=$r "$@"; done')
    _shim(bin_, "accelerate", f'echo "$@" >> {tmp_path}/launches.txt')
    env = {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}", "SLURM_JOB_NODELIST": "node-[a-b]", "SLURM_NNODES": "2", "SLURM_SUBMIT_DIR": str(REPO), "VIRTUAL_ENV": os.environ.get("VIRTUAL_ENV", "/venv")}
    logs_existed = (REPO / "logs").exists()
    run = subprocess.run(["bash", "slurm/train.sbatch", "dpo", "configs/dpo.yaml", "zero3", "--use_peft", "--learning_rate", "1e-6"],
                         cwd=REPO, env=env, capture_output=True, text=True)
    if not logs_existed and (REPO / "logs").is_dir() and not any((REPO / "logs").iterdir()):
        (REPO / "logs").rmdir()  # the script makes logs/ for slurm's output files
    assert run.returncode == 0, run.stderr
    launches = (tmp_path / "launches.txt").read_text().splitlines()
    assert len(launches) == 2
    for rank, line in enumerate(launches):
        assert f"--machine_rank {rank} " in line and "--main_process_ip node-a " in line and "--num_processes 8 " in line
        assert line.startswith("launch --config_file configs/accelerate/zero3.yaml --num_machines 2")
        assert line.endswith("recipes/dpo.py --config configs/dpo.yaml --use_peft --learning_rate 1e-6")
