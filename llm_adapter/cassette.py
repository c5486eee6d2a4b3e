"""Record and replay grader exchanges, so saved runs re-grade offline and identically.

A cassette is a JSON-lines file. Line 1 says what produced it (backend, model,
parameters, and a free note such as "scripted loopback judge, not a language
model"); every other line is one exchange keyed by the SHA-256 of the model, the
parameters and the rendered prompt. Entries are sorted by key and written with
sorted fields, so recording the same exchanges again gives the same bytes: an entry
whose reply did not change is kept as it was, recorded duration included.

Modes: ``replay`` never touches the network, and a missing key is an error;
``record`` asks the inner backend every time and stores the answer; ``auto``
replays what it has and records what it lacks.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from referee.llm_adapter.backends import Backend, ChatRequest, Completion
from referee.llm_adapter.transport import TransportError

FORMAT = "referee-llm-cassette"
VERSION = 1
MODES = ("replay", "record", "auto")


class CassetteMiss(TransportError):
    """Replay found no entry for a request; the judge names the assertions concerned."""


def request_key(model: str, params: dict, request: ChatRequest) -> str:
    material = {"model": model, "params": params, "system": request.system,
                "turns": [list(t) for t in request.turns]}
    text = json.dumps(material, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class CassetteBackend:
    """A ``Backend`` that answers from, and records to, a cassette file."""

    path: Path
    mode: str
    inner: Backend | None = None
    note: str = ""
    meta: dict = field(default_factory=dict)
    entries: dict[str, dict] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown cassette mode {self.mode!r}")
        if self.mode != "replay" and self.inner is None:
            raise ValueError(f"{self.mode}:PATH needs a backend to ask: "
                             "add --llm-backend openai:MODEL")
        if self.path.exists():
            self.meta, self.entries = load(self.path)
        elif self.mode == "replay":
            raise ValueError(f"no cassette at {self.path}")
        if self.inner is not None:
            self._adopt_inner()

    @property
    def name(self) -> str:
        return str(self.meta.get("backend", ""))

    @property
    def model(self) -> str:
        return str(self.meta.get("model", ""))

    def params(self) -> dict:
        return dict(self.meta.get("params") or {})

    def cancel(self) -> None:
        if self.inner is not None:
            self.inner.cancel()

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        key = request_key(self.model, self.params(), request)
        with self._lock:
            entry = self.entries.get(key)
        if entry is not None and self.mode != "record":
            return Completion(entry["reply"], entry.get("input_tokens", 0),
                              entry.get("output_tokens", 0), entry.get("seconds", 0.0), True)
        if self.mode == "replay":
            raise CassetteMiss(f"no recorded grader reply in {self.path.name} (key {key[:12]})")
        fresh = self.inner.complete(request)
        self._store(key, fresh, about)
        return fresh

    def _adopt_inner(self) -> None:
        wanted = {"backend": self.inner.name, "model": self.inner.model,
                  "params": self.inner.params()}
        if self.meta:
            had = {k: self.meta.get(k) for k in wanted}
            if had != wanted:
                raise ValueError(f"{self.path} was recorded with {had}; record into a new file")
        self.meta = {"format": FORMAT, "version": VERSION, **wanted,
                     "judge": self.note or self.meta.get("judge") or
                     f"{self.inner.name}:{self.inner.model}"}

    def _store(self, key: str, fresh: Completion, about: str) -> None:
        entry = {"key": key, "about": about, "reply": fresh.text,
                 "input_tokens": fresh.input_tokens, "output_tokens": fresh.output_tokens,
                 "seconds": round(fresh.seconds, 3)}
        with self._lock:
            old = self.entries.get(key)
            if old is not None and old.get("reply") == fresh.text and old.get("about") == about:
                return  # unchanged: keep the old bytes, duration included
            self.entries[key] = entry
            save(self.path, self.meta, self.entries)


def load(path: Path) -> tuple[dict, dict[str, dict]]:
    """Read a cassette; a damaged one is a usage error that names the line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read cassette {path}: {exc}") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            raise ValueError(f"{path}:{number}: not a JSON line") from None
    if not records or not isinstance(records[0], dict) or records[0].get("format") != FORMAT:
        raise ValueError(f"{path}: the first line is not referee cassette metadata")
    entries = {}
    for number, record in enumerate(records[1:], 2):
        if not isinstance(record, dict) or not isinstance(record.get("key"), str) \
                or not isinstance(record.get("reply"), str):
            raise ValueError(f"{path}: entry {number} has no key or reply")
        entries[record["key"]] = record
    return records[0], entries


def save(path: Path, meta: dict, entries: dict[str, dict]) -> None:
    """Write atomically (temporary file, then rename): Ctrl-C never leaves half a cassette."""
    lines = [json.dumps(meta, sort_keys=True, ensure_ascii=False)]
    lines += [json.dumps(entries[k], sort_keys=True, ensure_ascii=False) for k in sorted(entries)]
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=".cassette-", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write("\n".join(lines) + "\n")
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
