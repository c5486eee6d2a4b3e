"""Trust of evidence: agent notes are interpretation, never proof.

Two rules live here. A PASS whose evidence all comes from agent notes becomes a
FAIL marked ``notes_only``. And when a selection of calls ``to X`` is empty, the
FAIL says which agent notes claim X anyway, with their file and line, so a
reader sees at once that the claim has no tool-call record behind it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import regex

from referee.dsl import ast
from referee.engine.regexes import name_matcher
from referee.engine.run.model import AGENT_SOURCES
from referee.engine.values import Claim, Prov, short
from referee.engine.verdict import NOTES_ONLY, Outcome, Verdict

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

SUSPECT = "suspect_calls"  # the evidence source of a record that broke the record grammar
ON_SUSPECT = "rests on a tool-call record referee does not trust (see the run's warnings)"
_LITERAL_RUN = re.compile(r"[A-Za-z0-9_\-.]{3,}")
_SEPARATOR = re.compile(r"[_\-.:/]")


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


def claimed_tools(run: Run) -> tuple:
    """Every (note, line, tool, text) where the agent's notes say a tool was called,
    read once per run and shared by the checks that ask (``notes_claiming``)."""
    # Loaded here: ``referee check`` compiles the rules and reads no notes.
    from referee.engine.facts.claims import tool_claims

    return tuple(tool_claims(run))


# The letters outside ASCII that a case-insensitive match takes for an ASCII letter
# (engine.facts.claims reads tool names so): a text holding one gets no quick look.
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def searchable(run: Run) -> str | None:
    """The run's transcript and its notes as parsed, for ``may_be_claimed``; None when
    they cannot be searched so (they hold a letter of ``_FOLDS_TO_ASCII``)."""
    notes = run.transcript.notes
    if not notes:
        return ""  # no note, no claim
    source = run.transcript_file
    text = "\n".join([source.text if source is not None and source.text else "", *(note.text for note in notes)])
    if not text.isascii() and any(map(text.__contains__, _FOLDS_TO_ASCII)):
        return None
    return text


def may_be_claimed(text: str | None, pattern: ast.NamePattern) -> bool:
    """False only when no note in ``text`` (``searchable``) can claim a call that
    ``notes_claiming`` takes for ``pattern``, so that the notes need not be read.

    A claimed tool is a name written in a note (ASCII: ``claims.IDENT``). It stands
    for an exact name or a glob without ``[`` when it is that name, matches that glob
    (and so holds each of its literal runs), or is an end of the pattern's literal
    after a separator (``_names``): each way, it holds the literal's last segment,
    which the transcript then holds too. A regex, or a glob with a class, can match
    names that hold none of its text: for those the notes are read."""
    if text is None or pattern.kind == "regex" or (pattern.kind == "glob" and "[" in pattern.text):
        return True
    names = bare_names(pattern)
    if not names:
        return True
    segment = _SEPARATOR.split(names[0])[-1]
    return not segment.isascii() or _anycase(segment).search(text) is not None


@functools.lru_cache(maxsize=256)
def _anycase(segment: str) -> regex.Pattern:
    """``segment`` (ASCII) in any case: in a text without ``_FOLDS_TO_ASCII``, a match
    is where the lower-cased text holds it lower-cased. (The ``regex`` module finds a
    literal in any case without a lower-cased copy of the text: several times faster.)"""
    return regex.compile(regex.escape(segment), regex.IGNORECASE)


def notes_claiming(claimed: tuple, pattern: ast.NamePattern) -> tuple[Claim, ...]:
    """Lines of the agent's notes (``claimed_tools``) that say a tool ``pattern`` names was called.

    The claims are those ``engine.facts.claims`` reads: the agent's own
    ``[agent_notes]`` (not the eval prompt, user turns or code blocks), sentences
    that say the tool was called (not ones that deny it, nor a mere mention), each
    with its own line. The tool named in a claim matches when it, or its tail after
    a separator, is what the pattern selects (see ``_names``).
    """
    names = bare_names(pattern)
    matches = name_matcher(pattern.kind, pattern.text, pattern.flags)  # as the selections match
    claims = []
    for note, line, tool, text in claimed:
        if not _names(matches, names, tool):
            continue
        found = next((n for n in names if tool.lower().endswith(n.lower())), tool)
        prov = Prov("agent_notes", "agent_notes", note.location.file, line, note.step)
        step = f" step {note.step}" if note.step is not None else ""
        message = (f"agent_notes{step} ({prov.where()}) claims {found} was called; "
                   f"no [tool_calls] record")
        claims.append(Claim(message, prov.evidence(quote=short(text))))
    return tuple(dict.fromkeys(claims))


def _names(matches: Callable[[str], bool | None], names: list[str], tool: str) -> bool:
    """Does the claimed ``tool`` stand for what the pattern selects? The full name
    matches it (through the matcher the selections use; undecided is no), or
    the agent wrote the short name ("saveDoc" for ``mcp_saveDoc``): the pattern's
    literal ends with it after a separator."""
    if matches(tool):
        return True
    literal, short_name = (names[0].lower() if names else ""), tool.lower()
    if literal == short_name:
        return True
    before = len(literal) - len(short_name) - 1
    return before >= 0 and literal.endswith(short_name) and _SEPARATOR.match(literal, before) is not None


def rests_on_notes(verdict: Verdict, static_sources: str) -> bool:
    """True for a PASS supported by agent notes alone, or resting, even in part, on
    a tool-call record referee does not trust (``suspect_calls``)."""
    if verdict.outcome is not Outcome.PASS:
        return False
    if verdict.evidence:
        sources = {e.source for e in verdict.evidence}
        return sources <= AGENT_SOURCES or SUSPECT in sources
    return static_sources in AGENT_SOURCES


def demote_notes_only(verdict: Verdict, static_sources: str) -> Verdict:
    """A PASS resting on agent notes alone becomes a FAIL with the reason."""
    if not rests_on_notes(verdict, static_sources):
        return verdict
    why = ON_SUSPECT if any(e.source == SUSPECT for e in verdict.evidence) else NOTES_ONLY
    return replace(verdict, outcome=Outcome.FAIL, notes_only=True, message=f"{why}: {verdict.message}")
