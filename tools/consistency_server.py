"""Consistency-check tool server: a thin door to `atf serve-consistency` (see `--help`).

python tools/consistency_server.py --port 8002 --judge smollm2 --mode vote
"""

import sys

from atf.cli import main

if __name__ == "__main__":
    sys.exit(main(["serve-consistency", *sys.argv[1:]]))
