"""The two wire formats a grader can speak: OpenAI chat completions and Anthropic messages.

A backend turns a ``ChatRequest`` (a system text and a list of turns) into one
HTTP call and reads back the reply text and token counts. ``params()`` lists what
changes the answer besides the prompt; the cassette key is built from it.
"""

from __future__ import annotations

import ipaddress
import os
import urllib.parse
from dataclasses import dataclass
from typing import Protocol

from referee.dsl.frozen import frozen
from referee.engine.text import surrogates_escaped
from referee.llm_adapter.redact import variable_problem
from referee.llm_adapter.transport import Transport, TransportError, origin

OPENAI_URL = "https://api.openai.com/v1"
ANTHROPIC_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
MAX_OUTPUT_TOKENS = 4096  # a batched reply for a dozen assertions fits well within this


@frozen
class ChatRequest:
    """What the judge asks: ``turns`` alternate user/assistant, starting with user."""

    system: str
    turns: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Completion:
    """A reply's text and what it cost. A lone surrogate in the text (an API's JSON
    may carry one as ``\\ud800``) is kept as that escape: such a text could be neither
    recorded nor sent back in a retry, and the reply's parser refuses it by name."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    replayed: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.text, str) and not self.text.isascii():
            object.__setattr__(self, "text", surrogates_escaped(self.text))


class Backend(Protocol):
    """Something that answers a ``ChatRequest``. Raises ``TransportError`` on failure."""

    @property
    def name(self) -> str: ...

    @property
    def model(self) -> str: ...

    def params(self) -> dict: ...

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        """Answer ``request``; ``about`` names the assertions, for recordings only."""

    def cancel(self) -> None: ...


@dataclass
class OpenAIBackend:
    """Any server with ``POST {base}/chat/completions``. The key is optional so local
    servers (Ollama, vLLM, LM Studio, llama.cpp) work without one."""

    model: str
    base_url: str
    api_key: str | None
    transport: Transport
    seed: int | None = 0
    name: str = "openai"

    @property
    def endpoint(self) -> str:
        """The server asked, as reports record it (``endpoint``): no secret."""
        return endpoint(self.name, self.base_url)

    def params(self) -> dict:
        params = {"temperature": 0}
        if self.seed is not None:
            params["seed"] = self.seed
        return params

    def payload(self, request: ChatRequest) -> dict:
        """The body of ``POST /chat/completions`` (and of a batch file's line)."""
        messages = [{"role": "system", "content": request.system}]
        messages += [{"role": role, "content": text} for role, text in request.turns]
        return {"model": self.model, "messages": messages, **self.params()}

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        reply = self.transport.post(_join(self.base_url, "chat/completions"), headers, self.payload(request))
        return self.answer(reply.body, reply.seconds)

    @staticmethod
    def answer(body: dict, seconds: float = 0.0) -> Completion:
        """The completion a chat-completions reply body holds; ``TransportError`` if none."""
        try:
            text = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise TransportError("grader reply has no choices[0].message.content") from None
        usage = _dict(body.get("usage"))
        return Completion(
            text=text if isinstance(text, str) else "",
            input_tokens=_int(usage.get("prompt_tokens")),
            output_tokens=_int(usage.get("completion_tokens")),
            seconds=seconds,
        )

    def cancel(self) -> None:
        self.transport.cancel()


@dataclass
class AnthropicBackend:
    """The Anthropic Messages API. It has no seed; temperature 0 is the best it offers."""

    model: str
    base_url: str
    api_key: str | None
    transport: Transport
    name: str = "anthropic"

    @property
    def endpoint(self) -> str:
        """The server asked, as reports record it (``endpoint``): no secret."""
        return endpoint(self.name, self.base_url)

    def params(self) -> dict:
        return {"temperature": 0, "max_tokens": MAX_OUTPUT_TOKENS}

    def payload(self, request: ChatRequest) -> dict:
        """The body of ``POST /v1/messages`` (and a batch request's ``params``)."""
        messages = [{"role": role, "content": text} for role, text in request.turns]
        return {"model": self.model, "system": request.system, "messages": messages, **self.params()}

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        reply = self.transport.post(_join(self.base_url, "v1/messages"), headers, self.payload(request))
        return self.answer(reply.body, reply.seconds)

    @staticmethod
    def answer(body: dict, seconds: float = 0.0) -> Completion:
        """The completion a messages reply body holds; ``TransportError`` if none."""
        blocks = body.get("content")
        if not isinstance(blocks, list):
            raise TransportError("grader reply has no content list")
        text = "".join(b["text"] for b in blocks if isinstance(b, dict)
                       and b.get("type") == "text" and isinstance(b.get("text"), str))
        usage = _dict(body.get("usage"))
        return Completion(
            text=text,
            input_tokens=_int(usage.get("input_tokens")),
            output_tokens=_int(usage.get("output_tokens")),
            seconds=seconds,
        )

    def cancel(self) -> None:
        self.transport.cancel()


def make_backend(kind: str, model: str, *, base_url: str | None, api_key_env: str | None,
                 transport: Transport, seed: int | None) -> OpenAIBackend | AnthropicBackend:
    """Build a backend from its kind (``openai`` or ``anthropic``) and options.

    The base URL comes from the argument, else ``OPENAI_BASE_URL`` /
    ``ANTHROPIC_BASE_URL``, else the provider's public endpoint. The key is read
    from an environment variable, never from the command line, so it does not end
    up in shell history or process lists; ``api_key`` says which variable, and
    whether the endpoint gets a key at all. The key is registered with the
    transport's redactor, so it is removed from everything the grader says.
    """
    if not model:
        raise ValueError(f"--llm {kind}:MODEL needs a model name")
    if kind == "openai":
        url = base_url_of(kind, base_url)
        key = api_key(url, OPENAI_URL, "OPENAI_API_KEY", api_key_env)
        transport.redactor.add(key)
        return OpenAIBackend(model, url, key, transport, seed)
    if kind == "anthropic":
        url = base_url_of(kind, base_url)
        key = api_key(url, ANTHROPIC_URL, "ANTHROPIC_API_KEY", api_key_env)
        transport.redactor.add(key)
        return AnthropicBackend(model, url, key, transport)
    raise ValueError(f"unknown grader backend {kind!r}: use openai:MODEL or anthropic:MODEL")


def base_url_of(kind: str, base_url: str | None) -> str:
    """The URL a backend of ``kind`` posts to: ``base_url``, else ``OPENAI_BASE_URL`` /
    ``ANTHROPIC_BASE_URL``, else the provider's public endpoint."""
    if kind == "openai":
        return base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL
    return base_url or os.environ.get("ANTHROPIC_BASE_URL") or ANTHROPIC_URL


def endpoint(kind: str, base_url: str | None) -> str:
    """What tells the server a backend of ``kind`` asks apart from another, as reports
    and shard manifests may record it: scheme, host, port (none when the scheme's
    default) and path, without a trailing slash. Never a user, a password, a query
    or a fragment: those may hold a secret, and they do not choose the server."""
    parts = urllib.parse.urlsplit(base_url_of(kind, base_url))
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:  # not a number: no request can reach it, so none is shown
        port = None
    shown = f":{port}" if port and port != {"http": 80, "https": 443}.get(scheme) else ""
    return f"{scheme}://{host}{shown}{parts.path.rstrip('/')}"


def api_key(url: str, provider_url: str, default_variable: str,
            named: str | None) -> str | None:
    """The key to send to ``url``, or None to send none.

    - The provider's own endpoint (same scheme, host and port as ``provider_url``)
      gets the key from ``named``, else from ``default_variable``; without one it
      refuses to start, naming the variable.
    - Any other endpoint (a local server, a proxy, another vendor) gets a key only
      when ``--llm-api-key-env`` names its variable: the provider's key is never
      sent to a server merely because it is in the environment. A variable that
      is named must be set, and its key never travels over plain HTTP to a host
      other than this machine.
    """
    if named is not None:
        problem = variable_problem(named)
        if problem:
            raise ValueError(problem)
    scheme, host = _scheme_host(url)
    if scheme not in ("http", "https") or not host:
        raise ValueError("the grader URL (--llm-base-url) must be an http:// or https:// URL "
                         "with a host")
    unusable = _unusable_address(url)
    if unusable:
        raise ValueError(f"the grader URL (--llm-base-url) {unusable}")
    if origin(url) == origin(provider_url):
        variable = named or default_variable
        key = os.environ.get(variable, "").strip()
        if not key:
            raise ValueError(f"the grader needs an API key in the environment variable {variable}")
        return key
    if named is None:
        return None
    key = os.environ.get(named, "").strip()
    if not key:
        raise ValueError(f"--llm-api-key-env names {named}, which is not set or empty")
    if scheme == "http" and not _loopback(host):
        raise ValueError(f"refusing to send the key in {named} over plain http to {host}: "
                         "use https, or leave out --llm-api-key-env if the server needs no key")
    return key


def _unusable_address(url: str) -> str:
    """Why no connection can be made to ``url``'s address, or ''. The transport
    connects to the host and port alone: a port that is no number from 1 to 65535
    fails every request, and a user (and password) before the host is taken as part
    of the host name; either would turn every semantic assertion into an ERROR after
    three attempts, rather than stop at the flag. The URL itself is not shown: a
    password in it would be."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is not None or parts.password is not None:
        return ("holds a user or password before the host: referee sends none that way; a key "
                "goes in an environment variable named by --llm-api-key-env")
    try:
        port = parts.port  # None without one: the scheme's
    except ValueError:  # not a number, or above 65535
        port = 0
    if port == 0:
        return "has a port that is not a number from 1 to 65535"
    return ""


def _scheme_host(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower()


def _loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _join(base: str, path: str) -> str:
    return base.rstrip("/") + "/" + path


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0
