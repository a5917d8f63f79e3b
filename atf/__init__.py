"""ATF: a Lean 4 autoformalizer that writes with tool feedback, and reranks its samples.

Data flows one way: problems -> agent loop (engine + tools) -> trajectories -> datasets ->
trainers -> checkpoint -> served by vLLM -> agent loop again.
"""

__version__ = "0.1.0"
