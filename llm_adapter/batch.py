"""Judge requests sent as a provider batch (half the price), and the results brought back.

Both wire formats referee speaks have a batch form:

- OpenAI-compatible (``POST /v1/batches`` over an uploaded JSONL file): each line is
  ``{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}``, and
  each result line ``{"custom_id", "response": {"status_code", "body"}, "error"}``;
- Anthropic Message Batches (``POST /v1/messages/batches``): each request is
  ``{"custom_id", "params"}`` (the ``requests`` of the call, one per line here), and
  each result line ``{"custom_id", "result": {"type": "succeeded", "message"}}``
  (or ``errored``, ``canceled``, ``expired``).

The body is the one the backend would POST (``payload``), and the custom id is
the cassette key of the request (``cassette.request_key``: 64 hex digits, within
Anthropic's 64 characters): a result is the reply to exactly the request whose
key it carries. ``--llm-batch-export FILE`` grades without asking anyone and
writes every request it would have sent (that the cassette, if one is given,
does not answer), one canonical line per key, sorted by key; the same request
gives the same line in every shard, so lines shared by two shards are equal and
``LC_ALL=C sort -u`` of several exports is the export of all their runs.
``--llm-batch-import FILE...`` checks every result line and puts the replies into
the cassette; grading then replays it (``replayed``, no duration: a later
``replay:`` of that cassette writes the same bytes).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.dsl.named_file import utf8_text
from referee.llm_adapter.backends import AnthropicBackend, ChatRequest, Completion, OpenAIBackend
from referee.llm_adapter.cassette import RepeatedField, request_key, unique_fields
from referee.llm_adapter.transport import Transport, TransportError

OPENAI_URL = "/v1/chat/completions"
KEY = re.compile(r"[0-9a-f]{64}")
MAX_RESULTS_BYTES = 4 * 1024 * 1024 * 1024  # far above a provider's batch output
Wire = OpenAIBackend | AnthropicBackend


class BatchPending(TransportError):
    """The request was written to the batch file instead of being sent."""


def offline_backend(kind: str, model: str, seed: int | None) -> Wire:
    """The backend of ``kind`` for its wire format only: it never sends anything."""
    if kind == "openai":
        return OpenAIBackend(model, "", None, Transport(), seed)
    if kind == "anthropic":
        return AnthropicBackend(model, "", None, Transport())
    raise ValueError(f"a batch needs openai:MODEL or anthropic:MODEL, not {kind!r}")


def request_line(backend: Wire, key: str, request: ChatRequest) -> str:
    """One line of the batch file: the request as the backend would send it, keyed."""
    if backend.name == "openai":
        line: dict[str, Any] = {"custom_id": key, "method": "POST", "url": OPENAI_URL,
                                "body": backend.payload(request)}
    else:
        line = {"custom_id": key, "params": backend.payload(request)}
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Exporter:
    """A ``Backend`` that answers nothing: each request it is asked becomes a line
    of the batch file, and the assertions concerned wait for the batch (``error``)."""

    backend: Wire
    lines: dict[str, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def name(self) -> str:
        return self.backend.name

    @property
    def model(self) -> str:
        return self.backend.model

    def params(self) -> dict:
        return self.backend.params()

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        key = request_key(self.model, self.params(), request)
        line = request_line(self.backend, key, request)
        with self._lock:
            self.lines[key] = line
        raise BatchPending(f"waiting for the batch: request {key[:12]} was exported with "
                           "--llm-batch-export; import its results with --llm-batch-import")

    def cancel(self) -> None:
        return None

    def text(self) -> str:
        """The batch file: one line per request, sorted by its key."""
        return "".join(self.lines[key] + "\n" for key in sorted(self.lines))


@dataclass
class Results:
    """The replies of a batch's result files by key, and the results that are no reply."""

    replies: dict[str, Completion] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)  # "<custom id>: <why>", one per failed request


def read_results(paths: list[Path], backend: Wire) -> Results:
    """Every line of the result files, checked; ``ValueError`` naming the file and line
    of anything that is not a result of this wire format for a key referee exported,
    or two different replies to one request."""
    found = Results()
    lines: dict[str, str] = {}
    for path in paths:
        for number, line in enumerate(_read(path).split("\n"), 1):
            if line.strip():
                _one_result(f"{path}:{number}", line, backend, found, lines)
    return found


def _one_result(where: str, line: str, backend: Wire, found: Results, lines: dict[str, str]) -> None:
    try:
        value = json.loads(line, object_pairs_hook=unique_fields)
    except RepeatedField as exc:  # one line would answer two requests, or give two replies
        raise ValueError(f"{where}: the field {exc.args[0]!r} appears twice") from None
    except (ValueError, RecursionError):
        raise ValueError(f"{where}: not a JSON line") from None
    if not isinstance(value, dict) or not isinstance(value.get("custom_id"), str):
        raise ValueError(f"{where}: not a batch result (an object with a \"custom_id\")")
    key = value["custom_id"]
    if not KEY.fullmatch(key):
        raise ValueError(f"{where}: custom_id {key[:70]!r} is not a request key referee exported "
                         "(64 hex digits)")
    completion, failure = (_openai if backend.name == "openai" else _anthropic)(where, value)
    if failure is not None:
        found.failed.append(f"{key[:12]}: {failure}")
        return
    assert completion is not None
    if key in found.replies and found.replies[key].text != completion.text:
        raise ValueError(f"{where}: request {key[:12]} was answered at {lines[key]} already, with "
                         "another reply; keep one batch's results")
    found.replies.setdefault(key, completion)
    lines.setdefault(key, where)


def _openai(where: str, value: dict) -> tuple[Completion | None, str | None]:
    if set(value) - {"id", "custom_id", "response", "error"}:
        raise ValueError(f"{where}: not an OpenAI batch result (fields {sorted(value)}); is it "
                         "an Anthropic one? Give --llm-backend anthropic:MODEL")
    response, error = value.get("response"), value.get("error")
    if error:
        return None, f"the batch answered an error: {_said(error)}"
    if not isinstance(response, dict) or not isinstance(response.get("body"), dict):
        raise ValueError(f"{where}: the result has no response.body")
    if response.get("status_code") != 200:
        return None, f"HTTP {response.get('status_code')}: {_said(response['body'].get('error'))}"
    return _answered(where, OpenAIBackend.answer, response["body"])


def _anthropic(where: str, value: dict) -> tuple[Completion | None, str | None]:
    result = value.get("result")
    if set(value) != {"custom_id", "result"} or not isinstance(result, dict):
        raise ValueError(f"{where}: not an Anthropic batch result (custom_id and result); is it an "
                         "OpenAI one? Give --llm-backend openai:MODEL")
    kind = result.get("type")
    if kind != "succeeded":
        return None, f"the batch's result is {kind!r}" + (f": {_said(result.get('error'))}" if result.get("error") else "")
    if not isinstance(result.get("message"), dict):
        raise ValueError(f"{where}: a succeeded result with no message")
    return _answered(where, AnthropicBackend.answer, result["message"])


def _answered(where: str, answer: Any, body: dict) -> tuple[Completion, None]:
    try:
        found = answer(body)
    except TransportError as exc:
        raise ValueError(f"{where}: {exc}") from None
    # From a file, not a live request: replayed, and no duration, as a replay of the cassette.
    return Completion(found.text, found.input_tokens, found.output_tokens, 0.0, True), None


def _said(error: Any) -> str:
    if isinstance(error, dict):
        nested = error.get("error")
        inner: dict = nested if isinstance(nested, dict) else error
        return str(inner.get("message") or inner.get("type") or inner.get("code") or error)[:200]
    return str(error)[:200]


def _read(path: Path) -> str:
    """A result file's text: a regular file, read whole up to the bound, UTF-8, without
    a leading byte order mark (a Windows tool may save it with one, and with CRLF line
    ends, which JSON reads as whitespace: how the file was saved, not what it holds)."""
    from referee.engine.run.safeio import read_named_file

    data, problem = read_named_file(path, str(path), MAX_RESULTS_BYTES)
    if data is None:
        raise ValueError(f"{path}: {problem.message if problem else 'cannot be read'}")
    return utf8_text(data, path).removeprefix("\ufeff")


def import_results(path: Path, backend: Wire, results: Results, note: str = "") -> int:
    """Put the replies into the cassette at ``path`` (made when missing; recorded for this
    very backend, model and parameters when present); returns how many were new.
    A reply the cassette already holds for a key is kept; another reply for it is
    a ``ValueError``."""
    from referee.llm_adapter.cassette import FORMAT, VERSION, load, save

    if path.is_symlink():  # save() renames the new cassette over the path: the link itself would be replaced
        raise ValueError(f"{path} is a symbolic link; --llm-batch-import writes the cassette in its place and "
                         "replaces only a regular file: give the path it points to")
    meta, entries = load(path) if path.exists() else ({}, {})
    wanted = {"backend": backend.name, "model": backend.model, "params": backend.params()}
    had = {k: meta.get(k) for k in wanted}
    if meta and had != wanted:
        raise ValueError(f"{path} was recorded with {had}, not {wanted}; import into a new cassette")
    meta = {"format": FORMAT, "version": VERSION, **wanted,
            "judge": note or meta.get("judge") or f"{backend.name}:{backend.model}, from a provider batch"}
    new = 0
    for key in sorted(results.replies):
        reply = results.replies[key]
        old = entries.get(key)
        if old is not None and old["reply"] != reply.text:
            raise ValueError(f"{path} already holds another reply to request {key[:12]}; import into a "
                             "new cassette")
        if old is None:
            entries[key] = {"key": key, "reply": reply.text, "input_tokens": reply.input_tokens,
                            "output_tokens": reply.output_tokens, "seconds": 0.0}
            new += 1
    try:
        save(path, meta, entries)
    except OSError as exc:
        raise ValueError(f"cannot write cassette {path}: {exc.strerror or exc}") from None
    return new


def batch_judge(spec: str, *, inner: str | None, seed: int | None, export: bool, imported: list[str],
                batch: bool, price: tuple[float, float] | None, note: str) -> Any:
    """The judge of a grade that exports its requests (``Exporter``, behind the
    cassette's replies when ``spec`` names one), or that imports a batch's results
    into the cassette and replays it. ``ValueError`` for a configuration that
    cannot work, saying which flags to give."""
    from referee.llm_adapter.cassette import CassetteBackend
    from referee.llm_adapter.factory import BACKENDS, split_spec
    from referee.llm_adapter.judge import LLMJudge

    kind, rest = split_spec(spec)
    if export and imported:
        raise ValueError("give --llm-batch-export or --llm-batch-import, not both: export, send the "
                         "batch, then import its results")
    if kind in BACKENDS:
        if imported:
            raise ValueError("--llm-batch-import puts the replies into a cassette: give --llm replay:PATH "
                             f"--llm-backend {kind}:{rest}")
        return LLMJudge(Exporter(offline_backend(kind, rest, seed)), batch=batch, price_per_million=price)
    if not inner:
        raise ValueError(f"--llm {kind}:PATH with a batch needs --llm-backend openai:MODEL or "
                         "anthropic:MODEL: the model the batch asks")
    inner_kind, model = split_spec(inner)
    wire = offline_backend(inner_kind, model, seed)
    path = Path(rest)
    if export:  # the cassette answers what it holds; the rest goes to the batch file
        return LLMJudge(CassetteBackend(path, "auto", Exporter(wire), note=note), batch=batch,
                        price_per_million=price)
    results = read_results([Path(p) for p in imported], wire)
    new = import_results(path, wire, results, note)
    _told(f"imported {len(results.replies)} replies from the batch into {path} ({new} new)")
    for failed in results.failed[:5]:
        _told(f"warning: no reply: {failed}; its assertions will be errors (export them again)")
    if len(results.failed) > 5:
        _told(f"warning: ... and {len(results.failed) - 5} more requests without a reply")
    return LLMJudge(CassetteBackend(path, "replay"), batch=batch, price_per_million=price)


def _told(line: str) -> None:
    import sys

    print(f"referee: {line}", file=sys.stderr)


def exported(judge: Any) -> Exporter | None:
    """The ``Exporter`` behind a judge, if it has one."""
    backend = getattr(judge, "backend", None)
    backend = getattr(backend, "inner", backend)
    return backend if isinstance(backend, Exporter) else None
