"""Plain HTTP for the grader: one JSON POST, retried when the server asks for it.

The standard library is enough for the two wire formats used here, so no provider
SDK is needed: every OpenAI-compatible server (OpenAI, vLLM, Ollama, LM Studio,
llama.cpp) goes through the same code path, and tests can point it at a loopback
server. Errors travel as ``TransportError`` and become ``error`` verdicts upstream.

Three things urllib does not do on its own, done here:

- **A deadline for the whole request.** urllib's timeout bounds each socket
  operation, so a server that sends one byte a second never times out. Each attempt
  here has a watchdog that cuts the connection ``timeout`` seconds after it started,
  whatever stage it is in (connecting, sending, waiting, reading).
- **No redirect carries the key, and none leaves the origin.** urllib follows
  301/302/303 to any host with every header, the key included. Here a redirect is
  followed only when the request carries no credentials, stays on the same origin
  (scheme, host and port) and keeps its method (307, 308); any other redirect is an
  error that names its status and target.
- **A bounded reply.** At most ``MAX_REPLY_BYTES`` are read.

Every message that leaves this module goes through the judge's ``Redactor``, so an
API key echoed by a server never reaches a verdict, a cassette or the terminal.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from referee.dsl.frozen import frozen
from referee.llm_adapter.redact import Redactor

if TYPE_CHECKING:
    from email.message import Message
    from typing import IO

# 529 is Anthropic's "overloaded"; the others are the usual transient server states.
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_RETRY_AFTER = 120.0  # a server asking for longer than this is treated as down
ERROR_BODY_CHARS = 300  # how much of an error body to show: enough to read the reason
MAX_REPLY_BYTES = 16 * 1024 * 1024  # a grader reply is a few kilobytes; this is generous
MAX_REDIRECTS = 3
# Headers that carry credentials: a request holding one never follows a redirect.
CREDENTIAL_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "proxy-authorization"})


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
    """POSTs JSON with a whole-request deadline, a concurrency limit and bounded retries.

    ``sleep`` is injectable so tests can observe the back-off without waiting; by
    default it waits on the cancel event, so ``cancel()`` ends a back-off at once.
    """

    timeout: float = 60.0
    attempts: int = 3
    concurrency: int = 4
    backoff: float = 1.0
    sleep: Callable[[float], None] | None = None
    redactor: Redactor = field(default_factory=Redactor)
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
        attempt = 0
        for attempt in range(1, max(1, self.attempts) + 1):
            if self._cancel.is_set():
                raise Cancelled("grader cancelled")
            outcome, delay, last = self._attempt(url, headers, data)
            if outcome is not None:
                return HttpReply(outcome.status, self.redactor.value(outcome.body),
                                 outcome.seconds)
            if delay is None or attempt == self.attempts:
                break
            self._wait(delay if delay >= 0 else self.backoff * 2 ** (attempt - 1))
        message = f"{last} (after {attempt} attempt{'s' * (attempt > 1)})"
        raise TransportError(self.redactor.text(message))

    def _attempt(self, url: str, headers: dict[str, str], data: bytes):
        """One request, redirects included. Returns (reply, None, "") or (None, delay,
        reason); delay None means do not retry, a negative delay means use the back-off."""
        credentials = any(name.lower() in CREDENTIAL_HEADERS for name in headers)
        started = time.monotonic()
        with self._slots:
            for _ in range(MAX_REDIRECTS + 1):
                outcome = self._exchange(url, headers, data, started)
                if not isinstance(outcome, _Redirect):
                    return outcome
                refusal = _redirect_refusal(url, outcome, credentials)
                if refusal is not None:
                    return None, None, refusal
                url = outcome.target
            return None, None, f"grader redirected more than {MAX_REDIRECTS} times; last to {_shown(url)}"

    def _exchange(self, url: str, headers: dict[str, str], data: bytes, started: float):
        """POST once to ``url``, within what is left of the deadline."""
        left = self.timeout - (time.monotonic() - started)
        timed_out = (None, -1.0, f"grader request timed out after {self.timeout:g} s "
                                 "(the --llm-timeout deadline for the whole request)")
        if left <= 0:
            return timed_out
        request = urllib.request.Request(url, data=data, method="POST")
        for name, value in {"Content-Type": "application/json", **headers}.items():
            request.add_header(name, value)
        watch = _Watch()
        timer = threading.Timer(left, watch.expire)
        timer.daemon = True
        opener = urllib.request.build_opener(_NoRedirect(), _WatchedHTTP(watch),
                                             _WatchedHTTPS(watch))
        timer.start()
        try:
            with opener.open(request, timeout=left) as response:
                body = response.read(MAX_REPLY_BYTES + 1)
                status = response.status
        except urllib.error.HTTPError as exc:
            if watch.expired:
                return timed_out
            if exc.code in REDIRECT_STATUSES:
                location = (exc.headers.get("Location") or "").strip()
                return _Redirect(exc.code, location, urllib.parse.urljoin(url, location))
            return None, *_http_failure(exc)
        except (TimeoutError, socket.timeout):
            return timed_out
        except urllib.error.URLError as exc:
            if watch.expired or isinstance(exc.reason, (TimeoutError, socket.timeout)):
                return timed_out
            return None, -1.0, f"cannot reach the grader: {exc.reason}"
        except (ConnectionError, OSError) as exc:
            if watch.expired:
                return timed_out
            return None, -1.0, f"connection to the grader failed: {exc}"
        except ValueError as exc:  # urllib's verdict on the URL itself: retrying cannot help
            return None, None, f"cannot use the grader URL: {exc}"
        except Exception as exc:  # http.client.HTTPException (IncompleteRead ...): a broken reply
            if watch.expired:
                return timed_out
            return None, -1.0, f"the grader's reply was cut off or malformed ({type(exc).__name__})"
        finally:
            timer.cancel()
            watch.close()
        if watch.expired:  # the watchdog fired while the body was read: it may be partial
            return timed_out
        seconds = time.monotonic() - started
        if len(body) > MAX_REPLY_BYTES:
            return None, None, (f"grader answered HTTP {status} with a body over the limit of "
                                f"{MAX_REPLY_BYTES} bytes; refused")
        try:
            parsed = json.loads(body.decode("utf-8"), parse_constant=_not_json)
        except (ValueError, RecursionError):  # bad UTF-8, bad JSON, a 5000-digit number
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


@frozen
class _Redirect:
    status: int
    location: str  # as the server sent it
    target: str  # resolved against the URL it answered


def origin(url: str) -> tuple[str, str, int | None]:
    """``(scheme, host, port)`` with the scheme's default port filled in; a port that
    is not a number is -1, which equals no real port."""
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:
        port = -1
    return scheme, (parts.hostname or "").lower(), port


def _redirect_refusal(url: str, redirect: _Redirect, credentials: bool) -> str | None:
    """Why a redirect is not followed, or None when it may be."""
    said = f"grader answered HTTP {redirect.status} redirecting to {_shown(redirect.target)}"
    if not redirect.location:
        return f"grader answered HTTP {redirect.status} with no Location; not followed"
    if redirect.target == url:
        return f"{said}, the address it was sent to; not followed"
    if credentials:
        return (f"{said}; not followed: a redirect never carries the API key. If that "
                "address is the grader, give it as --llm-base-url")
    if origin(redirect.target) != origin(url):
        return (f"{said}; not followed: it leaves the origin of --llm-base-url "
                f"({_shown(url, path=False)}). If that address is the grader, give it as --llm-base-url")
    if redirect.status not in (307, 308):
        return (f"{said}; not followed: HTTP {redirect.status} would turn the POST into a "
                "GET. Give the new address as --llm-base-url")
    return None


def _shown(url: str, path: bool = True) -> str:
    """A URL as it may be printed: no user:password part, no query string."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    shown = f"{parts.scheme}://{host}{port}"
    if path:
        shown += parts.path + ("?…" if parts.query else "")
    return shown


class _Watch:
    """The connections of one attempt, so the deadline can cut them mid-operation.

    Each is held as a duplicate of its socket: shutting a duplicate down ends the
    connection for every descriptor of it, and it stays valid when the original is
    wrapped for TLS (the wrapping socket takes over the original's descriptor)."""

    def __init__(self) -> None:
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()

    def add(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock.dup())
            if self.expired:
                _cut(self._sockets[-1])

    def expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _cut(sock)

    def close(self) -> None:
        """Close the duplicates (the connections themselves are urllib's to close)."""
        with self._lock:
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()


def _cut(sock: socket.socket) -> None:
    # shutdown wakes a recv blocked in another thread (close alone may not).
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _watched(connection_class: type[http.client.HTTPConnection],
             watch: _Watch) -> type[http.client.HTTPConnection]:
    """``connection_class`` whose socket is registered with ``watch`` as soon as it
    is connected, before any TLS handshake (so a handshake that stalls is cut too)."""

    class Registered(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            watch.add(self.sock)

    if connection_class is http.client.HTTPConnection:
        return Registered
    # HTTPSConnection.connect connects through its base's connect, then wraps the
    # socket: placed between the two, Registered sees the plain socket.
    return type(connection_class.__name__, (connection_class, Registered), {})


class _Watching:
    """Opens each connection through ``_watched``: mixed into urllib's two handlers."""

    def __init__(self, watch: _Watch) -> None:
        super().__init__()
        self._watch = watch

    def do_open(self, http_class, req: urllib.request.Request, **kwargs):
        return super().do_open(_watched(http_class, self._watch), req, **kwargs)  # type: ignore[misc]


class _WatchedHTTP(_Watching, urllib.request.HTTPHandler):
    pass


class _WatchedHTTPS(_Watching, urllib.request.HTTPSHandler):
    pass


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Never follow a redirect inside urllib: ``Transport`` decides, with the rules above."""

    def redirect_request(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                         headers: Message, newurl: str):
        return None


def _not_json(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _http_failure(exc: urllib.error.HTTPError) -> tuple[float | None, str]:
    """Decide whether an HTTP error is worth another attempt, and how long to wait."""
    try:
        text = exc.read(64 * 1024).decode("utf-8", "replace")[:ERROR_BODY_CHARS]
    except (OSError, ValueError):
        text = ""
    except Exception:  # noqa: BLE001 - a cut-off error body is still an error
        text = ""
    reason = f"grader answered HTTP {exc.code}" + (f": {text.strip()}" if text.strip() else "")
    if exc.code not in RETRY_STATUSES:
        return None, reason
    delay = retry_after(exc.headers)
    if delay is not None and delay > MAX_RETRY_AFTER:
        return None, f"{reason} (asked to wait {delay:g} s)"
    return (-1.0 if delay is None else delay), reason


def retry_after(headers: Message | None) -> float | None:
    """Seconds the server asked us to wait: ``retry-after-ms`` (OpenAI), else
    ``retry-after`` as seconds or an HTTP date. None when absent or unreadable."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return _finite(float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return _finite(float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _finite(seconds: float) -> float | None:
    """NaN is unreadable; infinity is a very long wait (refused as too long)."""
    if seconds != seconds:
        return None
    return max(0.0, seconds)
