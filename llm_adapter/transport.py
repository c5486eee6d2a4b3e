"""Plain HTTP for the grader: one JSON POST, retried when the server asks for it.

The standard library is enough for the two wire formats used here, so no provider
SDK is needed: every OpenAI-compatible server (OpenAI, vLLM, Ollama, LM Studio,
llama.cpp) goes through the same code path, and tests can point it at a loopback
server. Errors travel as ``TransportError`` and become ``error`` verdicts upstream.
"""

from __future__ import annotations

import email.utils
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Callable

# 529 is Anthropic's "overloaded"; the others are the usual transient server states.
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
MAX_RETRY_AFTER = 120.0  # a server asking for longer than this is treated as down
ERROR_BODY_CHARS = 300  # how much of an error body to show: enough to read the reason


class TransportError(Exception):
    """A request that produced no usable HTTP reply. The message is user-facing."""


class Cancelled(TransportError):
    """The judge was cancelled (Ctrl-C) while waiting to retry."""


@dataclass
class HttpReply:
    status: int
    body: dict
    seconds: float


@dataclass
class Transport:
    """POSTs JSON with a timeout, a concurrency limit and bounded retries.

    ``sleep`` is injectable so tests can observe the back-off without waiting; by
    default it waits on the cancel event, so ``cancel()`` ends a back-off at once.
    """

    timeout: float = 60.0
    attempts: int = 3
    concurrency: int = 4
    backoff: float = 1.0
    sleep: Callable[[float], None] | None = None
    _cancel: threading.Event = field(default_factory=threading.Event, repr=False)
    _slots: threading.BoundedSemaphore = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._slots = threading.BoundedSemaphore(max(1, self.concurrency))

    def cancel(self) -> None:
        """Stop waiting: pending back-offs end and no new request is started."""
        self._cancel.set()

    def post(self, url: str, headers: dict[str, str], payload: dict) -> HttpReply:
        """POST ``payload``; retry 429/5xx/timeouts; raise ``TransportError`` at the end."""
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        last = "no attempt made"
        for attempt in range(1, max(1, self.attempts) + 1):
            if self._cancel.is_set():
                raise Cancelled("grader cancelled")
            outcome, delay, last = self._attempt(url, headers, data)
            if outcome is not None:
                return outcome
            if delay is None or attempt == self.attempts:
                break
            self._wait(delay if delay >= 0 else self.backoff * 2 ** (attempt - 1))
        raise TransportError(f"{last} (after {attempt} attempt{'s' * (attempt > 1)})")

    def _attempt(self, url: str, headers: dict[str, str], data: bytes):
        """One request. Returns (reply, None, "") or (None, delay, reason);
        delay None means do not retry, a negative delay means use the back-off."""
        request = urllib.request.Request(url, data=data, method="POST")
        for name, value in {"Content-Type": "application/json", **headers}.items():
            request.add_header(name, value)
        started = time.monotonic()
        with self._slots:
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    body = response.read()
                    status = response.status
            except urllib.error.HTTPError as exc:
                return None, *_http_failure(exc)
            except (TimeoutError, socket.timeout):
                return None, -1.0, f"grader request timed out after {self.timeout:g} s"
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                    return None, -1.0, f"grader request timed out after {self.timeout:g} s"
                return None, -1.0, f"cannot reach the grader: {exc.reason}"
            except (ConnectionError, OSError) as exc:
                return None, -1.0, f"connection to the grader failed: {exc}"
        seconds = time.monotonic() - started
        try:
            parsed = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None, None, f"grader answered HTTP {status} with a body that is not JSON"
        if not isinstance(parsed, dict):
            return None, None, f"grader answered HTTP {status} with JSON that is not an object"
        return HttpReply(status, parsed, seconds), None, ""

    def _wait(self, seconds: float) -> None:
        if self.sleep is not None:
            self.sleep(seconds)
            return
        if self._cancel.wait(seconds):
            raise Cancelled("grader cancelled")


def _http_failure(exc: urllib.error.HTTPError) -> tuple[float | None, str]:
    """Decide whether an HTTP error is worth another attempt, and how long to wait."""
    try:
        text = exc.read().decode("utf-8", "replace")[:ERROR_BODY_CHARS]
    except OSError:
        text = ""
    reason = f"grader answered HTTP {exc.code}" + (f": {text.strip()}" if text.strip() else "")
    if exc.code not in RETRY_STATUSES:
        return None, reason
    delay = retry_after(exc.headers)
    if delay is not None and delay > MAX_RETRY_AFTER:
        return None, f"{reason} (asked to wait {delay:g} s)"
    return (-1.0 if delay is None else delay), reason


def retry_after(headers) -> float | None:
    """Seconds the server asked us to wait: ``retry-after-ms`` (OpenAI), else
    ``retry-after`` as seconds or an HTTP date. None when absent or unreadable."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time())
