"""Test support for the LLM adapter: a scripted grader server on loopback, and a small run.

``ScriptedServer`` is an ``http.server`` in a thread on 127.0.0.1 (port 0) that speaks
both the OpenAI chat-completions and the Anthropic messages wire formats. Each
request takes the next step of its script: a reply text, an HTTP status (with
headers: a redirect is ``Status(302, {"Location": url})``), a delay (for timeouts),
a drip (a slow loris, one byte at a time), an ``Answer`` from the request's headers
(a server that echoes the key), or a callable that answers from the request body
(a scripted judge). It listens on loopback only.
Token counts it reports are approximations (UTF-8 bytes / 4), not a tokenizer's.

``small_run`` builds a run in memory from a dict of output files (``engine.run.memory``).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from referee.engine.run.memory import MemoryRun, memory_run
from referee.llm_adapter.backends import Completion

SCRIPTED_NOTE = "scripted loopback judge, not a language model"


@dataclass
class Status:
    """Answer with an HTTP status (and headers), no reply text."""

    code: int
    headers: dict = field(default_factory=dict)
    body: str = '{"error": "scripted"}'


@dataclass
class Delay:
    """Wait before answering with ``then``: longer than the client's timeout, it times out."""

    seconds: float
    then: object = "{}"


@dataclass
class Drip:
    """A slow loris: send the answer to ``then`` one byte every ``interval`` seconds, the
    status line and headers too when ``head``. Each byte comes well within a per-read
    timeout; only a deadline for the whole request stops it. It gives up after
    ``limit`` seconds, so a client that never gives up does not keep a thread forever."""

    interval: float = 0.05
    then: object = "{}"
    head: bool = True
    limit: float = 60.0


@dataclass
class Answer:
    """Answer from the request's body and headers: ``reply(body, headers)`` returns a
    reply text or a ``Status`` (a server that echoes what it was sent, say)."""

    reply: object


class ScriptedServer:
    """A loopback grader. ``script`` holds the steps; ``requests`` what was received."""

    def __init__(self, *steps: object, default: object = None) -> None:
        self.script: deque = deque(steps)
        self.default = default
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def next_step(self, record: dict) -> object:
        with self._lock:
            self.requests.append(record)
            return self.script.popleft() if self.script else self.default


def _handler(owner: ScriptedServer) -> type:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep test output clean
            return

        def do_GET(self) -> None:  # what a client that follows a 301/302/303 sends
            self.do_POST()

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length)) if length else {}
            record = {"path": self.path, "body": body, "method": self.command,
                      "headers": {k.lower(): v for k, v in self.headers.items()}}
            step = owner.next_step(record)
            try:
                self._answer(step, body, record["headers"])
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up (a timeout test): nothing to say

        def _answer(self, step: object, body: dict, headers: dict) -> None:
            if isinstance(step, Delay):
                time.sleep(step.seconds)
                step = step.then
            if isinstance(step, Answer):
                step = step.reply(body, headers)
            if isinstance(step, Drip):
                self._drip(step, body)
                return
            if isinstance(step, Status):
                self._send(step.code, step.body.encode(), step.headers)
                return
            self._send(200, self._payload(step, body))

        def _payload(self, step: object, body: dict) -> bytes:
            text = step(body) if callable(step) else str(step if step is not None else "")
            return json.dumps(_wire(self.path, body, text)).encode()

        def _send(self, code: int, data: bytes, headers: dict | None = None) -> None:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _drip(self, step: Drip, body: dict) -> None:
            data = self._payload(step.then, body)
            head = (f"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(data)}\r\n\r\n").encode()
            if not step.head:
                self.wfile.write(head)
                self.wfile.flush()
            slow = head + data if step.head else data
            ends = time.monotonic() + step.limit
            for i in range(len(slow)):
                if time.monotonic() > ends:
                    return
                self.wfile.write(slow[i:i + 1])
                self.wfile.flush()
                time.sleep(step.interval)

    return Handler


def prompt_text(body: dict) -> str:
    """All the text of a request, whichever wire format it came in."""
    parts = [body.get("system") or ""]
    parts += [m.get("content") or "" for m in body.get("messages", [])]
    return "\n".join(parts)


def _wire(path: str, body: dict, text: str) -> dict:
    used = len(prompt_text(body).encode()) // 4
    made = len(text.encode()) // 4
    if path.endswith("/messages"):
        return {"type": "message", "role": "assistant", "content": [{"type": "text", "text": text}],
                "usage": {"input_tokens": used, "output_tokens": made}}
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": used, "completion_tokens": made}}


# ----------------------------------------------------------------------- scripted judges


def user_text(body: dict) -> str:
    """The first user turn, whichever wire format carried it."""
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def asked_ids(body: dict) -> list[str]:
    """The expectation ids of the request: lines such as ``A1: text``."""
    return re.findall(r"^(A\d+): ", user_text(body), re.MULTILINE)


def asked(body: dict) -> list[str]:
    """The expectation texts, in id order."""
    return re.findall(r"^A\d+: (.*)$", user_text(body), re.MULTILINE)


def verdicts(*entries: tuple[str, list[tuple[str, str]], str], claims: list | None = None) -> str:
    """A well-formed reply: entries of (reasoning, [(source, quote)], verdict), ids A1.."""
    return json.dumps({"assertions": [
        {"id": f"A{n}", "reasoning": why, "evidence": [{"source": s, "quote": q} for s, q in ev],
         "verdict": verdict} for n, (why, ev, verdict) in enumerate(entries, 1)],
        "claims": claims or []}, ensure_ascii=False)


def section(body: dict, source: str) -> list[str]:
    """The non-empty lines of one source in the rendered record, headers left out."""
    pattern = rf"=== source: {source} ===\n(.*?)(?:\n=== |\n<<<END )"
    match = re.search(pattern, user_text(body), re.DOTALL)
    lines = match.group(1).splitlines() if match else []
    return [x for x in lines if x.strip() and not x.startswith("--- ") and x != "(nothing)"]


WORD = re.compile(r"[A-Za-z_][\w.]*\d[\w.]*|[A-Za-z]+_\w+|[a-z]+[A-Z]\w*|\w{8,}")


def reading_judge(body: dict) -> str:
    """A scripted, gullible judge; it reads nothing for meaning.

    For each expectation it takes the identifiers it names (``LX2084``,
    ``travel_bookReservation``), quotes the first line of the record that holds one,
    sources tried in trust order, agent notes included, and says PASS if it found
    one. The adapter's checks then demote a PASS that rests on agent notes alone.
    """
    entries = []
    for text in asked(body):
        words = sorted(set(WORD.findall(text)), key=lambda w: (-len(w), w))
        hit = _first_line(body, words)
        if hit is None:
            entries.append(("Nothing in the record names what the expectation asks for.", [], "FAIL"))
        else:
            entries.append((f"The record mentions {hit[2]}.", [(hit[0], hit[1])], "PASS"))
    return verdicts(*entries)


def _first_line(body: dict, words: list[str]) -> tuple[str, str, str] | None:
    for source in ("tool_calls", "response", "outputs", "agent_notes"):
        for line in section(body, source):
            for word in words:
                if word in line:
                    return source, line.strip(), word
    return None


# The bundled example's semantic expectations, as a person judged them after reading
# each run's response: the line that settles a PASS (quoted as evidence), else a FAIL
# and why. ``answer_key_judge`` serves these answers; it reads nothing for meaning.
KEY_NOTE = "answers a person wrote after reading each response, served by a loopback judge; not a language model"
ANSWER_KEY = {
    "The response is polite and tells the traveller what happens next": (
        [("Your e-ticket will arrive at ana.mueller@example.com within the next few minutes. Have a good trip!",
          "It thanks the traveller and says the e-ticket arrives by mail within minutes."),
         ("Your e-ticket is on its way to ana.mueller@example.com.",
          "It says the e-ticket is on its way to the traveller's address.")],
        "The response states the booking and says nothing of what happens next."),
    "The response explains which flights were left out and why": (
        [("Iberia IB3471 (154.00 EUR) was left out because it has one stop.",
          "It names the flight left out and the reason: one stop.")],
        "The response names no flight that was left out, nor why."),
}


def answer_key_judge(body: dict) -> str:
    """A scripted judge that gives ``ANSWER_KEY``'s verdicts: PASS quoting the
    response line the key names when the response holds it, else the key's FAIL. An
    expectation the key does not know is a FAIL that says so."""
    response = section(body, "response")
    entries = []
    for text in asked(body):
        passes, why_not = ANSWER_KEY.get(text, ([], "The answer key has no verdict for this expectation."))
        hit = next(((quote, why) for quote, why in passes if any(quote in line for line in response)), None)
        entries.append((hit[1], [("response", hit[0])], "PASS") if hit else (why_not, [], "FAIL"))
    return verdicts(*entries)


# ----------------------------------------------------------------------- a small run

def small_run(files: dict[str, str], rel: str = "eval-1/with_skill/run-1",
              metadata: dict | None = None) -> MemoryRun:
    """A run in memory from ``{name under outputs/: text}``, read by referee's own parser."""
    return memory_run({f"outputs/{name}": text for name, text in files.items()}, rel=rel,
                      metadata=metadata)


# ----------------------------------------------------------------------- recording the example

RECORD_USAGE = """\
usage: python -m tests.llm_server CASSETTE -- REFEREE-GRADE-ARGS...

Starts the answer-key judge (ANSWER_KEY: the bundled example's semantic
expectations as a person judged them) on loopback and runs
`referee grade WORKSPACE ARGS --llm record:CASSETTE` against it, on a copy of
WORKSPACE (the first of the grade's arguments) whose reports are thrown away, so the
cassette says in its first line that no language model produced it.
"""


def record_example(argv: list[str]) -> int:
    """Record (or extend) a cassette with ``answer_key_judge`` answering on loopback."""
    if len(argv) < 3 or argv[1] != "--":
        print(RECORD_USAGE, end="")
        return 2
    import shutil
    import tempfile
    from pathlib import Path

    from referee.engine.cli import main

    # `--check` writes nothing, the cassette included: the grade that records runs on a
    # copy of the workspace (of the same name: what the grader is shown is the same), so
    # the reports it writes go with the copy.
    workspace = Path(argv[2])
    with tempfile.TemporaryDirectory() as scratch, ScriptedServer(default=answer_key_judge) as server:
        copy = Path(scratch) / workspace.resolve().name
        shutil.copytree(workspace, copy, ignore=shutil.ignore_patterns("grading.json", "ground_truth.json",
                                                                       "benchmark.*"))
        return main(["grade", str(copy), *argv[3:], "--llm", f"record:{argv[0]}",
                     "--llm-backend", "openai:answer-key-judge",
                     "--llm-base-url", server.url, "--llm-note", KEY_NOTE])


if __name__ == "__main__":
    import sys

    sys.exit(record_example(sys.argv[1:]))


class OneReply:
    """A grader backend that gives one reply to every request (as replayed), and keeps
    the text of each request it was asked."""

    name, model = "fake", "m"

    def __init__(self, text: str) -> None:
        self.text = text
        self.asked: list[str] = []

    def params(self) -> dict:
        return {}

    def complete(self, request, about: str = "") -> Completion:
        self.asked.append("\n".join(text for _, text in request.turns))
        return Completion(self.text, replayed=True)

    def cancel(self) -> None:
        return None
