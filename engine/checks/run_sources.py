"""What each source of the language reads from a run: its records and files as values.

``calls``, ``notes``, ``harness``, ``response``, ``outputs``, ``metrics``, ``timing``,
``metadata`` and ``file "name" as FORMAT`` each read the run once (``records``) and
give values that keep their provenance (file, line, step), for evidence. A source
that could not be read exactly is an ``EvalError`` naming the file and the reason:
a check over it is an ERROR, never a check over nothing.
"""

from __future__ import annotations

import csv
import io
import posixpath
import unicodedata
from typing import Callable, TypeVar

from referee.engine.checks.access import call_val, note_val
from referee.engine.checks.base import Context
from referee.engine.checks.counted import counted_in_full
from referee.engine.checks.self_counted import agrees_with_record
from referee.engine.run.agents import SECOND_LIST, view_changed
from referee.engine.run.beside import held_beside_outputs
from referee.engine.run.identity import METADATA
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, UNREADABLE, Problem, TextFile, Transcript
from referee.engine.run.safeio import other_name, safe_relative, windows_name
from referee.engine.run.safejson import parse_json
from referee.engine.run.transcript import TRANSCRIPT
from referee.engine.values import EvalError, Prov, Val, render

_Read = TypeVar("_Read", TextFile, Transcript)  # a file read, or the transcript parsed from one


class PartlyRead(EvalError):
    """A list source read in part: ``read`` holds the elements read, in order, and more
    may follow them (the message says why). A check over the whole list is an ERROR,
    unless what was read decides it for every list that goes on from there: a Bash
    call read fails 'no calls to "Bash"' whatever calls are missing."""

    def __init__(self, message: str, read: tuple[Val, ...]):
        super().__init__(message)
        self.read = read


# The import problem that says which side of a history each turn is cannot be told.
SIDES_UNKNOWN = "message-sides"


def records(ctx: Context, read: Callable[[Context], tuple[Val, ...]]) -> tuple[Val, ...]:
    """What the source ``read`` yields for the run, read and wrapped once per run."""
    return ctx.once(read, lambda: read(ctx))


def read_in_part(ctx: Context, read: Callable[[Context], tuple[Val, ...]]) -> tuple[tuple[Val, ...], PartlyRead | None]:
    """What the source ``read`` yields, or the part of it read and why more may follow
    (``PartlyRead``); any other EvalError is raised."""
    try:
        return records(ctx, read), None
    except PartlyRead as part:
        return part.read, part


def known_calls(ctx: Context) -> tuple[Val, ...]:
    """The run's calls read, all of them or those read of a list that may lack some:
    each is a call made, whatever the others are."""
    return read_in_part(ctx, read_calls)[0]


def read_calls(ctx: Context) -> tuple[Val, ...]:
    """The run's tool calls as values, in transcript order: the trusted records and
    the suspect ones (with agent-text trust), so that a check for a call that must
    not happen still sees a record referee cannot vouch for; and the calls of the
    subagents (``.agent``), each after the call that started it. EvalError when the
    run holds no tool-call record at all (``Run.no_record``: not even that none was
    made can be decided there); ``PartlyRead`` with the calls read when the list may
    lack calls (``engine.run.agents``). The calls read are one tuple per run, so that
    a filter knows the run's list (``filters._by_tool``) whole or in part."""
    _readable_transcript(ctx)
    why = ctx.run.no_record
    if why is not None:
        raise EvalError(f"calls cannot be checked: {why}")
    found = ctx.run.every_call
    calls = ctx.once(("calls", "read"), lambda: tuple(call_val(call) for call in found.calls))
    incomplete = found.incomplete()
    if incomplete is not None:
        raise _cut(ctx, incomplete, found.unknown, calls)
    return calls


def _cut(ctx: Context, message: str, unknown: Problem | None, read: tuple[Val, ...]) -> EvalError:
    """The error of a list that may lack elements: ``PartlyRead`` with those read, but
    where the file they were read from is not the text the import wrote (``view-changed``:
    edited since, or another file), the source map that says so cannot be read, or the
    list read may not be the run's (``agents.SECOND_LIST``): what it holds is then no evidence."""
    source_map, problems = ctx.run.source_map
    if (unknown is not None and unknown.code == "view-changed") or (source_map is None and problems):
        return EvalError(message)
    if unknown is not None and unknown.message.startswith(SECOND_LIST):
        return EvalError(message)
    return PartlyRead(message, read)


def _notes(ctx: Context) -> tuple[Val, ...]:
    """The agent's own text: ``[agent_notes]`` blocks, untagged sections, untrusted records."""
    return tuple(note_val(note) for note in _readable_transcript(ctx).notes if note.kind == "agent_notes")


def _harness(ctx: Context) -> tuple[Val, ...]:
    """Text the harness injected: ``## [harness] ...`` sections and ``## Eval Prompt``.
    EvalError when the import skipped text that may be the harness's, or the view it
    wrote is not that text any more (``view-changed``), or the run has no transcript,
    so that ``no harness where ...`` never passes on the turns it read without that one."""
    transcript = _readable_transcript(ctx)
    if ctx.run.transcript_file is None:
        raise EvalError("harness text cannot be checked: the run has no transcript, the only place it lies")
    source_map, _ = ctx.run.source_map
    missing = next((p for p in source_map.problems if p.code == HARNESS_MAY_BE_MISSING), None) if source_map else None
    missing = missing or (None if source_map is None else view_changed(ctx.run.transcript_file, TRANSCRIPT,
                                                                       source_map.digests, ctx.run.id.rel))
    notes = ctx.once(("harness", "read"), lambda: tuple(note_val(note) for note in transcript.notes
                                                       if note.kind == "harness"))
    if missing is not None:
        why = f"the run's harness text may be incomplete ({missing.place}: {missing.message})"
        if source_map is not None and any(p.code == SIDES_UNKNOWN for p in source_map.problems):
            raise EvalError(why)  # a turn read as the harness's may be the agent's: none is evidence
        raise _cut(ctx, why, missing, notes)
    return notes


def _readable_transcript(ctx: Context) -> Transcript:
    """The run's transcript; EvalError when its file could not be read exactly, so a
    check on it is an ERROR naming the file and the reason, never a check on nothing,
    and when the run has none but holds a session log that was never imported."""
    _not_unimported(ctx)
    return _usable(ctx.run.transcript)


def _not_unimported(ctx: Context) -> None:
    """EvalError when the run's record lies in a session log nobody imported: its calls,
    notes and answer are unknown, so no check over them passes on nothing."""
    log = getattr(ctx.run, "unimported_log", None)
    if log is not None:
        raise EvalError(f"{log.path} {log.message}")


def _usable(found: _Read) -> _Read:
    """``found`` (a record read from a run file); EvalError naming the file and the
    reason when it could not be read exactly."""
    problem = found.unreadable
    if problem is not None:
        raise EvalError(f"{problem.path} cannot be used: {problem.message}")
    return found


def _response(ctx: Context) -> tuple[Val, ...]:
    found = ctx.run.response
    if found is None:
        _not_unimported(ctx)  # the answer is in the log
        return ()
    if not _usable(found).text:
        return ()
    name = posixpath.basename(found.path)
    label = name if found.section is None else f"{found.section.lstrip('#').strip()} of {name}"
    return (Val(found.text, Prov("response", label, found.path, found.line)),)


def _outputs(ctx: Context) -> tuple[Val, ...]:
    unwalked = ctx.run.unlisted_outputs()
    if unwalked:  # the names below it are unknown: a check over the list would rest on part of it
        raise EvalError(f"the outputs cannot all be listed: {unwalked[0]}")
    return tuple(Val(name, Prov("outputs", name, f"outputs/{name}"))
                 for name in ctx.run.output_files())


def _json_source(attr: str, name: str) -> Callable[[Context], tuple[Val, ...]]:
    def read(ctx: Context) -> tuple[Val, ...]:
        found = getattr(ctx.run, attr)
        if found is None:
            return ()
        # JSON parsed from a lossy decoding (bytes that are not UTF-8) is kept for
        # display only: a key or a name in it may not be what the file says
        unusable = next((p for p in found.problems if p.code in UNREADABLE), None)
        if unusable is None and found.value is None and found.problems:
            unusable = found.problems[0]
        if unusable is not None:
            raise EvalError(f"{name} cannot be used: {unusable.message}")
        return (Val(found.value, Prov(attr, name, found.path)),)

    return read


_read_metrics = _json_source("metrics", "metrics.json")


def metrics_reader(reads: tuple[str | int, ...] = ()) -> Callable[[Context], tuple[Val, ...]]:
    """The ``metrics`` source for a check that reads the part ``reads`` of it (the
    path after ``metrics``; ``()``: the whole file): EvalError when that part holds
    counts an import made of calls it could not read in full (``counted_in_full``)."""
    def read(ctx: Context) -> tuple[Val, ...]:
        found = _read_metrics(ctx)
        if found:
            counted_in_full(ctx, reads)
            agrees_with_record(ctx, found[0].value, reads)
        return found

    return read


def _metadata(ctx: Context) -> tuple[Val, ...]:
    """The run's eval_metadata.json (its eval's and its own, merged); EvalError when
    one of them could not be read as it is (not UTF-8, not valid JSON, not an
    object), as for metrics.json: its fields were read from a lossy decoding, or
    were none, and 'not exists metadata.prompt' passed on a file that holds one."""
    unread = ctx.once(("metadata", "unread"), lambda: next(
        (p for p in ctx.run.problems if posixpath.basename(p.path) == METADATA), None))
    if unread is not None:
        raise EvalError(f"{unread.path} cannot be used: {unread.message}")
    return (Val(ctx.run.metadata, Prov("metadata", "eval_metadata.json")),)


def file_source(path: str, fmt: str) -> Callable[[Context], tuple[Val, ...]]:
    def read(ctx: Context) -> tuple[Val, ...]:
        text = read_file_text(ctx, path)
        if text is None:
            return ()
        return FORMATS[fmt](text, Prov("outputs", path, output_place(path)))

    return read


def output_place(path: str) -> str:
    """Where evidence from the output ``path`` of a rule stands: the file read
    (``outputs/sub/r.md`` for ``sub\\r.md`` or ``./sub//r.md``), not the path as
    written, which names no file there."""
    return f"outputs/{safe_relative(path) or path}"


def read_file_text(ctx: Context, path: str) -> str | None:
    """The text of ``outputs/<path>``; None when it does not exist; EvalError when it
    exists but cannot be used (binary, not UTF-8, too large, outside the run), or
    is there only under a name that is the same on Windows (see ``check_name``)."""
    check_name(ctx, path)
    found = ctx.run.read_output(path)
    if found.text is not None:
        return found.text
    problems = [p for p in found.problems if p.code != "missing"]
    if not problems and not ctx.run.exists_output(path):
        beside = held_beside_outputs(ctx.run.path, path)
        if beside is not None:  # held, but not where file checks read: neither there nor missing
            raise EvalError(f"file {path}: the run has no outputs/{beside}, but holds {beside} beside outputs/, "
                            "which file checks do not read: whether it is the file meant cannot be told")
        return None
    reason = problems[0].message if problems else "cannot be read"
    raise EvalError(f"file {path} cannot be used: {reason}")


def check_name(ctx: Context, path: str) -> None:
    """EvalError when the run lists no output named ``path`` as written, but one that
    may be it where the run was made: a name Windows and macOS take for the same
    (another case; trailing dots or spaces, which Windows drops), whose finding
    depends on the grading machine's file system, or a name that is not UTF-8 (a
    Windows archive unpacked here keeps "résumé.md" in CP-1252 bytes), which cannot
    be compared. Neither "it is there" nor "it is not" can then be said."""
    rel = safe_relative(path)
    if rel is None:
        return
    names, undecoded = ctx.once(("output names", "windows"), lambda: _by_windows_name(ctx.run.output_files()))
    listed = names.get(windows_name(rel), [])
    held = other_name(rel, listed)
    if held is not None and unicodedata.normalize("NFC", held) == unicodedata.normalize("NFC", rel):
        raise EvalError(f"file {path}: the run has no outputs/{ascii(rel)[1:-1]}, but has outputs/{ascii(held)[1:-1]}, "
                        "the same name in another Unicode normalization (an accent written apart from its letter, "
                        "as macOS writes names), which macOS takes for the same file: which one the rule means "
                        "cannot be told; write the name as the run has it")
    if held is not None:
        raise EvalError(f"file {path}: the run has no outputs/{rel}, but has outputs/{held}, a name "
                        "Windows and macOS take for the same file: which one the rule means cannot be told; "
                        "write the name as the run has it")
    if undecoded and rel not in listed:
        raise EvalError(f"file {path}: the run has no outputs/{rel}, but has outputs/{ascii(undecoded[0])}, a name "
                        "that is not UTF-8 (a name from another system's encoding), which may be this file: "
                        "whether it is there cannot be told")


def _by_windows_name(names: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """The run's output names by ``windows_name``, and those that are not UTF-8."""
    found: dict[str, list[str]] = {}
    undecoded: list[str] = []
    for name in names:
        found.setdefault(windows_name(name), []).append(name)
        if not _utf8_name(name):
            undecoded.append(name)
    return found, undecoded


def _utf8_name(name: str) -> bool:
    """Whether a listed name was UTF-8 on disk (else it holds surrogate escapes)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _as_text(text: str, prov: Prov) -> tuple[Val, ...]:
    return (Val(text, prov),)


def _as_json(text: str, prov: Prov) -> tuple[Val, ...]:
    parsed = parse_json(text, prov.label)
    if not parsed.ok:
        why = parsed.problem.message if parsed.problem is not None else "not JSON"
        raise EvalError(f"file {prov.label} is not usable JSON: {why}")
    return (Val(parsed.value, Prov(prov.source, prov.label, prov.file, None, None)),)


# A row read after the text: it stands on its own unless the text's last quoted cell
# is never closed, when the reader takes it into that cell (``csv_table``).
_END_ROW = "end"


def csv_table(text: str, prov: Prov) -> tuple[list[str], int, list[tuple[int, list[str]]]]:
    """The header of a CSV text, the line it stands on, and its rows' cells, each with
    the line it starts on. Blank rows are left out, before the header too, as
    csv.DictReader does: the header is the first row that is not blank.

    A quoted cell never closed takes the rest of the file into it (the reader does not
    refuse it), so rows other readers see would go unseen: EvalError, found by the row
    ``_END_ROW`` read after the text going into that cell."""
    reader = csv.reader(io.StringIO(f"{text}\n{_END_ROW}", newline=""))
    rows, start = [], 1
    try:
        for cells in reader:
            if cells:
                rows.append((start, cells))
            start = reader.line_num + 1  # past a blank row too: the next row starts after it
    except csv.Error as err:
        raise EvalError(f"file {prov.label} is not valid CSV (line {start}): {err}") from None
    if rows[-1][1] != [_END_ROW]:
        raise EvalError(f"file {prov.label} is not usable CSV (line {rows[-1][0]}): a quoted cell "
                        "starting on this line is never closed, so the rest of the file would be read as one "
                        "cell")
    if len(rows) == 1:  # blank lines at most: no header, no rows
        return [], 1, []
    (line, header), *table = rows[:-1]
    return header, line, table


def csv_rows(text: str, prov: Prov) -> tuple[list[str], tuple[Val, ...]]:
    """The header and the rows of a CSV text; each row's line is where it starts."""
    header, _, table = csv_table(text, prov)
    return header, tuple(Val(_csv_row(header, cells, prov, line),
                             Prov(prov.source, f"{prov.label} line {line}", prov.file, line))
                         for line, cells in table)


def _csv_row(header: list[str], cells: list[str], prov: Prov, line: int) -> dict:
    """A row's cells by column name: a missing one is null. A cell beyond the header
    has no name: blank, it is left out (a trailing comma); else it would be lost
    (``Bob,1,000`` under ``name,amount``: an amount written with a comma, unquoted),
    and a check over the rows would rest on the cells kept alone: EvalError. So too a
    name the header gives two columns, which holds one cell: when the row's cells
    under it differ (no row 'where .email contains "@"' with the address in the first
    'email' column)."""
    extra = [cell for cell in cells[len(header):] if cell.strip()]
    if extra:
        raise EvalError(f"file {prov.label} is not usable CSV (line {line}): this row holds {len(cells)} cells "
                        f"where its header names {len(header)}, and {render(extra[0])} has no column, so which "
                        "column a check reads is unknown")
    row: dict[str, str | None] = {}
    for name, cell in zip(header, cells):
        if row.get(name, cell) != cell:
            raise EvalError(f"file {prov.label} is not usable CSV (line {line}): its header names the column "
                            f"{render(name)} more than once, and this row holds {render(row[name])} and "
                            f"{render(cell)} under it, so which one a check reads is unknown")
        row[name] = cell
    for name in header[len(cells):]:
        row.setdefault(name, None)
    return row


def _as_csv(text: str, prov: Prov) -> tuple[Val, ...]:
    return csv_rows(text, prov)[1]


def _as_lines(text: str, prov: Prov) -> tuple[Val, ...]:
    from referee.engine.checks.functions import FUNCTIONS

    found = FUNCTIONS["lines"](Val(text, Prov(prov.source, prov.label, prov.file, 1)))
    assert isinstance(found, Val) and found.items is not None  # lines() of a text: a list
    return found.items


FORMATS = {"text": _as_text, "json": _as_json, "csv": _as_csv, "lines": _as_lines}
SOURCES = {
    "calls": read_calls, "notes": _notes, "harness": _harness, "response": _response, "outputs": _outputs,
    "metrics": metrics_reader(),
    "timing": _json_source("timing", "timing.json"), "metadata": _metadata,
}
