"""The transcript of an import, read from where the writer put each heading.

A run imported in memory (``engine.run.importers.in_memory``) holds the transcript
``importers.writer`` rendered and its ``Layout``: the line, kind and step of every
heading written. Every other line stands in a fixed place and form (a record is its
heading, then its ``Tool:``, ``Args:``, ``Return:`` and ``Status:`` lines; a text is
a blank line, then its escaped lines), so ``direct_transcript`` makes the Transcript
from those lines without cutting the text into sections again: the calls, payloads
and notes ``parse_transcript`` reads from the same text, read from the same lines
(the text as held, home folders and all made as written).

It gives None, and the text is parsed, wherever the writer's form does not fix what
the parser reads: a line that is not where or what the layout says, a value that is
not JSON to the transcript's reader, an empty or unprintable tool name or status, a
title the parser would trim, records not numbered 1, 2, ... in order, a line break other
than ``\\n``, a record heading behind unseen characters (each of these the parser
reports or reads otherwise). tests/test_transcript_direct.py holds the two to each other.

An Args or Return value the layout holds (the value the writer wrote, and whether
``json.dumps`` wrote it alone) is taken as it is where its line's JSON reads as that
very value (``reads_as_is``), not read again from the text it was written as; told here,
as a run is read, so that an import writing files never asks. Without them (the layout's
third part empty) every value is read from its line: the reference, held to the other
in the same tests.
"""

from __future__ import annotations

import re
from typing import Any

from referee.engine.run.model import Location, Note, Payload, ToolCall, Transcript
from referee.engine.run.safejson import MAX_JSON_DEPTH, MAX_NUMBER_CHARS, json_value
from referee.engine.run.transcript import section_note
from referee.engine.run.transcript_sections import Section, hidden_headings

CALL, AGENT, HARNESS, PROMPT = "call", "agent_notes", "harness", "prompt"
# An Args or Return value as the layout holds it: ``(value, plain)`` (``plain``: written by
# json.dumps alone), or None where it is read from its line (a value cut)
Held = tuple[Any, bool] | None
# (lines written, ((line, kind, step) of each heading, in order), ((args, return) of each
# call heading, in order, or () where the writer gives none)); lines are 1-based. A tuple,
# not a dataclass: this module loads with every grade, and a dataclass is made as it loads.
Layout = tuple[int, tuple[tuple[int, str, int], ...], tuple[tuple[Held, Held], ...]]
_MAX_STEP = 999_999_999  # a record heading's step has at most nine digits
_RECORD = 5  # a record's lines: heading, Tool, Args, Return, Status


def direct_transcript(text: str, layout: Layout, file: str, report: str) -> Transcript | None:
    """What ``parse_transcript(text, file, report)`` gives for ``text`` written as
    ``layout`` says, or None where that cannot be told from the layout."""
    written, headings, held = layout
    values = iter(held) if held else None
    if not headings:
        return Transcript() if text == "" else None
    if "\r" in text or hidden_headings(text, report):
        return None
    lines = text.split("\n")
    if len(lines) != written + 1 or headings[0][0] != 1:
        return None  # not the text the layout was written for
    # each heading's section ends at the next heading; the last at the empty line after the text's last line break
    ends = [line for line, _, _ in headings[1:]] + [written + 2]
    calls: list[ToolCall] = []
    notes: list[Note] = []
    prompt: str | None = None
    for index, ((line, kind, step), end) in enumerate(zip(headings, ends)):
        if kind == CALL:
            # numbered 1, 2, ... in order, the records fit the parser's numbering whatever the notes say
            # (``numbering.first_untrusted``); any other numbering is the parser's to judge
            call = _call(lines, line, step, end, index, file, (None, None) if values is None else next(values))
            if call is None or step != len(calls) + 1:
                return None
            calls.append(call)
            continue
        note = _note(lines, line, kind, step, end, index, file, prompt is None)
        if note is None:
            return None
        if note.is_eval_prompt:
            prompt = note.text
        notes.append(note)
    return Transcript(tuple(calls), tuple(notes), (), prompt, ())


def _call(lines: list[str], line: int, step: int, end: int, index: int, file: str,
          held: tuple[Held, Held]) -> ToolCall | None:
    """The record whose heading is ``line``, as the parser's reader of the usual record
    reads it: its fields on the four lines after the heading, then a blank line; its
    Args and Return values those ``held`` where it holds them."""
    if not 0 < step <= _MAX_STEP or end != line + _RECORD + 1:  # a blank line after the record, then a heading or the end
        return None
    heading, tool, args, result, status = lines[line - 1:line - 1 + _RECORD]
    prefix = f"## [tool_calls] Step {step}: "
    if not (heading.startswith(prefix) and tool.startswith("Tool:") and args.startswith("Args:")
            and result.startswith("Return:") and status.startswith("Status:") and lines[line + 4] == ""):
        return None
    name, said = tool[5:].strip(), status[7:].strip()
    if not name or not said or not name.isprintable():  # the parser reads these otherwise, or reports them
        return None
    arguments, returned = _json(args[5:].strip(), line + 2, held[0]), _json(result[7:].strip(), line + 3, held[1])
    if arguments is None or returned is None:
        return None
    return ToolCall(index, step, heading[len(prefix):].strip(), name, arguments, returned, said,
                    Location(file, line), line + 4, line + 1)


def _json(raw: str, line: int, held: Held) -> Payload | None:
    parsed = (held[0],) if held is not None and reads_as_is(raw, held[1]) else json_value(raw)
    return None if parsed is None else Payload(raw, parsed[0], True, line)


def _note(lines: list[str], line: int, kind: str, step: int, end: int, index: int, file: str,
          first_prompt: bool) -> Note | None:
    """The text section whose heading is ``line``, its body the lines up to ``end``."""
    heading = lines[line - 1]
    if kind == PROMPT:
        if heading != "## Eval Prompt":
            return None
        section = Section(HARNESS, line, None, "Eval Prompt")
    else:
        prefix = f"## [agent_notes] Step {step}: " if kind == AGENT else "## [harness] "
        title = heading[len(prefix):]
        # a title with spaces around it or hashes after it is read trimmed
        if not heading.startswith(prefix) or title != title.strip() or title.endswith("#"):
            return None
        section = Section(kind, line, step if kind == AGENT else None, title, tagged=True)
    if not 0 <= step <= _MAX_STEP:
        return None
    section.body, section.first = "\n".join(lines[line:end - 1]), line + 1
    return section_note(section, index, file, first_prompt)


# In JSON text ``json.dumps`` wrote, a float is ``float.__repr__``'s (``1.5``, ``1e-07``,
# ``1e+16``), or ``NaN``, ``Infinity``; an integer too long to read has ``MAX_NUMBER_CHARS``
# digits or more. Each may stand in a string too: the value is then read from the text.
# Compiled when first searched for (``re``'s cache): this module loads with every grade.
_FLOAT = r"[0-9](?:\.|e[-+])"
_LONG_INTEGER = f"[0-9]{{{MAX_NUMBER_CHARS}}}"


def reads_as_is(text: str, plain: bool) -> bool:
    """Whether the transcript's reader (``safejson.json_value``) reads ``text``, which
    ``importers.exact.dumps_told`` wrote (``plain``: by ``json.dumps`` alone) for a value decoded from
    JSON (objects with text keys, arrays, texts, numbers, booleans, null), as that very
    value. It reads every fraction as a Decimal where the value may hold a float, refuses
    an integer of more than ``MAX_NUMBER_CHARS`` characters and JSON nested deeper than
    ``MAX_JSON_DEPTH``; ``json.dumps`` writes a Decimal's digits as an integer's when it
    has no fraction. Where any of these may be, False: the text is read."""
    if not plain:
        return False
    # A float's text holds one of the characters looked for first: a search for a character,
    # in C, passes over most texts in a tenth of the time of a pattern tried at each digit.
    if ("." in text or "-" in text or "+" in text) and re.search(_FLOAT, text):
        return False
    if ("N" in text or "I" in text) and ("NaN" in text or "Infinity" in text):
        return False
    if len(text) >= MAX_NUMBER_CHARS and re.search(_LONG_INTEGER, text):
        return False
    # nested too deep: more opening brackets than the limit (``safejson._nested_too_deep``)
    return len(text) <= 2 * MAX_JSON_DEPTH or text.count("[") + text.count("{") <= MAX_JSON_DEPTH
