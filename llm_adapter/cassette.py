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

A cassette is input like any other and is checked on load: only a regular file of
bounded size is read (a FIFO or ``/dev/zero`` is refused, never waited on), every
field has one type, a field or a request key that appears twice is an error rather
than "the last one wins", and each entry carries a digest (SHA-256 over its other
fields, since version 2) so that an entry edited after recording is reported. The
digest detects edits; it is not a signature, since anyone can compute it again.
Version 1 cassettes, which have no digests, are still read, and get digests the
next time they are recorded into.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import threading
from dataclasses import dataclass, field
from pathlib import Path

from referee.dsl.named_file import utf8_text
from referee.llm_adapter.backends import Backend, ChatRequest, Completion
from referee.llm_adapter.transport import TransportError

FORMAT = "referee-llm-cassette"
VERSION = 2  # 2 added a digest to every entry; version 1 cassettes are still read
READABLE_VERSIONS = (1, 2)
MAX_BYTES = 256 * 1024 * 1024  # far above any real cassette; a bound, so /dev/zero cannot fill memory
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
    asked: set[str] = field(default_factory=set, repr=False)  # every key looked up
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown cassette mode {self.mode!r}")
        if self.mode != "replay" and self.inner is None:
            raise ValueError(f"{self.mode}:PATH needs a backend to ask: "
                             "add --llm-backend openai:MODEL")
        try:
            present = os.path.lexists(self.path)
        except (OSError, ValueError) as exc:
            raise ValueError(f"cannot read cassette {self.path}: {exc}") from None
        if present and self.mode != "replay" and os.path.islink(self.path):
            # save() renames the new cassette over the path: the link itself would be replaced
            raise ValueError(f"{self.path} is a symbolic link; {self.mode}:PATH writes the cassette in its "
                             "place and replaces only a regular file: give the path it points to")
        if present:
            self.meta, self.entries = load(self.path)
        elif self.mode == "replay":
            raise ValueError(f"no cassette at {self.path}")
        if self.inner is not None:
            self._adopt_inner(self.inner)

    @property
    def name(self) -> str:
        return str(self.meta.get("backend", ""))

    @property
    def model(self) -> str:
        return str(self.meta.get("model", ""))

    @property
    def endpoint(self) -> str | None:
        """The server a recording asks (None for replay alone, which asks none)."""
        return getattr(self.inner, "endpoint", None)

    def params(self) -> dict:
        return dict(self.meta.get("params") or {})

    def cancel(self) -> None:
        if self.inner is not None:
            self.inner.cancel()

    def complete(self, request: ChatRequest, about: str = "") -> Completion:
        key = request_key(self.model, self.params(), request)
        with self._lock:
            self.asked.add(key)
            entry = self.entries.get(key)
        if entry is not None and self.mode != "record":
            return Completion(entry["reply"], entry.get("input_tokens", 0),
                              entry.get("output_tokens", 0), entry.get("seconds", 0.0), True)
        if self.mode == "replay" or self.inner is None:  # only replay is built without one
            raise CassetteMiss(f"no recorded grader reply in {self.path.name} (key {key[:12]})")
        fresh = self.inner.complete(request)
        self._store(key, fresh, about)
        return fresh

    def _adopt_inner(self, inner: Backend) -> None:
        wanted = {"backend": inner.name, "model": inner.model, "params": inner.params()}
        if self.meta:
            had = {k: self.meta.get(k) for k in wanted}
            if had != wanted:
                raise ValueError(f"{self.path} was recorded with {had}; record into a new file")
        self.meta = {"format": FORMAT, "version": VERSION, **wanted,
                     "judge": self.note or self.meta.get("judge") or
                     f"{inner.name}:{inner.model}"}

    def _store(self, key: str, fresh: Completion, about: str) -> None:
        entry = {"key": key, "about": about, "reply": fresh.text,
                 "input_tokens": fresh.input_tokens, "output_tokens": fresh.output_tokens,
                 "seconds": round(fresh.seconds, 3)}
        with self._lock:
            old = self.entries.get(key)
            if old is not None and old.get("reply") == fresh.text and old.get("about") == about:
                return  # unchanged: keep the old bytes, duration included
            self.entries[key] = entry
            try:
                save(self.path, self.meta, self.entries)
            except OSError as exc:
                raise TransportError(f"cannot write cassette {self.path}: "
                                     f"{exc.strerror or exc}") from None


def load(path: Path) -> tuple[dict, dict[str, dict]]:
    """Read and validate a cassette; anything wrong is a ``ValueError`` naming the file
    and the line: not a regular file, too large, not UTF-8, a line that is not JSON, a
    repeated field or key, a field of the wrong type, an entry whose digest shows that
    it was edited after it was recorded."""
    text = _read(path)
    records: list[tuple[int, object]] = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            records.append((number, json.loads(line, object_pairs_hook=unique_fields,
                                               parse_constant=_no_constant)))
        except RepeatedField as exc:
            raise ValueError(f"{path}:{number}: the field {exc.args[0]!r} appears twice") from None
        except json.JSONDecodeError:
            raise ValueError(f"{path}:{number}: not a JSON line") from None
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"{path}:{number}: not usable JSON ({_why(exc)})") from None
    if not records:
        raise ValueError(f"{path}: empty; the first line must be referee cassette metadata")
    number, meta = records[0]
    meta = _check_meta(path, number, meta)
    entries: dict[str, dict] = {}
    lines: dict[str, int] = {}
    for number, record in records[1:]:
        entry = _check_entry(path, number, record, meta["version"])
        key = entry["key"]
        if key in entries:
            raise ValueError(f"{path}:{number}: key {key[:12]}... was already recorded at line "
                             f"{lines[key]}; a cassette holds one reply per request. Keep one")
        entries[key] = entry
        lines[key] = number
    return meta, entries


def entry_digest(entry: dict) -> str:
    """SHA-256 over an entry's fields, the digest itself left out."""
    fields = {k: v for k, v in entry.items() if k != "digest"}
    text = json.dumps(fields, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256((FORMAT + "-entry\0" + text).encode("utf-8")).hexdigest()


class RepeatedField(Exception):
    """A JSON object gave one field twice; ``args[0]`` is its name."""


def unique_fields(pairs: list[tuple[str, object]]) -> dict:
    """``object_pairs_hook`` that refuses a field given twice (JSON parsers would
    silently keep the last one): for the cassette's lines and a batch's results."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise RepeatedField(k)
            seen.add(k)
    return value


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _why(exc: BaseException) -> str:
    return "nested too deeply" if isinstance(exc, RecursionError) else str(exc)


def _read(path: Path) -> str:
    """The text of a regular file of at most ``MAX_BYTES``, without a leading byte order
    mark; never blocks on a FIFO or a device, never reads /dev/zero forever."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise ValueError(f"cannot read cassette {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"cassette {path} is not a regular file (a directory, FIFO or device); "
                         "refusing to read it")
    if info.st_size > MAX_BYTES:
        raise ValueError(f"cassette {path} is {info.st_size} bytes, over the limit of "
                         f"{MAX_BYTES} bytes; refusing to read it")
    try:
        # O_NONBLOCK: should the file have been swapped for a FIFO since the stat,
        # opening it does not wait for a writer; fstat then refuses it.
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(handle, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise ValueError(f"cassette {path} is not a regular file; refusing to read it")
            data = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"cannot read cassette {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise ValueError(f"cassette {path} is over the limit of {MAX_BYTES} bytes; refusing to read it")
    # A Windows editor may save it with a byte order mark (and CRLF line ends, which
    # JSON reads as whitespace): how the file was saved, not what it records.
    return utf8_text(data, path).removeprefix("\ufeff")


META_FIELDS = {"format": str, "version": int, "backend": str, "model": str, "params": dict,
               "judge": str}
ENTRY_FIELDS = {"key": str, "reply": str, "about": str, "input_tokens": int,
                "output_tokens": int, "seconds": float, "digest": str}
HEX64 = re.compile(r"[0-9a-f]{64}")


def _check_meta(path: Path, number: int, meta: object) -> dict:
    where = f"{path}:{number}"
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{where}: the first line is not referee cassette metadata "
                         f"(an object with \"format\": \"{FORMAT}\")")
    _check_fields(where, "the metadata", meta, META_FIELDS)
    version = meta.get("version")
    if version not in READABLE_VERSIONS:
        raise ValueError(f"{where}: cassette version {version!r} is not one this referee reads "
                         f"({', '.join(map(str, READABLE_VERSIONS))})")
    for name, value in (meta.get("params") or {}).items():
        if not isinstance(value, (str, int, float, bool)) and value is not None:
            raise ValueError(f"{where}: params.{name} must be a number, a string or a boolean")
    return meta


def _check_entry(path: Path, number: int, entry: object, version: int) -> dict:
    where = f"{path}:{number}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: an entry must be a JSON object, not {_kind(entry)}")
    label = f"entry {entry['key'][:12]}..." if isinstance(entry.get("key"), str) else "the entry"
    for required in ("key", "reply") + (("digest",) if version >= 2 else ()):
        if required not in entry:
            raise ValueError(f"{where}: {label} has no {required!r}")
    _check_fields(where, label, entry, ENTRY_FIELDS)
    if not HEX64.fullmatch(entry["key"]):
        raise ValueError(f"{where}: {label}: key must be 64 lowercase hex digits (a SHA-256)")
    if "digest" in entry and entry["digest"] != entry_digest(entry):
        raise ValueError(f"{where}: {label} does not match its digest: it was changed after it "
                         "was recorded. Record it again (record: or auto:), or restore the file")
    return entry


def _check_fields(where: str, label: str, record: dict, fields: dict[str, type]) -> None:
    for name, value in record.items():
        wanted = fields.get(name)
        if wanted is None:
            raise ValueError(f"{where}: {label} has an unknown field {name!r}")
        if wanted is float:
            good = isinstance(value, (int, float)) and not isinstance(value, bool) \
                and math.isfinite(value) and value >= 0
            kind = "a number of seconds, 0 or more"
        elif wanted is int:
            good = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            kind = "a whole number, 0 or more"
        else:
            good = isinstance(value, wanted)
            kind = _TYPE_WORDS[wanted]
            if good and wanted is str and not _is_text(value):
                # referee records such a reply as its escape: a foreign file, and no digest holds it
                raise ValueError(f"{where}: {label}: {name} holds a lone surrogate, which is no text")
        if not good:
            raise ValueError(f"{where}: {label}: {name} must be {kind}, not {_kind(value)}")


_TYPE_WORDS: dict[type, str] = {str: "a string", list: "a list", dict: "an object"}


def _is_text(value: str) -> bool:
    """Whether ``value`` is text: UTF-8 has no lone surrogate (a JSON ``"\\ud800"``)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"[:60]
    return _TYPE_WORDS.get(type(value), type(value).__name__)


def save(path: Path, meta: dict, entries: dict[str, dict]) -> None:
    """Write atomically (temporary file, then rename): Ctrl-C never leaves half a cassette.
    Through the reports' writer, so the cassette is an ordinary file whose mode follows
    the umask (a bare mkstemp file stays 0600, readable by its owner alone)."""
    from referee.engine.report.atomic import write_atomic

    lines = [json.dumps({**meta, "version": VERSION}, sort_keys=True, ensure_ascii=False)]
    lines += [json.dumps(_sealed(entries[k]), sort_keys=True, ensure_ascii=False)
              for k in sorted(entries)]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "\n".join(lines) + "\n")


def _sealed(entry: dict) -> dict:
    """The entry with its digest (entries read from a version 1 cassette get one here)."""
    fields = {k: v for k, v in entry.items() if k != "digest"}
    return {**fields, "digest": entry_digest(fields)}
