"""Stop cleanly before Slurm kills the job: on SIGUSR1, or when the file named by $ATF_PREEMPT_FILE appears,
finish the current step, save a checkpoint, stop.

slurm/train.sbatch asks Slurm for USR1 ahead of the end (`#SBATCH --signal=B:USR1@120`, delivered to the batch
shell), creates that file on the shared filesystem (a signal would have to cross srun, accelerate and torchrun,
whose launchers die on USR1), waits for training to save, and requeues the job, which resumes from the checkpoint
(`resume_from_checkpoint: auto`). Under data parallelism the ranks agree (an all-reduce of the flag each step), so
all stop at the same step even when the file shows up on their nodes at different times.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

PREEMPTED_EXIT_CODE = 75  # EX_TEMPFAIL: try again later
PREEMPT_FILE_ENV = "ATF_PREEMPT_FILE"


class Preempted(SystemExit):
    """Training stopped on the preemption signal after saving a checkpoint (exit code 75)."""

    def __init__(self, message: str):
        super().__init__(PREEMPTED_EXIT_CODE)
        self.message = message

    def __str__(self) -> str:
        return self.message


class PreemptionCallback(TrainerCallback):
    """Sets a flag on `signum` (or sees $ATF_PREEMPT_FILE); at the next step end every rank saves and stops.
    `stopped` says it happened."""

    def __init__(self, signum: int = signal.SIGUSR1):
        self.signum = signum
        self.requested = False
        self.stopped = False
        self._previous: Any = None
        try:
            self._previous = signal.signal(signum, self._on_signal)
        except ValueError:  # not the main thread: signals cannot be caught here
            self._previous = None

    def _on_signal(self, signum: int, frame: Any) -> None:
        self.requested = True

    def restore(self) -> None:
        if self._previous is not None:
            signal.signal(self.signum, self._previous)
            self._previous = None

    def _requested_here(self) -> bool:
        flag_file = os.environ.get(PREEMPT_FILE_ENV)
        return self.requested or bool(flag_file and Path(flag_file).exists())

    def _any_rank(self) -> bool:
        import torch.distributed as dist

        if not (dist.is_available() and dist.is_initialized()):
            return self._requested_here()
        import torch
        from accelerate import PartialState

        flag = torch.tensor([1 if self._requested_here() else 0], device=PartialState().device)
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        return bool(flag.item())

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> Any:
        if self._any_rank():
            control.should_save = True
            control.should_training_stop = True
            self.stopped = True
        return control
