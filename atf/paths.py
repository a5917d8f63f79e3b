"""Where ATF keeps things it builds once: converted model weights, tokenizers."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """`$ATF_CACHE`, else `$XDG_CACHE_HOME/atf`, else `~/.cache/atf`."""
    root = os.environ.get("ATF_CACHE")
    if root:
        path = Path(root)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        path = (Path(xdg) if xdg else Path.home() / ".cache") / "atf"
    path.mkdir(parents=True, exist_ok=True)
    return path


def shared_data_dir() -> Path:
    """The benchmark and labelled data (`$ATF_DATA`, else `../shared/data` next to the checkout)."""
    root = os.environ.get("ATF_DATA")
    if root:
        return Path(root)
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "shared" / "data", here / "shared" / "data"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        "shared data not found: set ATF_DATA to the folder holding minif2f-deepseek/, proofnet-deepseek/, ..."
    )
