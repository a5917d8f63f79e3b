"""The tool loop and the Trajectory record it produces.

    from atf.agent import AgentConfig, ToolLoop, Formalizer, SyntaxCheckTool, ConsistencyCheckTool
    loop = ToolLoop(engine, [SyntaxCheckTool(), ConsistencyCheckTool(checker)], AgentConfig())
    trajectories = loop.run(problems)          # many rollouts in flight, token-in/token-out

loop.py      the rules and the batched loop          tools.py     Tool interface, real and HTTP tools
tokens.py    token view cut from the chat template   parsing.py   hermes <tool_call> blocks
formalize.py k rollouts + reranking                  validate.py  rule checks for any trajectory
replay.py    an engine that plays written turns      metrics.py   pass@k (SC / CC)
"""

from atf.agent.formalize import Formalization, Formalizer
from atf.agent.loop import AgentConfig, ToolLoop, run_agent
from atf.agent.tools import (
    CONSISTENCY_CHECK,
    SYNTAX_CHECK,
    ConsistencyCheckTool,
    FunctionTool,
    RemoteConsistencyTool,
    SyntaxCheckTool,
    Tool,
    ToolRequest,
    ToolResult,
)
from atf.agent.trajectory import ToolCall, Trajectory, read_jsonl, write_jsonl

__all__ = [
    "AgentConfig",
    "CONSISTENCY_CHECK",
    "ConsistencyCheckTool",
    "Formalization",
    "Formalizer",
    "FunctionTool",
    "RemoteConsistencyTool",
    "SYNTAX_CHECK",
    "SyntaxCheckTool",
    "Tool",
    "ToolCall",
    "ToolLoop",
    "ToolRequest",
    "ToolResult",
    "Trajectory",
    "read_jsonl",
    "run_agent",
    "write_jsonl",
]
