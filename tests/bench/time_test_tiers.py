"""Wall time of each test tier, with the machine and its load (timings move with load: quote both).

    python tests/bench/time_test_tiers.py             # default tier, then the integration tier
    python tests/bench/time_test_tiers.py --default   # default tier only

Runs exactly the commands `.ci/run` runs (and the README gives).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

TIERS = {
    "default": [sys.executable, "-m", "pytest"],
    "integration": [sys.executable, "-m", "pytest", "-m", "integration or slow", "-n", "0"],
}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            return next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown CPU"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--default", action="store_true", help="time the default tier only")
    args = p.parse_args(argv)
    print(f"machine: {os.cpu_count()} CPUs ({cpu_model()}), Python {platform.python_version()}")
    worst = 0
    for name, cmd in TIERS.items():
        if args.default and name != "default":
            continue
        load_before = os.getloadavg()
        start = time.perf_counter()
        rc = subprocess.run(cmd).returncode
        wall = time.perf_counter() - start
        load_after = os.getloadavg()
        print(
            f"{name} tier `{' '.join(['python', *cmd[1:]])}`: {wall:.0f} s, exit {rc}; "
            f"load average (1 min) {load_before[0]:.2f} before, {load_after[0]:.2f} after",
            flush=True,
        )
        worst = max(worst, 0 if rc == 5 else rc)  # 5: no test in the tier
    return worst


if __name__ == "__main__":
    sys.exit(main())
