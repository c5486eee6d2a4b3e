"""Trust of evidence: agent notes are interpretation, never proof.

Two rules live here. A PASS whose evidence all comes from agent notes becomes a
FAIL marked ``notes_only``. And when a selection of calls ``to X`` is empty, the
FAIL says which agent notes claim X anyway, with their file and line, so a
reader sees at once that the claim has no tool-call record behind it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from referee.dsl import ast
from referee.engine.run.model import AGENT_SOURCES
from referee.engine.values import Claim, Prov, short
from referee.engine.verdict import Outcome, Verdict

NOTES_ONLY = "rests on agent notes alone; no tool call or output backs it"
_LITERAL_RUN = re.compile(r"[A-Za-z0-9_\-.]{3,}")


def bare_names(pattern: ast.NamePattern) -> list[str]:
    """The words a note would use for a tool: the literal part of a glob or regex,
    and for ``expense-mcp_saveExpenseDoc`` also ``saveExpenseDoc``."""
    if pattern.kind == "exact":
        words = [pattern.text]
    else:
        text = pattern.text
        if pattern.kind == "regex":
            text = re.sub(r"\\.|[\[\](){}|^$?*+]", " ", text)
        words = sorted(_LITERAL_RUN.findall(text.replace("*", " ").replace("?", " ")),
                       key=len, reverse=True)[:1]
    tails = [re.split(r"__|_|\.|:|/", w)[-1] for w in words]
    return list(dict.fromkeys(w for w in words + tails if len(w) >= 3))


def notes_claiming(run, pattern: ast.NamePattern) -> tuple[Claim, ...]:
    """Agent notes (not the eval prompt) that mention the tool ``pattern`` names."""
    names = bare_names(pattern)
    claims = []
    for note in run.transcript.notes:
        if note.title.strip().lower() == "eval prompt":
            continue
        found = next((n for n in names if n.lower() in note.text.lower()), None)
        if found is None:
            continue
        line = _line_of(note, found)
        prov = Prov("agent_notes", "agent_notes", note.location.file, line, note.step)
        step = f" step {note.step}" if note.step is not None else ""
        message = (f"agent_notes{step} ({prov.where()}) claims {found} was called; "
                   f"no [tool_calls] record")
        claims.append(Claim(message, prov.evidence(quote=short(_quote(note, found)))))
    return tuple(claims)


def _line_of(note, word: str) -> int | None:
    if note.location.line is None:
        return None
    for offset, text in enumerate(note.text.splitlines(), start=1):
        if word.lower() in text.lower():
            return note.location.line + offset
    return note.location.line


def _quote(note, word: str) -> str:
    return next((t.strip() for t in note.text.splitlines() if word.lower() in t.lower()), "")


def rests_on_notes(verdict: Verdict, static_sources: str) -> bool:
    """True for a PASS supported by agent notes alone."""
    if verdict.outcome is not Outcome.PASS:
        return False
    if verdict.evidence:
        return all(e.source in AGENT_SOURCES for e in verdict.evidence)
    return static_sources in AGENT_SOURCES


def demote_notes_only(verdict: Verdict, static_sources: str) -> Verdict:
    """A PASS resting on agent notes alone becomes a FAIL with the reason."""
    if not rests_on_notes(verdict, static_sources):
        return verdict
    return replace(verdict, outcome=Outcome.FAIL, notes_only=True,
                   message=f"{NOTES_ONLY}: {verdict.message}")
