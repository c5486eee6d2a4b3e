"""Why a call cannot give a field: the run's warning at the call, when there is one.

A call unsure of a field (``ToolCall.unsure``) makes a check that reads it an ERROR
(``engine.checks.access.sure_of``). The message then lists every reason a field can
be unsure, for the reader to look up among the run's warnings. Where the run holds a
warning at the call's own lines (its heading, Tool, Status, Args or Return line, or
the source line each came from) that says why, the ERROR names that warning instead:
``warning[backgrounded] at session.jsonl:3: ...``. Looked up only when a check meets
such a call, never on the common path.
"""

from __future__ import annotations

from referee.engine.caps import cut
from referee.engine.checks.base import Context
from referee.engine.run.model import Problem, ToolCall
from referee.engine.run.safeio import join_report

# The warnings that make a call unsure of a field, the likeliest first. not-utf8: the
# source's bytes were read with replacement characters, so no field of it is sure.
EXPLAINS = {
    "status": ("backgrounded", "status-unknown", "not-utf8"),
    "return": ("backgrounded", "value-cut", "unread-text", "not-utf8"),
    "args": ("value-cut", "bad-arguments", "unread-text", "not-utf8"),
    "tool": ("tool-unseen", "not-utf8"),
    "title": ("tool-unseen", "not-utf8"),
}
# Warnings about a whole source line: on a line that holds many calls (a message list
# written on one line) they are about each; any other may be another call's.
LINE_WIDE = frozenset({"not-utf8"})
MESSAGE_LIMIT = 400


def unsure_why(ctx: Context, call: ToolCall, fields: str) -> str | None:
    """``warning[code] at place: message`` for the warning that explains why ``call``
    cannot give ``fields`` (one field, or several joined by " and "); None when the run
    holds none at the call's lines (the generic reasons stand then)."""
    if call.suspect is not None:
        return None
    by_place = ctx.once(("unsure why", "warnings"), lambda: _by_place(ctx.run.problems))
    near = [p for place, shared in _places(ctx, call) for p in by_place.get(place, ())
            if not shared or p.code in LINE_WIDE]
    for field in fields.split(" and "):
        for code in EXPLAINS.get(field, ()):
            found = next((p for p in near if p.code == code), None)
            if found is not None:
                return f"warning[{found.code}] at {found.place}: {cut(found.message, MESSAGE_LIMIT)}"
    return None


def _by_place(problems: list[Problem]) -> dict[tuple[str, int | None], list[Problem]]:
    found: dict[tuple[str, int | None], list[Problem]] = {}
    for problem in problems:
        found.setdefault((problem.path, problem.line), []).append(problem)
    return found


def _places(ctx: Context, call: ToolCall) -> list[tuple[tuple[str, int | None], bool]]:
    """Where a warning about ``call`` stands, each with whether other calls' warnings
    may stand there too: its lines in the file it was read from, the source lines an
    import read them from (shared when the line holds many things), and those
    sources as a whole (a warning about a whole file has no line)."""
    file = call.location.file
    lines = [call.location.line, call.tool_line, call.status_line,
             call.args.line if call.args is not None else None,
             call.result.line if call.result is not None else None]
    lines = list(dict.fromkeys(line for line in lines if line is not None))
    report = join_report(ctx.run.id.rel, file)
    places = [((report, line), False) for line in lines]
    source_map, _ = ctx.run.source_map
    if source_map is None:
        return places
    for line in lines:
        found = source_map.place(file, line)
        if found is not None:
            index, source_line, pointer, column = found
            source = source_map.sources[index]
            places += [((source, source_line), bool(pointer) or column is not None), ((source, None), True)]
    return list(dict.fromkeys(places))
