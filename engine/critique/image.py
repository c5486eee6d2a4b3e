"""A run copied into plain data that mutants change, and written back as a run in memory.

The copy keeps what checks read: the tool calls (tool, arguments, result, status),
the notes, the prompt, the response and every other file. ``to_run`` writes the
transcript in the canonical dual-section form (one-line JSON, agent text escaped)
and builds a ``MemoryRun``; the workspace is never touched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from referee.dsl.frozen import frozen
from referee.engine.run.escape import escape_text
from referee.engine.run.memory import MemoryRun
from referee.engine.run.model import Payload, RunId
from referee.engine.text import surrogates_escaped

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

TRANSCRIPT = "outputs/transcript.md"
RESPONSE = "outputs/response.md"


@frozen
class Call:
    tool: str
    title: str
    args: Any  # a JSON value, or text when the run's was not JSON
    result: Any
    status: str | None
    order: float  # position among calls and notes (a subagent's call sits between two whole ones)
    step: int | None = None  # the step it had in the run (mutants renumber)


@frozen
class Text:
    """A note or other section: ``kind`` agent_notes, or any other kind (its heading as is)."""

    kind: str
    title: str
    text: str
    step: int | None
    order: float


@dataclass
class RunImage:
    calls: list[Call]
    notes: list[Text]
    response: str | None
    files: dict[str, bytes] = field(default_factory=dict)  # outputs/ and run files, as found
    # Written blocks by (id of the element, step): copies share it, and mutants keep
    # most elements, so each block is written once. Each entry holds its element, so
    # no other element can be given the same id while the entry exists.
    blocks: dict[tuple[int, int], tuple[Call | Text, str]] = field(default_factory=dict, repr=False,
                                                                    compare=False)

    def copy(self) -> "RunImage":
        return RunImage(list(self.calls), list(self.notes), self.response, dict(self.files), self.blocks)


def image_of(run: Run) -> RunImage:
    """The run's content as data (read once; the run itself is not changed)."""
    transcript = run.transcript
    calls = [Call(c.tool or "", c.title, _payload(c.args), _payload(c.result), c.status, c.index, c.step)
             for c in transcript.calls]
    # Every section is kept as a note, the eval prompt too: written back under its
    # own heading, it reads as it did.
    notes = [Text(n.kind, n.title, n.text, n.step, n.index) for n in transcript.notes]
    files = {}
    for name in run.output_files():
        rel = f"outputs/{name}"
        if rel in (TRANSCRIPT, RESPONSE):
            continue
        found = run.read_output(name)
        if found.text is not None:
            files[rel] = found.text.encode("utf-8")
    timing = run.timing
    if timing is not None and timing.value is not None:
        files[timing.path] = dumps(timing.value).encode("utf-8")
    response = run.response.text if run.response is not None else None
    return RunImage(calls, notes, response, files)


def _payload(payload: Payload | None) -> Any:
    if payload is None:
        return None
    return payload.value if payload.is_json else payload.text


def to_run(image: RunImage, like: Run, parsed_like: MemoryRun | None = None) -> MemoryRun:
    """``image`` as a run in memory with the identity and metadata of the run ``like``;
    its transcript is ``parsed_like``'s parse when their texts are the same (``MemoryRun``)."""
    files: dict[str, str | bytes] = dict(image.files)
    files[TRANSCRIPT] = transcript_text(image)
    if image.response is not None:
        files[RESPONSE] = image.response
    rid = like.id
    # Not memory_run, which refuses a name no folder could have: the eval's name comes
    # from eval_metadata.json, which may hold a '/' ("a/b"); the run's place is rid.rel.
    return MemoryRun(files, RunId(rid.rel, rid.eval_id, rid.eval_name, rid.configuration, rid.run_number),
                     like.metadata, parsed_like=parsed_like)


def transcript_text(image: RunImage) -> str:
    """The canonical dual-section transcript; steps numbered 1, 2, ... in call order."""
    parts = []
    step = 0
    elements: list[Call | Text] = [*image.calls, *image.notes]
    for element in sorted(elements, key=lambda e: e.order):
        if isinstance(element, Call):
            step += 1
        key = (id(element), step)
        if key not in image.blocks:
            text = _call_block(element, step) if isinstance(element, Call) else _text_block(element, max(step, 1))
            image.blocks[key] = (element, text)
        parts.append(image.blocks[key][1])
    return "\n".join(parts)


def _call_block(call: Call, step: int) -> str:
    lines = [f"## [tool_calls] Step {step}: {_one_line(call.title or call.tool)}", f"Tool: {call.tool}"]
    if call.args is not None:
        lines.append(f"Args: {dumps(call.args)}")
    if call.result is not None:
        lines.append(f"Return: {dumps(call.result)}")
    if call.status is not None:
        lines.append(f"Status: {call.status}")
    return "\n".join(lines) + "\n"


def _text_block(note: Text, step: int) -> str:
    body = escape_text(note.text)
    if note.kind == "agent_notes":
        return f"## [agent_notes] Step {note.step or step}: {_one_line(note.title)}\n{body}\n"
    return f"## {_one_line(note.title) or 'Notes'}\n{body}\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def dumps(value: Any) -> str:
    """One-line JSON that keeps decimals exactly as read (``168.00`` stays ``168.00``),
    and a lone surrogate as the escape it was read from (``"\\ud800"``): no UTF-8 file,
    and so no run in memory, holds the character itself."""
    return surrogates_escaped(_json(value))


def _json(value: Any) -> str:
    if isinstance(value, Decimal):
        return str(value) if value.is_finite() else json.dumps(str(value))
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)}: {_json(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_json(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def with_call(image: RunImage, position: int, **changes: Any) -> RunImage:
    """A copy of ``image`` with call ``position`` changed."""
    changed = image.copy()
    changed.calls[position] = replace(changed.calls[position], **changes)
    return changed
