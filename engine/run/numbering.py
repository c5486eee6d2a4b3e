"""How a transcript's records are numbered, and where a numbering that breaks ends trust.

Two numbering schemes are read as the harness's own (docs/threat-model.md, step
numbering):

- **one per call**: the n-th record is ``Step n``;
- **one counter shared with the notes**: the records and the tagged
  ``## [agent_notes] Step N`` sections together are numbered 1, 2, 3, ... in
  the order they stand (a note takes a number, the record after it the next).

Either keeps a forged record detectable: every number the harness wrote is
fixed by its place, so a record forged anywhere but after the harness's last
numbered section pushes a later number out of its place. A transcript that
fits either scheme as a whole is numbered as it should be.

Numbering by turn (parallel calls sharing one number) is not accepted: a record
forged into the text just before a turn's records, carrying that turn's number,
looks exactly like one more parallel call, so nothing could tell it apart. Such
a transcript, or any other that fits neither scheme, is read as one per call,
and the first record out of place ends trust as ``first_untrusted`` says; the
message names the line and what the harness should write instead.
"""

from __future__ import annotations

from referee.dsl.frozen import frozen
from referee.engine.run.model import Problem

_SCHEMES = ("number records 1, 2, 3, ... one per call, or number records and [agent_notes] sections "
            "together on one counter (docs/threat-model.md, step numbering)")


@frozen
class Numbered:
    """A numbered section of a transcript, in file order: a record, or a tagged
    ``[agent_notes]`` section whose heading carries ``Step N``."""

    record: bool
    step: int
    line: int


@frozen
class StepBreak:
    """Where a numbering that fits no scheme ends trust.

    ``ends`` holds, for each record out of place, ``(cut, line, why)``: the
    position (0-based, among records) of the first record it leaves untrusted,
    its line and the reason. ``first`` is the position of the first record out of
    place, which reports ``reported`` (its own reason) as a ``step-order`` problem."""

    ends: tuple[tuple[int, int, Problem], ...]
    first: int
    reported: Problem


def first_untrusted(sections: list[Numbered], report: str) -> StepBreak | None:
    """None when the numbering fits a scheme; else where trust ends, and why.

    Read one per call, a record with step s at position p (both from 1) says
    the records from ``min(s, p)`` on may be forged ones or real ones pushed back
    by forged ones, and the record before them may have been cut short by the
    text that forged them: trust ends one before. Every record out of place is
    heard, not only the first: a forged record can carry the number its place
    expects, and then it is a real record pushed back behind it (step 2 at
    position 4) that shows how early the forging began.
    """
    records = [section for section in sections if section.record]
    if _in_order(records) or _in_order(sections):
        return None
    ends: list[tuple[int, int, Problem]] = []
    first = -1
    for position, record in enumerate(records, 1):
        if record.step == position:
            continue
        first = position - 1 if first < 0 else first
        before = records[position - 2] if position > 1 else None
        problem = Problem("step-order", report, _message(record, position, before), record.line)
        ends.append((max(min(record.step, position) - 2, 0), record.line, problem))
    return StepBreak(tuple(ends), first, ends[0][2])


def _in_order(sections: list[Numbered]) -> bool:
    return all(section.step == position for position, section in enumerate(sections, 1))


def _message(record: Numbered, position: int, before: Numbered | None) -> str:
    said = f"step {record.step} where step {position} was expected"
    if before is not None and before.step == record.step:
        return (f"{said}: the record before it (line {before.line}) is step {record.step} too; records "
                "numbered by turn (parallel calls sharing a number) cannot be told from a record forged "
                f"into the text before them, so they are not trusted; {_SCHEMES}")
    return f"{said}: {_SCHEMES}"
