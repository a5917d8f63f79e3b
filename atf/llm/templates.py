"""Which chat template a model is rendered with: one choice, made the same way for training and inference.

    1. `--chat_template` / `chat_template=` when given: "atf" (ATF's ChatML + hermes template), "own" (the
       checkpoint's template as is), a TRL template name (e.g. "qwen3_training", from trl/chat_templates), a
       .jinja file, or the Jinja text itself;
    2. else the model's own template whenever it can render a tool-calling conversation (TRL's
       `supports_tool_calling`: Qwen2.5, Qwen3, Llama 3.1, ...), swapped for TRL's training variant of it when
       one exists (`get_training_chat_template`: prefix-preserving, with `{% generation %}` markers), so that
       token-in/token-out rollouts and training render the same tokens;
    3. else ATF's ChatML template (atf/llm/chat_template.jinja), which closes turns with the model's own
       end-of-sequence token, so a model that learnt to stop on e.g. `<|eot_id|>` still ends its turns.

The chosen template is stored in the saved checkpoint's tokenizer, so `hf:<ckpt>`, `vllm:<ckpt>` and `vllm serve
<ckpt>` all read it back. `python -m atf.llm.templates MODEL` prints a template file to give `vllm serve
--chat-template` only when the checkpoint's own template is not the one ATF would use (see slurm/vllm_serve.sbatch).

Tool schemas are rendered as OpenAI-compatible servers (vLLM) pass them to the template:
`{"type": "function", "function": {...}}` (`openai_tools`).
"""

from __future__ import annotations

import argparse
import logging
import re
from pathlib import Path
from typing import Any

from atf.llm.base import atf_chat_template

log = logging.getLogger(__name__)

ATF, OWN = "atf", "own"
CHAT_TEMPLATE_HELP = (
    "chat template: 'atf' (ATF's ChatML + hermes tools), 'own' (the checkpoint's), a TRL template name "
    "(e.g. qwen3_training), a .jinja file or Jinja text. Default: the model's own template when it supports tools "
    "(its TRL training variant when one exists), else 'atf'"
)


def openai_tools(schemas: list[dict] | None) -> list[dict] | None:
    """Tool schemas wrapped as OpenAI-compatible servers pass them to chat templates (idempotent)."""
    if not schemas:
        return None
    return [
        s if s.get("type") == "function" and "function" in s else {"type": "function", "function": s} for s in schemas
    ]


def _own_template(tokenizer: Any) -> str | None:
    template = getattr(tokenizer, "chat_template", None)
    return template.get("default") if isinstance(template, dict) else template


def resolve_template(value: str, tokenizer: Any = None) -> str:
    """The Jinja text an override names (see module doc)."""
    if value == ATF:
        return atf_chat_template()
    if value == OWN:
        own = _own_template(tokenizer)
        if not own:
            raise ValueError("--chat_template own: the checkpoint has no chat template")
        return own
    if "{%" in value or "{{" in value:
        return value
    path = Path(value)
    if path.is_file():
        return path.read_text()
    from importlib import resources

    trl_file = resources.files("trl").joinpath("chat_templates", f"{value.removesuffix('.jinja')}.jinja")
    if trl_file.is_file():
        return trl_file.read_text()
    raise ValueError(
        f"--chat_template {value!r}: not 'atf', 'own', a file, Jinja text or a template in trl/chat_templates"
    )


def choose_chat_template(tokenizer: Any, override: str | None = None) -> tuple[str, str]:
    """(template, where it came from: "override" | "model" | "model (TRL training variant)" | "atf")."""
    if override:
        return resolve_template(override, tokenizer), "override"
    own = _own_template(tokenizer)
    if own and re.search(r"{%-?\s*generation\s*-?%}", own) and renders_tool_calls(tokenizer):
        return own, "model"  # already a training template (ATF's, TRL's variants): no need to import TRL
    if own:
        try:
            from trl.chat_template_utils import get_training_chat_template, supports_tool_calling
        except ImportError:  # inference without the [train] extra: no TRL variants to swap in
            get_training_chat_template, supports_tool_calling = (lambda tok: None), renders_tool_calls
        if supports_tool_calling(tokenizer):
            try:
                training = get_training_chat_template(tokenizer)
            except ValueError:  # TRL has no patched variant (e.g. Llama 3.1): masks come from prefix renders
                training = None
            return (training, "model (TRL training variant)") if training else (own, "model")
    return atf_chat_template(), ATF


def renders_tool_calls(tokenizer: Any) -> bool:
    """TRL's `supports_tool_calling` test, for installs without TRL: a tool call and its result survive rendering."""
    call = {
        "type": "function",
        "function": {"name": "probe_fn_a8f3", "arguments": {"probe_key_b9d4": "probe_val_d6e7"}},
    }
    msgs = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "name": "probe_fn_a8f3", "content": "probe_out_c4f9"},
    ]
    from jinja2 import TemplateError

    try:
        text = tokenizer.apply_chat_template(msgs, tokenize=False)
    except (TemplateError, TypeError, ValueError):  # templates that refuse tool roles or dict arguments
        return False
    return all(s in text for s in ("probe_fn_a8f3", "probe_key_b9d4", "probe_val_d6e7", "probe_out_c4f9"))


def apply_chat_template_choice(tokenizer: Any, override: str | None = None) -> Any:
    """Set the chosen template on `tokenizer` (and a pad token distinct from eos); returns the tokenizer."""
    template, source = choose_chat_template(tokenizer, override)
    if source != "model":
        log.info("chat template: %s", source)
    tokenizer.chat_template = template
    if tokenizer.pad_token is None or tokenizer.pad_token_id == tokenizer.eos_token_id:
        pad = tokenizer.unk_token if tokenizer.unk_token not in (None, tokenizer.eos_token) else None
        if pad is None and "<|endoftext|>" in tokenizer.get_vocab() and tokenizer.eos_token != "<|endoftext|>":
            pad = "<|endoftext|>"
        if pad is not None:
            tokenizer.pad_token = pad
        elif tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    return tokenizer


def serving_template_file(model: str, override: str | None = None, out_dir: str | Path | None = None) -> Path | None:
    """A file for `vllm serve --chat-template` when the checkpoint's own template is not ATF's choice, else None."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model)
    own = _own_template(tok)
    template, _ = choose_chat_template(tok, override)
    if template == own:
        return None
    from atf.paths import cache_dir

    folder = Path(out_dir) if out_dir else cache_dir() / "chat_templates"
    folder.mkdir(parents=True, exist_ok=True)
    import hashlib

    path = folder / f"{hashlib.sha1(template.encode()).hexdigest()[:12]}.jinja"
    path.write_text(template)
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m atf.llm.templates",
        description="Print a chat template file to pass to `vllm serve --chat-template`, or nothing when the "
        "checkpoint's own template is the one ATF trains and samples with.",
    )
    p.add_argument("model", help="checkpoint folder or hub id")
    p.add_argument("--chat-template", "--chat_template", dest="chat_template", default=None, help=CHAT_TEMPLATE_HELP)
    args = p.parse_args(argv)
    path = serving_template_file(args.model, args.chat_template)
    if path is not None:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
