"""Selections of calls over a run made of calls alone: the compiled selections of a
rules text, a run holding given calls (tool, status word, fields it is unsure of),
and an outcome that tells the elements kept from an ERROR raised."""

from __future__ import annotations

from types import SimpleNamespace

from referee import dsl
from referee.engine.checks.sources import Select
from referee.engine.compile import compile_rules
from referee.engine.run.agents import Calls
from referee.engine.run.model import Location, ToolCall
from referee.engine.values import EvalError


def selections(texts) -> list[Select]:
    """The selection of each of ``texts`` (``calls to "save"``...), compiled."""
    rules = "eval 1\n" + "".join(f"expect: any {text}\n" for text in texts)
    ev = compile_rules([dsl.parse_rules(rules, "t.rules")]).evals[0]
    return [a.check.selection for a in ev.assertions]


def run_of(calls) -> SimpleNamespace:
    """A run whose calls are ``(tool, status, unsure)``, one a step; a call unsure of
    a field is a suspect one (cut short)."""
    made = [ToolCall(index=n, step=n + 1, title=str(tool), tool=tool, args=None, result=None, status=status,
                     location=Location("outputs/transcript.md", 5 * n + 1), tool_line=5 * n + 2,
                     status_line=5 * n + 3, suspect="cut short" if unsure else None, unsure=unsure)
            for n, (tool, status, unsure) in enumerate(calls)]
    transcript = SimpleNamespace(calls=tuple(c for c in made if not c.suspect),
                                 suspect_calls=tuple(c for c in made if c.suspect), unreadable=None)
    return SimpleNamespace(transcript=transcript, no_record=None,
                           every_call=Calls(transcript.calls + transcript.suspect_calls))


def outcome(compute):
    """``("kept", what compute() gives)``, or ``("error", its message)`` when it raises."""
    try:
        return "kept", compute()
    except EvalError as err:
        return "error", err.message
