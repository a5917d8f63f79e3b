#!/usr/bin/env python3
"""Load and fault isolation of `atf serve-syntax` on the REPL protocol stand-in (no Lean here).

Starts the server as a subprocess with 2 REPL workers and `--timeout-s 5` over tests/lean_standin.py, whose
cost model is 0.25 s per header load, 20 ms per command and 5 ms per declaration; a `STANDIN_SLOW` statement
hangs its REPL (the stand-in sleeps far past the timeout). Prints:

  1. 7 clean statements sent in one request with a hung one: seconds until all 8 verdicts;
  2. a clean request sent 2 s after a hung one: its latency;
  3. a 1 MB malformed body: status, seconds, reply bytes, and /health latency while it is handled;
  4. p50/p99 latency of clean single-statement requests at 1, 8, 64 and 256 concurrent clients, alone and
     with a client that keeps sending hung (STANDIN_SLOW) and hostile (`#eval`, rejected by the pre-check)
     statements;
  5. the pre-check's worst case per KB over adversarial 50 KB inputs.

    python tests/bench/bench_syntax_load.py [--seconds 8] [--clients 1 8 64 256] [--share-commands]

Targets (issue 9, this 2-core machine): (1) <= 12 s, (2) <= 3 s, (3) 4xx < 1 s, reply < 64 KB, /health < 1 s,
(5) < 100 ms for 50 KB. Timings move with machine load: the load average is printed first.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
STANDIN = ROOT / "tests" / "lean_standin.py"
H = "import Mathlib\n\n"
_counter = iter(range(10**9))


def clean() -> str:
    n = next(_counter)
    return H + f"theorem t{n} (x : ℕ) : x + {n} = {n} + x := by sorry"


def hung() -> str:
    return H + f"theorem h{next(_counter)} : STANDIN_SLOW = 1 := by sorry"


def hostile() -> str:
    return H + f'#eval IO.Process.run {{ cmd := "id" }}\ntheorem e{next(_counter)} : 1 = 1 := by sorry'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workers: int, timeout_s: float, share_commands: bool = False) -> tuple[subprocess.Popen, str]:
    port = free_port()
    repl = f"{sys.executable} {STANDIN} --import-delay 0.25 --cmd-delay 0.02 --decl-delay 0.005 --slow-s 3600"
    cmd = [
        sys.executable,
        "-m",
        "atf.cli",
        "serve-syntax",
        "--port",
        str(port),
        "--repl",
        repl,
        "--workers",
        str(workers),
        "--timeout-s",
        str(timeout_s),
    ] + ["--share-commands"] * share_commands
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not start")


async def timed_post(client: httpx.AsyncClient, url: str, statements: list[str]) -> tuple[float, httpx.Response]:
    t0 = time.perf_counter()
    resp = await client.post(url + "/check", json={"statements": statements})
    return time.perf_counter() - t0, resp


async def warm(client, url, workers):
    await asyncio.gather(*(timed_post(client, url, [clean()]) for _ in range(workers * 2)))


async def hung_batch(client, url) -> str:
    dt, resp = await timed_post(client, url, [clean() for _ in range(3)] + [hung()] + [clean() for _ in range(4)])
    results = resp.json()["results"]
    failures = [r["failure"] for r in results if not r["ok"]]
    return f"{dt:.1f} s for 8 verdicts ({len(results) - len(failures)} ok, failures: {failures})"


async def after_hung(client, url) -> str:
    stuck = asyncio.ensure_future(timed_post(client, url, [hung()]))
    await asyncio.sleep(2.0)
    dt, resp = await timed_post(client, url, [clean()])
    await stuck
    return f"{dt:.2f} s (ok={resp.json()['results'][0]['ok']})"


async def malformed(client, url) -> str:
    body = b'{"statements": ["' + b"\\u00e9x" * 170_000 + b'", 1, {'  # ~1 MB, invalid JSON
    t0 = time.perf_counter()
    headers = {"content-type": "application/json"}
    post = asyncio.ensure_future(client.post(url + "/check", content=body, headers=headers))
    await asyncio.sleep(0.01)
    h0 = time.perf_counter()
    health = await client.get(url + "/health")
    h_dt = time.perf_counter() - h0
    resp = await post
    return (
        f"HTTP {resp.status_code} in {time.perf_counter() - t0:.3f} s, reply {len(resp.content)} bytes; "
        f"/health HTTP {health.status_code} in {h_dt:.3f} s"
    )


async def load(url: str, clients: int, seconds: float, with_bad: bool) -> str:
    lat: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients + 4, max_keepalive_connections=clients + 4)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:

        async def good():
            nonlocal errors
            while time.perf_counter() < stop:
                try:
                    dt, resp = await timed_post(client, url, [clean()])
                    if resp.status_code == 200:
                        lat.append(dt)
                    else:
                        errors += 1
                except httpx.HTTPError:
                    errors += 1

        async def bad():
            k = 0
            while time.perf_counter() < stop:
                await timed_post(client, url, [hung() if k % 2 == 0 else hostile()])
                k += 1

        tasks = [good() for _ in range(clients)] + ([bad()] if with_bad else [])
        await asyncio.gather(*tasks)
    if not lat:
        return f"{clients:>4} clients{' + bad' if with_bad else '      '}: no request completed ({errors} errors)"
    lat.sort()
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    return (
        f"{clients:>4} clients{' + bad' if with_bad else '      '}: {len(lat):>5} requests, "
        f"p50 {statistics.median(lat):.3f} s, p99 {p99:.3f} s, errors {errors}"
    )


def precheck_worst_case() -> str:
    """The slowest of bench_syntax_precheck.py's adversarial 50 KB inputs (best of 5 each, CPU time)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_syntax_precheck import worst_case

    from atf.lean.precheck import run_precheck

    name, size, cpu, wall = worst_case(run_precheck)[0]
    return (
        f"worst {cpu * 1000:.1f} ms CPU ({wall * 1000:.1f} ms wall) for {size / 1000:.1f} KB "
        f"({cpu * 1000 / (size / 1000):.2f} ms/KB), input {name!r}"
    )


async def main_async(args) -> None:
    proc, url = start_server(args.workers, args.timeout_s, args.share_commands)
    try:
        async with httpx.AsyncClient(timeout=120) as client:
            await warm(client, url, args.workers)
            print("1. 7 clean + 1 hung in one request:", await hung_batch(client, url), flush=True)
            await asyncio.sleep(args.timeout_s + 1)
            print("2. clean request 2 s after a hung one:", await after_hung(client, url), flush=True)
            await asyncio.sleep(args.timeout_s + 1)
            print("3. 1 MB malformed body:", await malformed(client, url), flush=True)
        print("4. clean single-statement requests (p50/p99 latency):", flush=True)
        for clients in args.clients:
            for with_bad in (False, True):
                print("  ", await load(url, clients, args.seconds, with_bad), flush=True)
                await asyncio.sleep(args.timeout_s + 1)  # let hung statements time out before the next row
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    print("5. pre-check:", precheck_worst_case())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2, help="REPL workers (default %(default)s)")
    from atf.cliargs import add_seconds

    add_seconds(ap, "--timeout-s", 5.0, "seconds per statement", old_s=("--timeout",))
    ap.add_argument("--seconds", type=float, default=8.0, help="length of each load row (default %(default)s)")
    ap.add_argument("--clients", type=int, nargs="+", default=[1, 8, 64, 256], help="concurrency levels")
    ap.add_argument(
        "--share-commands",
        action="store_true",
        help="serve with --share-commands (requests grouped into one Lean command)",
    )
    args = ap.parse_args()
    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.workers} workers, "
        f"--timeout-s {args.timeout_s:g}{', --share-commands' * args.share_commands}, "
        "stand-in cost model 0.25 s/header, 20 ms/command, 5 ms/declaration"
    )
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
