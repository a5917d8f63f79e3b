"""Judge failures against neighbours: does a failing request change any other item's verdict? How long does a
batch with failing requests take?

    nice python tests/bench/bench_judge_isolation.py --items 32 --every 4

A batch of --items problems goes to one OpenAI-compatible judge (the in-process fake server of
tests/test_judge_errors.py). Every --every-th item fails in one of four ways (HTTP 500 on every try, a 200
that is not JSON, a 200 without choices, an answer later than the timeout); every 3rd item is answered
"inconsistent", the rest "consistent". It prints how many items errored, how many of the others got a verdict
other than the one a clean run gives them (the target is 0), and the wall time with the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from test_judge_errors import FakeOpenAI, Server

from atf.judge import ConsistencyChecker
from atf.llm.openai_engine import OpenAIEngine

STATEMENT = "theorem t (n : ℕ) (hn : 0 < n) : Even (n ^ 2 + n) := by sorry"
FAILURES = ("FAIL500", "GARBAGE", "NOCHOICES", "SLOW")


def items(n: int, every: int, failing: bool) -> list[tuple[str, str]]:
    out = []
    for i in range(n):
        marker = FAILURES[(i // every) % len(FAILURES)] if failing and i % every == every - 1 else ""
        reject = "REJECT" if i % 3 == 0 else ""
        out.append((f"Problem {i} {marker} {reject}: show that n^2 + n is even for positive n.", STATEMENT))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--items", type=int, default=32, help="items in the batch (the judge CLI's default batch is 16)")
    p.add_argument("--every", type=int, default=4, help="every N-th item fails")
    p.add_argument(
        "--timeout-s", type=float, default=1.5, help="the judge's per-request timeout (the slow item answers after 4 s)"
    )
    p.add_argument("--retries", type=int, default=1, help="retries per request (default %(default)s)")
    args = p.parse_args(argv)
    httpd = Server(("127.0.0.1", 0), FakeOpenAI)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    engine = OpenAIEngine(url, "judge", timeout=args.timeout_s, retries=args.retries, sleep=lambda s: None)
    checker = ConsistencyChecker([engine])
    try:
        clean = [r.verdict for r in checker.check_many(items(args.items, args.every, failing=False))]
        start = time.perf_counter()
        mixed = [r.verdict for r in checker.check_many(items(args.items, args.every, failing=True))]
        seconds = time.perf_counter() - start
    finally:
        httpd.shutdown()
        httpd.server_close()
    failing = [i for i in range(args.items) if i % args.every == args.every - 1]
    errored = sum(v == "error" for v in mixed)
    changed = sum(mixed[i] != clean[i] for i in range(args.items) if i not in failing)
    failed_not_error = sum(mixed[i] != "error" for i in failing)
    print(
        f"items {args.items}, failing requests {len(failing)} ({', '.join(FAILURES)}), timeout {args.timeout_s} s, "
        f"retries {args.retries}"
    )
    print(
        f"errored {errored}; failing items with a verdict anyway {failed_not_error}; "
        f"other items whose verdict changed {changed} (target 0)"
    )
    print(f"wall {seconds:.2f} s; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if changed == 0 and failed_not_error == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
