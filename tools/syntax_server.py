#!/usr/bin/env python3
"""The syntax-check tool server: a door into `atf serve-syntax` (see `atf serve-syntax --help`).

python tools/syntax_server.py --port 8001 --workers 2 --max-memory-mb 24000
"""

import sys

from atf.cli import main

if __name__ == "__main__":
    sys.exit(main(["serve-syntax", *sys.argv[1:]]))
