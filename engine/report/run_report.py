"""grading.json and ground_truth.json, from a graded run's document to bytes and back.

``engine.report.build`` makes a run's grading document: plain data, in the field
order of ``engine.report.models``. From there on this module alone knows the
files:

- a graded run is data (``RunReport``) until a writer or a printer needs bytes.
  While it waits for its eval's feedback (which needs every run of the eval) and
  for the writer, it is kept as one opaque ``record`` (``engine.report.spill``
  stores it; it never looks inside);
- what the terminal, ``--json`` and the totals read of a run (``brief``,
  ``shown``, ``json_entry``, ``warnings``);
- the bytes of both files (``files``, through ``engine.report.render``);
- reading a report back (``read_report``): through the safe reader
  (``engine.run.safeio``: a regular file, never a symlink, FIFO or device, under
  the size cap), as JSON, with referee's marker (``grader.name``). Every reader of
  a written report (carry-over, the writer's guard, ``report``, ``aggregate``)
  goes through it, so all apply one policy.
"""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from referee.dsl.frozen import frozen
from referee.engine.report.brief import Brief
from referee.engine.report.build import ground_truth
from referee.engine.report.marker import GRADER_NAME, GRADING, GROUND_TRUTH
from referee.engine.run.safeio import decode, read_bytes
from referee.engine.run.safejson import MAX_JSON_DEPTH, depth_exceeded

_FAILED = ("fail", "error")
# What the terminal reads of each expectation (``terminal.run_lines``).
_SHOWN_FIELDS = ("key", "text", "outcome", "evidence")


class RunReport:
    """One graded run's grading.json, as data."""

    __slots__ = ("document",)

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document

    def record(self) -> bytes:
        """The run as one opaque record (``from_record`` gives it back)."""
        return pickle.dumps(self.document, pickle.HIGHEST_PROTOCOL)

    @classmethod
    def from_record(cls, record: bytes, feedback: dict | None = None) -> RunReport:
        """The run ``record`` holds, with its eval's feedback put in its place."""
        document = pickle.loads(record)
        if feedback is not None:
            document["eval_feedback"] = feedback  # an existing key: its place is kept
        return cls(document)

    @property
    def brief(self) -> Brief:
        """The run in short: its identity, counts, and what failed."""
        document = self.document
        failed = tuple({"key": e["key"], "text": e["text"], "outcome": e["outcome"], "evidence": e["evidence"]}
                       for e in document["expectations"] if e["outcome"] in _FAILED)
        return Brief(run=document["run"], summary=document["summary"], gate=document["gate"], failed=failed)

    @property
    def warnings(self) -> list[str]:
        """The run's warnings (``problems``): what referee could not read, or distrusts."""
        return list(self.document["problems"])

    def shown(self) -> dict[str, Any]:
        """What the terminal's lines read of the run (``terminal.run_lines``): a run's
        expectations carry citations by the hundred that no line prints."""
        document = self.document
        return {"expectations": [{k: item[k] for k in _SHOWN_FIELDS} for item in document["expectations"]],
                "gate": {"excluded": document["gate"]["excluded"]}, "eval_feedback": document["eval_feedback"]}

    def json_entry(self, about: dict[str, Any], written: dict[str, Any]) -> dict[str, Any]:
        """The run's ``--json`` entry: ``about`` the run (made from its ``brief``), its
        warnings when it has any, every expectation and the eval's feedback as in
        grading.json, then ``written`` (what happened to its files). It holds none of
        ``render.FREE_PARTS``: ``render.own_json`` prints it unwalked."""
        document = self.document
        warnings = {"warnings": document["problems"]} if document["problems"] else {}
        return {**about, **warnings, "expectations": document["expectations"],
                "eval_feedback": document["eval_feedback"], **written}

    def grading_text(self) -> str:
        """grading.json, as written."""
        if self.document["claims"] is None:
            raise ValueError("this run was graded without its claims (--check): it is not written")
        from referee.engine.report.render import render  # here: what only prints a run never loads the encoder

        return render(self.document)

    def truth_text(self) -> str:
        """ground_truth.json, as written."""
        from referee.engine.report.render import render

        return render(ground_truth(self.document))


class ReportFiles(Mapping):
    """``{file name: text}`` of one run for the writer, each text made when it is
    asked for. It holds the run's record and its eval's feedback, no text, so it
    travels to a writer process as it is and the texts are made there."""

    def __init__(self, record: bytes, feedback: dict | None) -> None:
        self._record, self._feedback = record, feedback
        self._report: RunReport | None = None

    def _run(self) -> RunReport:
        if self._report is None:
            self._report = RunReport.from_record(self._record, self._feedback)
        return self._report

    def __getitem__(self, name: str) -> str:
        if name == GRADING:
            return self._run().grading_text()
        if name == GROUND_TRUTH:
            return self._run().truth_text()
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter((GRADING, GROUND_TRUTH))

    def __len__(self) -> int:
        return 2

    def __getstate__(self) -> tuple[bytes, dict | None]:
        return self._record, self._feedback  # never the report made from them

    def __setstate__(self, state: tuple[bytes, dict | None]) -> None:
        (self._record, self._feedback), self._report = state, None


# ---- reading a written report back --------------------------------------------------


@frozen
class Unread:
    """Why a report file cannot be used: ``code`` is ``missing``, ``not-a-file`` (a
    symlink, folder, FIFO or device), ``too-large``, ``unreadable``, ``bad-json``,
    ``not-an-object`` or ``foreign`` (no referee marker: ``message`` says what the
    file has instead); ``message`` says it for a person."""

    code: str
    message: str

    def not_a_file(self) -> str:
        """What stands in the report's place (``not-a-file``), said once: "not a regular
        file", and what it is when the reader said so."""
        return self.message if self.message.startswith("not a regular") else f"not a regular file ({self.message})"


def read_report(folder: Path, name: str = GRADING) -> dict[str, Any] | Unread:
    """The report ``name`` in ``folder`` as written by referee, or why it cannot be used.

    Never raises and never blocks: a FIFO, a device or a symlink in its place is
    refused before it is opened, a file over the safe reader's cap is not read."""
    path = Path(folder, name)
    if os.path.islink(path):
        return Unread("not-a-file", "a symlink, not a file referee wrote")
    data, found = read_bytes(Path(folder), name, name)
    if not found.exists:
        return Unread("missing", "no such file")
    if data is None:
        problem = found.problems[0]
        return Unread(problem.code, problem.message)
    return _parsed(data, name)


def _parsed(data: bytes, name: str) -> dict[str, Any] | Unread:
    text, problems = decode(data, name, lossy=False)
    if text is None:
        return Unread("bad-json", problems[0].message if problems else "not text")
    if depth_exceeded(text, MAX_JSON_DEPTH) is not None:
        return Unread("bad-json", f"nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:  # where, in the file's own terms
        return Unread("bad-json", f"{exc.msg}, line {exc.lineno} column {exc.colno}")
    except RecursionError:
        # Within MAX_JSON_DEPTH levels (checked above), deeper than the interpreter's
        # stack left at this call: a caller deep in its own calls, or a recursion limit
        # set low by a program that embeds referee. It is no number.
        return Unread("bad-json", "nested too deeply to read (the interpreter's stack ran out)")
    except ValueError:  # a number of more digits than int() converts (sys.get_int_max_str_digits)
        return Unread("bad-json", "a number too long to read")
    if not isinstance(document, dict):
        return Unread("not-an-object", "not a JSON object")
    grader = document.get("grader")
    maker = grader.get("name") if isinstance(grader, dict) else None
    if maker != GRADER_NAME:
        return Unread("foreign", f"grader.name is {maker!r}" if maker is not None else "it has no grader.name")
    return document
