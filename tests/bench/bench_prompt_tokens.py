"""Prompt tokens of the agent's first turn, as training renders it and as an OpenAI-compatible server (vLLM) renders
the same request, per chat template; and what the unwrapped tool schemas (ATF before issue 11) gave.

    PYTHONPATH=. python tests/bench/bench_prompt_tokens.py

Tokenizer: SmolLM2's vocabulary with each template (Llama 3 special tokens added for the Llama templates).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    from test_train_templates import make_tokenizer, served_prompt_ids

    from atf.agent.loop import to_openai_messages
    from atf.agent.prompts import initial_messages
    from atf.agent.tokens import encode, render_text
    from atf.agent.tools import CONSISTENCY_SCHEMA, SYNTAX_SCHEMA
    from atf.llm.templates import apply_chat_template_choice, choose_chat_template, openai_tools

    messages = initial_messages("Show that for any natural number n, n^2 + n is even.")
    schemas = [SYNTAX_SCHEMA, CONSISTENCY_SCHEMA]
    for name in ("qwen2_5", "qwen3", "llama3_1", "llama3"):
        tok = make_tokenizer(name)
        _, source = choose_chat_template(tok)
        apply_chat_template_choice(tok)
        trained = encode(tok, render_text(tok, messages, schemas, True))
        served, _ = served_prompt_ids(tok, {"messages": to_openai_messages(messages), "tools": openai_tools(schemas)})
        unwrapped = tok.apply_chat_template(
            messages, tools=schemas, add_generation_prompt=True, tokenize=True, return_dict=False
        )
        print(
            json.dumps(
                {
                    "template": name,
                    "chosen": source,
                    "trained_tokens": len(trained),
                    "served_tokens": len(served),
                    "identical_ids": trained == served,
                    "unwrapped_schema_tokens": len(unwrapped),
                }
            )
        )


if __name__ == "__main__":
    main()
