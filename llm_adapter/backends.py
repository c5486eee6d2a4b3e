"""The two wire formats a grader can speak: OpenAI chat completions and Anthropic messages.

A backend turns a ``ChatRequest`` (a system text and a list of turns) into one
HTTP call and reads back the reply text and token counts. ``params()`` lists what
changes the answer besides the prompt; the cassette key is built from it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Protocol

from referee.llm_adapter.transport import Transport, TransportError

OPENAI_URL = "https://api.openai.com/v1"
ANTHROPIC_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
MAX_OUTPUT_TOKENS = 4096  # a batched reply for a dozen assertions fits well within this


@dataclass(frozen=True)
class ChatRequest:
    """What the judge asks: ``turns`` alternate user/assistant, starting with user."""

    system: str
    turns: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Completion:
    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    replayed: bool = False


class Backend(Protocol):
    """Something that answers a ``ChatRequest``. Raises ``TransportError`` on failure."""

    name: str
    model: str

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

    def params(self) -> dict:
        params = {"temperature": 0}
        if self.seed is not None:
            params["seed"] = self.seed
        return params

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        messages = [{"role": "system", "content": request.system}]
        messages += [{"role": role, "content": text} for role, text in request.turns]
        payload = {"model": self.model, "messages": messages, **self.params()}
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        reply = self.transport.post(_join(self.base_url, "chat/completions"), headers, payload)
        try:
            text = reply.body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise TransportError("grader reply has no choices[0].message.content") from None
        usage = reply.body.get("usage") or {}
        return Completion(
            text=text if isinstance(text, str) else "",
            input_tokens=_int(usage.get("prompt_tokens")),
            output_tokens=_int(usage.get("completion_tokens")),
            seconds=reply.seconds,
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

    def params(self) -> dict:
        return {"temperature": 0, "max_tokens": MAX_OUTPUT_TOKENS}

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        messages = [{"role": role, "content": text} for role, text in request.turns]
        payload = {"model": self.model, "system": request.system, "messages": messages,
                   **self.params()}
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        reply = self.transport.post(_join(self.base_url, "v1/messages"), headers, payload)
        blocks = reply.body.get("content")
        if not isinstance(blocks, list):
            raise TransportError("grader reply has no content list")
        text = "".join(b.get("text", "") for b in blocks
                       if isinstance(b, dict) and b.get("type") == "text")
        usage = reply.body.get("usage") or {}
        return Completion(
            text=text,
            input_tokens=_int(usage.get("input_tokens")),
            output_tokens=_int(usage.get("output_tokens")),
            seconds=reply.seconds,
        )

    def cancel(self) -> None:
        self.transport.cancel()


def make_backend(kind: str, model: str, *, base_url: str | None, api_key_env: str | None,
                 transport: Transport, seed: int | None) -> OpenAIBackend | AnthropicBackend:
    """Build a backend from its kind (``openai`` or ``anthropic``) and options.

    The base URL comes from the argument, else ``OPENAI_BASE_URL`` /
    ``ANTHROPIC_BASE_URL``, else the provider's public endpoint. The key is read
    from the named environment variable, never from the command line, so it does
    not end up in shell history or process lists.
    """
    if not model:
        raise ValueError(f"--llm {kind}:MODEL needs a model name")
    if kind == "openai":
        url = base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL
        key = _key(api_key_env or "OPENAI_API_KEY", required=url.rstrip("/") == OPENAI_URL)
        return OpenAIBackend(model, url, key, transport, seed)
    if kind == "anthropic":
        url = base_url or os.environ.get("ANTHROPIC_BASE_URL") or ANTHROPIC_URL
        key = _key(api_key_env or "ANTHROPIC_API_KEY", required=url.rstrip("/") == ANTHROPIC_URL)
        return AnthropicBackend(model, url, key, transport)
    raise ValueError(f"unknown grader backend {kind!r}: use openai:MODEL or anthropic:MODEL")


def _key(variable: str, *, required: bool) -> str | None:
    value = os.environ.get(variable, "").strip()
    if not value and required:
        raise ValueError(f"the grader needs an API key in the environment variable {variable}")
    return value or None


def _join(base: str, path: str) -> str:
    return base.rstrip("/") + "/" + path


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0
