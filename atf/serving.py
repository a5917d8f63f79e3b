"""What both HTTP tool servers share: request batching, limits, authentication, and a guarded uvicorn.

The syntax check compiles a batch as grouped Lean commands and the consistency check sends a batch to its
judges at once, so both get faster per item when requests arrive together. `BatchQueue` collects items for
up to `max_wait_s` (or until `max_batch` items are waiting) and runs `fn(items)` in a worker thread; up to
`concurrency` batches run at once (one per Lean worker), so a batch stuck on a hung statement holds one slot,
not the server. Each request awaits only its own results:

- a large request is cut into batches interleaved with everyone else's, never one batch the others queue behind;
- a batch whose `fn` raises is retried request by request, so a failure reaches only the request that caused it;
- a caller that goes away (client disconnect, cancellation) takes its not-yet-started items out of the queue;
- a full queue raises `QueueFull` (HTTP 429) instead of growing without bound.

`guard` puts the limits of `ServeLimits` and an optional API key in front of a FastAPI app, with short
error bodies that never echo the request.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import ipaddress
import json
import logging
import os
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

API_KEY_ENV = "ATF_API_KEY"


@dataclass
class ServeLimits:
    """Bounds on what one request may ask of a tool server (every default lives here).

    max_body_bytes: larger request bodies get 413 before they are parsed.
    max_items: most statements (or problem/statement pairs) in one request.
    max_item_bytes: most UTF-8 bytes in one statement (for the consistency check: problem + statement).
    max_queued_items: items waiting for a batch slot across all requests; beyond it new requests get 429.
    precheck_cpu_s: CPU seconds the syntax server's pre-checks may spend on one request; the statements not
        reached within it fail with a message saying so (the pre-check is linear, so only huge requests hit it).
    """

    max_body_bytes: int = 8 * 1024 * 1024
    max_items: int = 4096
    max_item_bytes: int = 64 * 1024
    max_queued_items: int = 65536
    precheck_cpu_s: float = 2.0


class QueueFull(Exception):
    """The server is holding `max_queued_items` items already."""


class InvalidRequest(ValueError):
    """A request the server cannot take as it is (HTTP 422, with this message)."""


class RequestTooLarge(InvalidRequest):
    """A request over one of the `ServeLimits` (HTTP 413)."""


@dataclass(eq=False)
class _Pending(Generic[T]):
    items: list[T]
    future: asyncio.Future = field(repr=False)
    results: list[Any] = field(default_factory=list, repr=False)
    handed: int = 0  # items given to batches so far
    left: int = 0  # items whose results are still missing

    def __post_init__(self) -> None:
        self.results = [None] * len(self.items)
        self.left = len(self.items)


async def run_in_thread(fn: Callable[..., R], *args: Any) -> R:
    """`fn(*args)` in a new daemon thread, awaited without blocking the event loop.

    Unlike `asyncio.to_thread`, a daemon thread does not keep a shutting-down server alive while it finishes
    work whose caller is gone (a judge batch can run for minutes).
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if not future.done():
            future.set_exception(error) if error is not None else future.set_result(value)

    def target() -> None:
        try:
            value, error = fn(*args), None
        except BaseException as err:  # noqa: BLE001 - handed to the awaiting coroutine
            value, error = None, err
        try:
            loop.call_soon_threadsafe(settle, value, error)
        except RuntimeError:  # the loop closed while we worked: nobody is waiting
            pass

    threading.Thread(target=target, daemon=True, name=f"atf-{getattr(fn, '__name__', 'work')}").start()
    return await future


class BatchQueue(Generic[T, R]):
    """Gather items from concurrent callers into batches for `fn: list[T] -> list[R]`.

    max_batch: most items handed to `fn` at once.
    max_wait_s: how long the first waiting item waits for company before its batch runs.
    concurrency: batches running at once (the syntax server uses one per Lean worker).
    max_queued: most items waiting at once; `submit` raises `QueueFull` beyond it (None: no bound).
    streams: `fn` is called as `fn(items, on_result)` and may call `on_result(index, result)` from its thread
        as each result is known; a request is answered as soon as its own items are, even while a slower item
        of its batch (say a statement that hangs Lean) is still being worked on.
    owners: `fn` also gets `owners=[...]`, for each item the number of the request it came from (equal numbers:
        same request), so that it can keep each request's work apart (the syntax server never compiles two
        requests' statements in one Lean command: a hung statement then costs only its own request a timeout).
    """

    def __init__(
        self,
        fn: Callable[..., Sequence[R]],
        max_batch: int = 64,
        max_wait_s: float = 0.02,
        concurrency: int = 1,
        max_queued: int | None = None,
        streams: bool = False,
        owners: bool = False,
    ):
        if max_batch < 1:
            raise ValueError("max_batch must be >= 1")
        if concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        self.fn = fn
        self.max_batch = max_batch
        self.max_wait_s = max_wait_s
        self.concurrency = concurrency
        self.max_queued = max_queued
        self.streams = streams
        self.owners = owners
        self._pending: deque[_Pending[T]] = deque()
        self._queued = 0
        self._wake: asyncio.Event | None = None
        self._forming: asyncio.Lock | None = None
        self._tasks: list[asyncio.Task] = []
        self.batches_run = 0
        self.items_run = 0
        self.running = 0

    @property
    def queued(self) -> int:
        """Items waiting for a batch."""
        return self._queued

    @property
    def mean_batch_size(self) -> float:
        return self.items_run / self.batches_run if self.batches_run else 0.0

    def _ensure_started(self) -> None:
        if not self._tasks:
            self._wake = asyncio.Event()
            self._forming = asyncio.Lock()
            loop = asyncio.get_running_loop()
            self._tasks = [loop.create_task(self._worker()) for _ in range(self.concurrency)]

    async def submit(self, items: list[T]) -> list[R]:
        """Results for `items`, in order, computed in whatever batches they landed in."""
        if not items:
            return []
        self._ensure_started()
        if self.max_queued is not None and self._queued + len(items) > self.max_queued:
            raise QueueFull(f"{self._queued} items are waiting already (limit {self.max_queued})")
        pending = _Pending(list(items), asyncio.get_running_loop().create_future())
        self._pending.append(pending)
        self._queued += len(items)
        assert self._wake is not None
        self._wake.set()
        try:
            return await asyncio.shield(pending.future)
        except asyncio.CancelledError:
            self._withdraw(pending)
            raise

    def _withdraw(self, pending: _Pending[T]) -> None:
        """A caller left: its items not yet handed to a batch leave the queue."""
        if pending in self._pending:
            self._pending.remove(pending)
            self._queued -= len(pending.items) - pending.handed
            pending.handed = len(pending.items)
        if not pending.future.done():
            pending.future.cancel()

    def _take(self) -> list[tuple[_Pending[T], int]]:
        """Up to max_batch (request, index) pairs, round-robin over waiting requests."""
        taken: list[tuple[_Pending[T], int]] = []
        while self._pending and len(taken) < self.max_batch:
            pending = self._pending.popleft()
            share = max(1, (self.max_batch - len(taken)) // (len(self._pending) + 1))
            stop = min(len(pending.items), pending.handed + share)
            taken.extend((pending, k) for k in range(pending.handed, stop))
            self._queued -= stop - pending.handed
            pending.handed = stop
            if pending.handed < len(pending.items):
                self._pending.append(pending)
        return taken

    async def _gather(self) -> list[tuple[_Pending[T], int]]:
        assert self._wake is not None and self._forming is not None
        loop = asyncio.get_running_loop()
        async with self._forming:
            while not self._pending:
                self._wake.clear()
                await self._wake.wait()
            deadline = loop.time() + self.max_wait_s
            while self._queued < self.max_batch and (timeout := deadline - loop.time()) > 0:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout)
                except asyncio.TimeoutError:
                    break
            return self._take()

    async def _worker(self) -> None:
        while True:
            taken = await self._gather()
            if not taken:
                continue
            self.running += 1
            try:
                await self._run(taken)
            finally:
                self.running -= 1

    async def _run(self, taken: list[tuple[_Pending[T], int]]) -> None:
        live = [(p, k) for p, k in taken if not p.future.done()]
        if not live:
            return
        self.batches_run += 1  # counted as they start: streamed answers may reach callers before the batch ends
        self.items_run += len(live)
        delivered: set[int] = set()

        def deliver(n: int, result: R) -> None:  # on the event loop
            if n not in delivered:
                delivered.add(n)
                self._store(*live[n], result)

        try:
            # results handed over early are delivered before the batch's own completion (FIFO callbacks)
            numbers: dict[int, int] = {}
            request_of = [numbers.setdefault(id(p), len(numbers)) for p, _ in live]
            results = await self._call(
                [p.items[k] for p, k in live], deliver if self.streams else None, request_of if self.owners else None
            )
        except Exception as err:  # noqa: BLE001 - isolate: retry each request's missing share on its own
            missing = [(p, k) for n, (p, k) in enumerate(live) if n not in delivered]
            owners = list(dict.fromkeys(p for p, _ in missing))
            if len(owners) == 1 and len(missing) == len(live):
                self._fail(owners[0], err)
                return
            log.warning(
                "a batch of %d items from %d requests failed (%s); retrying request by request",
                len(live),
                len(owners),
                err,
            )
            for owner in owners:
                await self._run([(p, k) for p, k in missing if p is owner])
            return
        for n, result in enumerate(results):
            deliver(n, result)

    def _store(self, pending: _Pending[T], k: int, result: R) -> None:
        pending.results[k] = result
        pending.left -= 1
        if pending.left == 0 and not pending.future.done():
            pending.future.set_result(pending.results)

    async def _call(
        self, items: list[T], deliver: Callable[[int, R], None] | None, owners: list[int] | None = None
    ) -> Sequence[R]:
        fn = self.fn if owners is None else functools.partial(self.fn, owners=owners)
        if deliver is None:
            results = await run_in_thread(fn, items)
        else:
            loop = asyncio.get_running_loop()

            def on_result(n: int, result: R) -> None:  # from the worker thread
                try:
                    loop.call_soon_threadsafe(deliver, n, result)
                except RuntimeError:  # loop closed: nobody is waiting
                    pass

            results = await run_in_thread(fn, items, on_result)
        if len(results) != len(items):
            raise RuntimeError(f"batch function returned {len(results)} results for {len(items)} items")
        return results

    def _fail(self, pending: _Pending[T], err: Exception) -> None:
        log.error("request of %d items failed: %s", len(pending.items), err, exc_info=err)
        if pending in self._pending:
            self._pending.remove(pending)
            self._queued -= len(pending.items) - pending.handed
        if not pending.future.done():
            pending.future.set_exception(err)

    async def aclose(self) -> None:
        """Stop the workers; requests still waiting are cancelled."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._tasks = []
        for pending in list(self._pending):
            if not pending.future.done():
                pending.future.cancel()
        self._pending.clear()
        self._queued = 0


async def until_disconnected(request: Any, work: Awaitable[R], poll_s: float = 0.25) -> R:
    """Await `work`, cancelling it (and so withdrawing its queued items) if the HTTP client goes away."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=poll_s)
            if done:
                return task.result()
            if await request.is_disconnected():
                task.cancel()
                raise ClientGone()
    finally:
        if not task.done():
            task.cancel()


class ClientGone(Exception):
    """The client disconnected before its results were ready."""


def utf8_size(text: str, what: str) -> int:
    """Bytes of `text` in UTF-8; InvalidRequest for strings JSON allowed but UTF-8 cannot hold."""
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError as err:
        raise InvalidRequest(f"{what} is not valid Unicode: lone surrogate at character {err.start}") from None


def check_items(texts: Sequence[Sequence[str]], limits: ServeLimits, what: str = "statement") -> None:
    """Raise RequestTooLarge / InvalidRequest when a request breaks the per-request limits."""
    if len(texts) > limits.max_items:
        raise RequestTooLarge(f"{len(texts)} items in one request; the limit is {limits.max_items}")
    for n, parts in enumerate(texts):
        size = sum(utf8_size(t, f"{what} {n}") for t in parts)
        if size > limits.max_item_bytes:
            raise RequestTooLarge(f"{what} {n} is {size} bytes; the limit is {limits.max_item_bytes}")


# ------------------------------------------------------------------------------------------------ the guard
def _short(status: int, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"detail": message[:500]}).encode()


async def _respond(send, status: int, body: bytes, extra: Sequence[tuple[bytes, bytes]] = ()) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class GuardMiddleware:
    """ASGI middleware: API key on every path but `open_paths`, and a cap on body size before parsing.

    The body is read here (at most `max_body_bytes`) and replayed to the app; a larger body is answered 413
    at once, a Content-Length over the limit without reading anything.
    """

    def __init__(self, app, max_body_bytes: int, api_key: str | None, open_paths: Sequence[str] = ("/health",)):
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.api_key = api_key.encode() if api_key else None
        self.open_paths = set(open_paths)

    def _authorized(self, scope) -> bool:
        if self.api_key is None or scope.get("path") in self.open_paths:
            return True
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"x-api-key", b"")
        auth = headers.get(b"authorization", b"")
        if auth[:7].lower() == b"bearer ":
            given = auth[7:].strip()
        return hmac.compare_digest(given, self.api_key)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if not self._authorized(scope):
            status, body = _short(401, "missing or wrong API key (send `Authorization: Bearer <key>`)")
            return await _respond(send, status, body, [(b"www-authenticate", b"Bearer")])
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body_bytes):
            return await _respond(send, *_short(413, f"request body over {self.max_body_bytes} bytes"))
        if scope.get("method") not in ("POST", "PUT", "PATCH"):
            return await self.app(scope, receive, send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                return await _respond(send, *_short(413, f"request body over {self.max_body_bytes} bytes"))
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)


def guard(app, limits: ServeLimits, api_key: str | None = None) -> None:
    """Install the limits, the API key and short error bodies on a FastAPI `app` (in place)."""
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse

    @app.exception_handler(RequestValidationError)
    async def _invalid(request, exc: RequestValidationError):
        errors = exc.errors()
        shown = "; ".join(
            f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in errors[:5]
        )
        more = f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""
        return JSONResponse({"detail": (shown + more)[:1000]}, status_code=422)

    @app.exception_handler(RequestTooLarge)
    async def _too_large(request, exc: RequestTooLarge):
        return JSONResponse({"detail": str(exc)[:500]}, status_code=413)

    @app.exception_handler(InvalidRequest)
    async def _invalid_request(request, exc: InvalidRequest):
        return JSONResponse({"detail": str(exc)[:500]}, status_code=422)

    @app.exception_handler(QueueFull)
    async def _full(request, exc: QueueFull):
        return JSONResponse({"detail": f"server busy: {exc}"[:500]}, status_code=429, headers={"Retry-After": "1"})

    @app.exception_handler(ClientGone)
    async def _gone(request, exc: ClientGone):
        return JSONResponse({"detail": "client disconnected"}, status_code=499)

    @app.exception_handler(Exception)
    async def _crash(request, exc: Exception):
        log.error("unhandled error on %s", request.url.path, exc_info=exc)
        return JSONResponse({"detail": f"internal error ({type(exc).__name__})"}, status_code=500)

    app.add_middleware(GuardMiddleware, max_body_bytes=limits.max_body_bytes, api_key=api_key)


def resolve_api_key(flag: str | None) -> str | None:
    """The key from `--api-key`, else `$ATF_API_KEY`, else None (no authentication)."""
    key = flag if flag is not None else os.environ.get(API_KEY_ENV)
    return key or None


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(
    app: Any,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    api_key: str | None = None,
    allow_unauthenticated: bool = False,
    graceful_s: float = 5.0,
) -> None:
    """Run a FastAPI app with uvicorn (one process; the batch queue lives in it).

    Binding beyond loopback without an API key is refused unless `allow_unauthenticated`: tool servers run
    model-written code through Lean and judges, and a cluster network is not a trust boundary.
    `graceful_s`: on SIGTERM, how long requests in flight may finish before they are cancelled.
    """
    import uvicorn

    if not api_key and not allow_unauthenticated and not _is_loopback(host):
        raise SystemExit(
            f"refusing to serve on {host} without an API key: pass --api-key or set {API_KEY_ENV} "
            "(clients send it as `Authorization: Bearer <key>`), or --allow-unauthenticated on a trusted network"
        )
    uvicorn.run(app, host=host, port=port, log_level="info", timeout_graceful_shutdown=graceful_s)


def add_server_options(p, port: int, create_app: Callable[..., Any], items: str) -> None:
    """--host/--port, --api-key, the `ServeLimits` flags, and batching (--max-batch, --max-wait-s, defaults from
    the server's `create_app`), shared by both tool servers. items: what a batch holds, for the help text."""
    from atf.cliargs import add_seconds, default_of

    d = ServeLimits()
    g = p.add_argument_group("serving", "Where to listen, who may call, and how much one request may ask.")
    g.add_argument(
        "--max-batch",
        type=int,
        default=default_of(create_app, "max_batch"),
        help=f"most {items} checked in one batch (default %(default)s)",
    )
    add_seconds(
        g,
        "--max-wait-s",
        default_of(create_app, "max_wait_s"),
        "how long a request waits for others to batch with",
        old_ms=("--max-wait-ms",),
    )
    g.add_argument("--host", default="127.0.0.1", help="address to bind (beyond loopback needs --api-key)")
    g.add_argument("--port", type=int, default=port, help="port to listen on (default %(default)s)")
    g.add_argument(
        "--api-key", help=f"require `Authorization: Bearer <key>` on every call but /health (default ${API_KEY_ENV})"
    )
    g.add_argument(
        "--allow-unauthenticated",
        action="store_true",
        help="serve beyond loopback without an API key (trusted networks only)",
    )
    g.add_argument("--max-body-bytes", type=int, default=d.max_body_bytes, help="larger bodies get 413 (%(default)s)")
    g.add_argument("--max-items", type=int, default=d.max_items, help="items per request (%(default)s)")
    g.add_argument(
        "--max-item-bytes",
        type=int,
        default=d.max_item_bytes,
        help="UTF-8 bytes per statement (problem + statement for consistency) (%(default)s)",
    )
    g.add_argument(
        "--max-queued",
        type=int,
        default=d.max_queued_items,
        help="items waiting at once before new requests get 429 (%(default)s)",
    )


def limits_from_args(args) -> ServeLimits:
    return ServeLimits(
        max_body_bytes=args.max_body_bytes,
        max_items=args.max_items,
        max_item_bytes=args.max_item_bytes,
        max_queued_items=args.max_queued,
    )


def serve_from_args(app, args) -> None:
    serve(
        app,
        args.host,
        args.port,
        api_key=resolve_api_key(args.api_key),
        allow_unauthenticated=args.allow_unauthenticated,
    )
