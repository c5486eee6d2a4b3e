"""What the HTML viewer shows, as data: an index of every run, and each run in full.

The page embeds the index (``index``): per eval its assertions and hints, per run
its place, configuration, role, status, gate and one letter per assertion. That
is all the lists, the side-by-side tables and the filters need, so the page stays
small however many runs there are. A run in full (``run_data``: prompt, response,
timing and tokens, its assertions with their evidence, and the transcript and
every file the evidence cites, line by line) is loaded when the run is opened.

Every place the evidence cites is resolved to a line of a file shown: a file of
the run folder, or, for an imported run whose evidence names its source
(``session.jsonl:42``, which is not in the run folder), the line of the written
view that the run's source map maps to it; each line of such a view carries its
source place, so the reader sees the source's line numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.report.build import VACUOUS_NOTE
from referee.engine.report.cited import cited_names, source_place
from referee.engine.report.collect import Collection, GradedRun
from referee.engine.report.cut import cut_line
from referee.engine.report.models import Expectation, GradingReport
from referee.engine.text import file_lines

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

LETTER = {"pass": "p", "fail": "f", "error": "e", "not_graded": "n"}  # "v": a vacuous pass, "-": absent
ORDER = {"fail": 0, "error": 1, "pass": 2, "not_graded": 3}  # failures first
MAX_LINES = 20_000  # of one file shown; the rest is counted, but for the lines cited ("past")
MAX_LINE_CHARS = 2_000
MAX_EVIDENCE_CHARS = 20_000
_TIMING = (("total_duration_seconds", "duration (s)"), ("total_tokens", "tokens"), ("input_tokens", "input tokens"),
           ("output_tokens", "output tokens"))
_METRICS = (("total_tool_calls", "tool calls"), ("total_steps", "steps"), ("errors_encountered", "errors"))


def index(collection: Collection) -> dict[str, Any]:
    """The embedded index: evals (assertions, hints) and runs (one entry each, in order)."""
    evals, numbers, keys_of = [], {}, {}
    for number, (eval_id, eval_name, members) in enumerate(collection.evals()):
        keys: dict[str, str] = {}
        for run in members:
            for item in run.report.expectations:
                keys.setdefault(item.key, item.text)
        hints = [[tip.assertion or "", tip.reason] for tip in members[0].report.eval_feedback.suggestions]
        evals.append({"id": eval_id, "name": eval_name, "assertions": [[k, t] for k, t in keys.items()],
                      "hints": hints})
        numbers[eval_id], keys_of[eval_id] = number, list(keys)
    entries = [_entry(numbers[run.info.eval_id], run, keys_of[run.info.eval_id]) for run in collection.runs]
    return {"primary": collection.primary, "baseline": collection.baseline, "evals": evals, "runs": entries}


def _entry(eval_number: int, run: GradedRun, keys: list[str]) -> dict[str, Any]:
    by_key = {item.key: item for item in run.report.expectations}
    letters = "".join(_letter(by_key.get(key)) for key in keys)
    gate = run.report.gate
    return {"e": eval_number, "c": run.info.configuration, "n": run.info.run_number, "s": run.status,
            "r": run.role, "g": [gate.passed, gate.total], "o": letters, "p": run.folder}


def _letter(item: Expectation | None) -> str:
    if item is None:
        return "-"
    return "v" if item.outcome == "pass" and VACUOUS_NOTE in item.evidence else LETTER[item.outcome]


def run_data(run: GradedRun) -> dict[str, Any]:
    """The run in full, for the viewer (see the module's docstring)."""
    from referee.engine.run.workspace import load_run

    source = load_run(run.path) if run.path is not None else None
    shown = _Shown(run, source)
    report = run.report
    items = sorted(report.expectations, key=lambda e: ORDER[e.outcome])  # stable: the rules' order within
    assertions = [_assertion(run, item, shown) for item in items]
    return {"path": run.folder, "eval": run.info.eval_id, "eval_name": run.info.eval_name,
            "config": run.info.configuration, "number": run.info.run_number, "role": run.role,
            "status": run.status, "gate": [report.gate.passed, report.gate.total],
            "prompt": shown.prompt(), "response": shown.response_index(), "timing": _timing(report),
            "assertions": assertions, "files": shown.files, "sources": shown.source_names,
            "claims": [[c.verified, c.claim, c.evidence] for c in report.claims],
            "problems": list(report.problems)}


def _assertion(run: GradedRun, item: Expectation, shown: _Shown) -> dict[str, Any]:
    notes = [f"not counted toward the gate: {x.reason}" for x in run.report.gate.excluded if x.assertion == item.key]
    if item.outcome == "pass" and VACUOUS_NOTE in item.evidence:
        notes.append("passed vacuously: nothing was there to examine")
    places, seen = [], set()
    for place in item.evidence_location:
        label = (place.file or "") + (f":{place.line}" if place.line else "")
        if place.file is None or label in seen:
            continue
        seen.add(label)
        places.append({"label": label, "at": shown.locate(place.file, place.line)})
    return {"key": item.key, "text": item.text, "outcome": item.outcome,
            "vacuous": item.outcome == "pass" and VACUOUS_NOTE in item.evidence,
            "precision": item.precision, "method": item.method, "source": item.evidence_source,
            "evidence": cut_line(item.evidence, MAX_EVIDENCE_CHARS), "check": item.check, "rules": item.rules_location,
            "notes": notes, "places": places}


def _timing(report: GradingReport) -> list[list[Any]]:
    found = [[label, report.timing[key]] for key, label in _TIMING if _shown_value(report.timing.get(key))]
    if not any(row[0] == "duration (s)" for row in found) and _shown_value(report.timing.get("duration_ms")):
        found.insert(0, ["duration (s)", round(report.timing["duration_ms"] / 1000, 3)])
    metrics = report.execution_metrics
    return found + [[label, metrics[key]] for key, label in _METRICS if _shown_value(metrics.get(key))]


def _shown_value(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Shown:
    """The files of a run the viewer shows, each once: the transcript, the response,
    every file the evidence cites. ``files`` is their data, in the order added."""

    def __init__(self, run: GradedRun, source: Run | None) -> None:
        self.run, self.source = run, source
        self.files: list[dict[str, Any]] = []
        self._numbers: dict[str, int] = {}
        self._lines: dict[int, list[str]] = {}  # every line of each file shown, for lines cited past MAX_LINES
        self._map = None if source is None else source.source_map[0]
        self.source_names: list[str] = list(self._map.sources) if self._map is not None else []
        self._from: dict[tuple[str, int], list[int]] | None = None
        if source is not None and source.transcript_file is not None:
            self._add(source.transcript_file.path, source.transcript_file.text)
        self._response = self._response_file()

    def prompt(self) -> str | None:
        if self.source is None:
            return None
        given = self.source.metadata.get("prompt") if isinstance(self.source.metadata, dict) else None
        return given if isinstance(given, str) else self.source.transcript.prompt

    def response_index(self) -> int | None:
        return self._response

    def locate(self, file: str, line: int | None) -> list[int] | None:
        """``[file number, line]`` of a cited place among the files shown, or None."""
        number = self._file(file)
        if number is not None:
            self._past(number, line or 1)
            return [number, line or 1]
        if line is None or self._map is None:
            return None
        for name in cited_names(file):
            found = self._source_place(name, line)
            if found is not None:
                return found
        return None

    def _response_file(self) -> int | None:
        cited = next((p.file for e in self.run.report.expectations for p in e.evidence_location
                      if p.source == "response" and p.file), None)
        number = self._file(cited) if cited else None
        if number is not None or self.source is None or self.source.response is None:
            return number
        response = self.source.response
        return self._add(response.path, response.text)

    def _file(self, name: str) -> int | None:
        if name in self._numbers:
            return self._numbers[name]
        if self.source is None:
            return None
        from referee.engine.run.safeio import read_text

        found = read_text(self.source.path, name)
        return None if found is None or found.text is None else self._add(name, found.text)

    def _add(self, name: str, text: str | None) -> int | None:
        if text is None:
            return None
        lines = file_lines(text)  # numbered as the evidence numbers them
        data: dict[str, Any] = {"name": name, "lines": [cut_line(line, MAX_LINE_CHARS) for line in lines[:MAX_LINES]],
                                "more": max(0, len(lines) - MAX_LINES)}
        mapped = self._map.lines.get(name) if self._map is not None else None
        if mapped is not None:
            data["from"] = [None if place is None else [place[0], place[1]] for place in mapped[:MAX_LINES]]
        self._numbers[name] = len(self.files)
        self._lines[len(self.files)] = lines
        self.files.append(data)
        return self._numbers[name]

    def _past(self, number: int, line: int) -> None:
        """A cited line past the ``MAX_LINES`` shown of file ``number``: kept in its
        ``past`` rows (``[line, text, source place]``, in line order), so the evidence's
        link lands on a line the page has."""
        lines, data = self._lines[number], self.files[number]
        if line <= MAX_LINES or line > len(lines):
            return
        past = data.setdefault("past", [])
        if any(row[0] == line for row in past):
            return
        mapped = self._map.lines.get(data["name"]) if self._map is not None else None
        place = mapped[line - 1] if mapped is not None and line <= len(mapped) else None
        past.append([line, cut_line(lines[line - 1], MAX_LINE_CHARS), None if place is None else [place[0], place[1]]])
        past.sort(key=lambda row: row[0])

    def _source_place(self, name: str, line: int) -> list[int] | None:
        """The first line of a written file shown that the source map maps to ``name:line``
        (``name`` with its JSON Pointer, in a source line that holds many things)."""
        assert self._map is not None
        for number, data in enumerate(self.files):
            mapped = self._map.lines.get(data["name"]) or ()
            for at, place in enumerate(mapped[:MAX_LINES]):
                if place is not None and place[1] == line and source_place(self.source_names, place) == name:
                    return [number, at + 1]
        return None

