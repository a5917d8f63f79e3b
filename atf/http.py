"""HTTP calls to ATF's tool servers with bounded retries, so one dropped connection does not abort a job.

Only failures worth retrying are retried: connection and read errors, timeouts, 429 (honouring Retry-After)
and 502/503/504. Each wait is exponential with jitter, capped; after `retries` retries the last failure is
raised as `ToolUnavailable`. A 4xx other than 429 is the caller's mistake (a wrong API key, a request over the
server's limits) and is raised at once as `ToolRejected`, which tools let through: retrying cannot fix it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

RETRY_STATUS = frozenset({429, 502, 503, 504})


class ToolRejected(RuntimeError):
    """A tool server refused the request itself (4xx other than 429): a configuration error, not an outage."""


class ToolUnavailable(RuntimeError):
    """A tool server could not be reached or kept failing after the retries."""


@dataclass(frozen=True)
class RetryPolicy:
    """retries: extra attempts after the first; backoff_s: first wait, doubled each time up to max_backoff_s."""

    retries: int = 4
    backoff_s: float = 0.5
    max_backoff_s: float = 8.0

    def wait_s(self, attempt: int, retry_after: str | None = None) -> float:
        if retry_after:
            try:
                return min(self.max_backoff_s, max(0.0, float(retry_after)))
            except ValueError:
                pass
        return min(self.max_backoff_s, self.backoff_s * 2**attempt) * random.uniform(0.5, 1.0)


def auth_headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def post_json(
    client: Any,
    url: str,
    payload: Any,
    policy: RetryPolicy = RetryPolicy(),
    headers: dict[str, str] | None = None,
    sleep=time.sleep,
    retry_status: frozenset[int] = RETRY_STATUS,
) -> Any:
    """POST `payload` as JSON with retries; the decoded JSON answer of the first 2xx response. retry_status:
    the statuses worth retrying (OpenAI-compatible servers also answer 500 to an overload)."""
    import httpx

    last = ""
    for attempt in range(policy.retries + 1):
        retry_after = None
        try:
            resp = client.post(url, json=payload, headers=headers)
        except httpx.TransportError as err:  # connect/read/write errors and timeouts
            last = f"{type(err).__name__}: {err}"
        else:
            if resp.status_code < 300:
                return resp.json()
            detail = resp.text[:300]
            if resp.status_code not in retry_status:
                raise ToolRejected(f"{url} answered {resp.status_code}: {detail}")
            last, retry_after = f"HTTP {resp.status_code}: {detail}", resp.headers.get("retry-after")
        if attempt < policy.retries:
            sleep(policy.wait_s(attempt, retry_after))
    raise ToolUnavailable(f"{url} failed {policy.retries + 1} times; last: {last}")
