"""Expert-iteration sampling with vLLM inside the training processes, as TRL's GRPO `vllm_mode="colocate"` does
(trl/generation/vllm_generation.py):

  * one `vllm.LLM` per process, built with `distributed_executor_backend="external_launcher"` so that it joins the
    torch.distributed world `accelerate launch` made instead of spawning workers, a share of GPU memory per process
    (`gpu_memory_utilization`), and the same seed within a tensor-parallel group (`process_index // tp`);
  * `enable_sleep_mode=True`: after sampling, `llm.sleep(level=2)` frees its weights and KV cache for training;
    before the next round `wake_up(tags=["weights"])`, the newly trained weights are loaded into the engine's model
    (`load_weights`, TRL's path), then `wake_up(tags=["kv_cache"])`;
  * the problems are split evenly over tensor-parallel groups (shard sizes differ by at most one); the ranks of a
    group get the same shard, since they run one engine together.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def check_tensor_parallel(num_processes: int, tp: int) -> None:
    if tp < 1 or num_processes % tp:
        raise ValueError(
            f"vllm_tensor_parallel_size ({tp}) must divide the number of processes ({num_processes}) evenly"
        )


def shard(items: Sequence[T], process_index: int, num_processes: int, tp: int = 1) -> list[T]:
    """This process's contiguous share: groups of `tp` ranks, sizes differing by at most one, nothing lost or
    doubled."""
    check_tensor_parallel(num_processes, tp)
    groups, group = num_processes // tp, process_index // tp
    base, extra = divmod(len(items), groups)
    start = group * base + min(group, extra)
    return list(items[start : start + base + (1 if group < extra else 0)])


def is_group_leader(process_index: int, tp: int) -> bool:
    """The rank of a tensor-parallel group that writes the group's samples."""
    return process_index % tp == 0


def colocated_llm_kwargs(args: Any, process_index: int, num_processes: int) -> dict[str, Any]:
    """Arguments for `vllm.LLM` next to training (see module doc); `args` has the recipe's vllm_* fields."""
    tp = args.vllm_tensor_parallel_size
    check_tensor_parallel(num_processes, tp)
    return {
        "tensor_parallel_size": tp,
        "gpu_memory_utilization": args.vllm_gpu_memory_utilization,
        "max_model_len": args.vllm_max_model_length,
        "enable_sleep_mode": args.vllm_enable_sleep_mode,
        "distributed_executor_backend": "external_launcher",
        "seed": process_index // tp,
        "max_num_batched_tokens": 4096,  # TRL: vLLM's profiler is misled by the larger default next to training
    }


def set_distributed_env(process_index: int, local_process_index: int, num_processes: int) -> None:
    """external_launcher reads the torch.distributed environment (as TRL sets it before building the engine)."""
    os.environ["RANK"] = str(process_index)
    os.environ["LOCAL_RANK"] = str(local_process_index)
    os.environ["WORLD_SIZE"] = str(num_processes)
    os.environ.setdefault("MASTER_ADDR", "localhost")
    os.environ.setdefault("MASTER_PORT", "29500")


def checkpoint_weights(folder: str | Path):
    """(name, tensor) pairs of a saved checkpoint's safetensors files, one file at a time."""
    from safetensors.torch import load_file

    files = sorted(Path(folder).glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"no *.safetensors in {folder}")
    for f in files:
        yield from load_file(str(f)).items()


class ColocatedSampler:
    """The vLLM engine of this process for all rounds (see module doc).

    model_path: the starting checkpoint; args: the recipe's ExpertIterationArguments; state: accelerate's PartialState.
    """

    def __init__(self, model_path: str, args: Any, state: Any, chat_template: str | None = None):
        from atf.llm.vllm_engine import VLLMEngine

        set_distributed_env(state.process_index, state.local_process_index, state.num_processes)
        kwargs = colocated_llm_kwargs(args, state.process_index, state.num_processes)
        self.sleep_mode = kwargs["enable_sleep_mode"]
        self.engine = VLLMEngine(model_path, chat_template=chat_template, **kwargs)
        self.loaded = model_path
        self.asleep = False

    @property
    def llm(self) -> Any:
        return self.engine.llm

    def engine_for(self, model_path: str) -> Any:
        """Awake, with `model_path`'s weights (loaded in place when they changed or sleep dropped them)."""
        if self.asleep:
            self.llm.wake_up(tags=["weights"])
        if self.asleep or model_path != self.loaded:
            model = self.llm.llm_engine.model_executor.driver_worker.model_runner.model
            for name, tensor in checkpoint_weights(model_path):
                model.load_weights([(name, tensor)])
            self.llm.reset_prefix_cache()
            self.loaded = model_path
        if self.asleep:
            self.llm.wake_up(tags=["kv_cache"])
            self.asleep = False
        return self.engine

    def sleep(self) -> None:
        """Free the engine's GPU memory for training (level 2: weights too; they are reloaded next round)."""
        if self.sleep_mode and not self.asleep:
            self.llm.sleep(level=2)
            self.asleep = True
