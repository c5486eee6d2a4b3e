"""The blanks at a text's ends, which no reader sees.

A file ends with a line break (every editor writes one, and so do agents), and a line
may end with spaces: ``DONE`` and a line break, or ``DONE`` and two spaces, show
``DONE``. Compared as written they differ, and ``response != "DONE"``, ``not (response
ends with "?")`` over ``Shall I go on?`` and a line break, or ``not ("DONE" in
lines(response))`` over ``DONE  ``, passed on what the reader sees. Such a comparison
or test, true only with the blanks at the ends left out, cannot be decided: an ERROR
saying to write ``trim(...)``, which says which one the rule means.
"""

from __future__ import annotations

from typing import Callable

from referee.engine.checks.folding import text_form
from referee.engine.checks.json_strings import JSON_SUFFIXES
from referee.engine.values import EvalError, Prov, Val, render, short

_BLANKS = " \t\n\r\f\v\u00a0"
# Texts people read: the response, an output file, the agent's notes. Not a tool call's
# fields, which a program reads ("10 " is no "10" to it), nor a data file's values.
_READ = ("response", "outputs", "agent_notes")
_DATA = JSON_SUFFIXES + (".csv", ".tsv", ".yaml", ".yml", ".toml", ".xml")


def read_by_people(prov: Prov | None) -> bool:
    """Whether a text with this provenance is one a reader sees shown."""
    return (prov is not None and prov.source in _READ
            and not (prov.file or "").lower().endswith(_DATA))


def without_blank_ends(text: str) -> str:
    """``text`` without the spaces, tabs and line breaks at its start and end."""
    return text.strip(_BLANKS)


def not_equal_at_ends(left: Val, right: Val, ignore_case: bool) -> None:
    """Raise when two texts that differ as written are equal once the blanks at their
    ends are left out."""
    one, other = left.value, right.value
    if not (isinstance(one, str) and isinstance(other, str)):
        return
    if not (read_by_people(left.prov) or read_by_people(right.prov)):
        return
    if without_blank_ends(one) == one and without_blank_ends(other) == other:
        return
    # The forms of the texts as written, which ``==`` made already (a long text's is kept
    # for the run: ``folding``), without their blanks: the blanks at the ends are the
    # same characters in either.
    if without_blank_ends(text_form(one, ignore_case)) != without_blank_ends(text_form(other, ignore_case)):
        return
    raise EvalError(f"{short(render(one), 60)} and {short(render(other), 60)} are equal only with the blanks at "
                    "their ends left out, which a reader does not see: whether they are equal cannot be decided; "
                    "compare trim(...) of the text to say so")


def blank_ends_of(text: str, start: bool) -> str:
    """The blanks at the start (else the end) of ``text``."""
    bare = text.lstrip(_BLANKS) if start else text.rstrip(_BLANKS)
    return text[:len(text) - len(bare)] if start else text[len(bare):]


def not_at_blank_ends(subject: Val, verb: str, shown: str, hit: Callable[[str], int], start: bool) -> None:
    """Raise when ``starts with`` (``start``) or ``ends with`` misses a text people read
    and hits it once the blanks at its ends are left out: ``Shall I go on?`` and a line
    break ends with "?" to its reader. (``fully matches`` reads the text as written, its
    final line break too: the conformance suite holds it so.)"""
    if not read_by_people(subject.prov):
        return
    bare = without_blank_ends(subject.value)
    if bare == subject.value or hit(bare) < 0:
        return
    blanks = blank_ends_of(subject.value, start)
    raise EvalError(f"{subject.label} {verb} {shown} only with the blanks at its ends left out "
                    f"({short(render(blanks), 20)}), which a reader does not see, so it cannot be decided; test "
                    f"trim({subject.label}) to say so")
