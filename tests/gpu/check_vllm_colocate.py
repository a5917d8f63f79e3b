"""GPU check of expert iteration's colocated vLLM sampler (atf.train.colocate), the part CPU tests fake.

    pip install 'atf[serve]'   # vLLM
    python tests/gpu/check_vllm_colocate.py                              # one process
    accelerate launch --num_processes 2 tests/gpu/check_vllm_colocate.py # two ranks, even shards

Builds two small random Llama checkpoints (SmolLM2's tokenizer) A and B, then on each rank:
  1. builds the engine as training does (external_launcher, memory share, sleep mode) on A, samples greedily;
  2. sleeps it and prints how much GPU memory that gave back;
  3. wakes it with B's weights loaded in place: greedy tokens change; sleeps, wakes with A again: they are A's again
     (weights really reloaded after level-2 sleep);
  4. prints the share of greedy tokens equal to transformers' on B (a figure: vLLM may run float32 checkpoints in
     16-bit, and random weights give near-ties);
  5. runs one rollout of the real tool loop through it (token-in/token-out).
Prints one JSON line per rank with the figures; exits 1 if a check fails.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def make_checkpoint(folder: Path, seed: int) -> str:
    from atf.llm.models import tiny_model

    model, tok = tiny_model(hidden_size=256, num_layers=4, seed=seed)
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)


def hf_greedy(path: str, prompts: list[list[int]], n: int) -> list[list[int]]:
    from atf.llm import SamplingParams, load_engine

    engine = load_engine(f"hf:{path}")
    out = engine.generate(prompts, SamplingParams(max_new_tokens=n, temperature=0))
    return [row[0].token_ids for row in out]


def main() -> int:
    import torch
    from accelerate import PartialState

    from atf.agent.loop import AgentConfig, ToolLoop
    from atf.agent.tools import SyntaxCheckTool
    from atf.llm import SamplingParams, render_prompt
    from atf.train.colocate import ColocatedSampler, shard
    from atf.train.reference import ReferenceConsistencyTool

    state = PartialState()
    root = Path(tempfile.mkdtemp(prefix="atf-colocate-"))
    a, b = make_checkpoint(root / "a", 0), make_checkpoint(root / "b", 1)
    args = SimpleNamespace(
        vllm_gpu_memory_utilization=0.3,
        vllm_tensor_parallel_size=1,
        vllm_enable_sleep_mode=True,
        vllm_max_model_length=2048,
        chat_template=None,
    )
    t0 = time.time()
    sampler = ColocatedSampler(a, args, state)
    built_s = time.time() - t0
    tok = sampler.engine.tokenizer
    problems = [f"Show that {i} + {i} = {2 * i}." for i in range(8)]
    mine = shard(problems, state.process_index, state.num_processes)
    prompts = [render_prompt(tok, [{"role": "user", "content": p}]) for p in mine]
    greedy = SamplingParams(max_new_tokens=16, temperature=0)

    def ids(engine):
        return [row[0].token_ids[:16] for row in engine.generate(prompts, greedy)]

    first_a = ids(sampler.engine_for(a))
    free_awake = torch.cuda.mem_get_info()[0]
    sampler.sleep()
    freed_gib = (torch.cuda.mem_get_info()[0] - free_awake) / 2**30
    t1 = time.time()
    engine = sampler.engine_for(b)
    reload_s = time.time() - t1
    out_b = ids(engine)
    hf_b = hf_greedy(b, prompts, 16)
    agree = sum(x == y for u, v in zip(out_b, hf_b) for x, y in zip(u, v)) / max(1, sum(len(u) for u in hf_b))
    sampler.sleep()
    again_a = ids(sampler.engine_for(a))
    engine = sampler.engine_for(b)
    tools = [SyntaxCheckTool(), ReferenceConsistencyTool({p: "theorem t : True := by sorry" for p in mine})]
    (traj,) = ToolLoop(engine, tools, AgentConfig(max_turns=2, max_new_tokens=64)).run(mine[:1])
    loop_ok = traj.completion_ids is not None and len(traj.completion_ids) == len(traj.completion_mask)
    report = {
        "rank": state.process_index,
        "world": state.num_processes,
        "problems": len(mine),
        "build_s": round(built_s, 1),
        "sleep_freed_gib": round(freed_gib, 2),
        "reload_s": round(reload_s, 2),
        "B_differs_from_A": out_b != first_a,
        "A_again_after_sleep": again_a == first_a,
        "greedy_token_agreement_with_hf_B": round(agree, 3),
        "rollout_token_view_ok": loop_ok,
        "stop": traj.stop_reason,
    }
    print(json.dumps(report), flush=True)
    return 0 if (out_b != first_a and again_a == first_a and loop_ok and freed_gib > 0) else 1


if __name__ == "__main__":
    raise SystemExit(main())
