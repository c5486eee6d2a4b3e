"""Lines that look like a ``[tool_calls]`` record heading and are not one (the
parse's ``not-a-record``, ``engine.run.transcript_sections``): the forms of a heading
that names ``[tool_calls]``, and the searches for those the parse cuts at no line for
(behind characters a reader may not see, under full-width hashes).
"""

from __future__ import annotations

import re

from referee.engine.run.model import Problem

# A heading naming [tool_calls] in any form; after at most three spaces, one that is not
# the exact RECORD_HEADING (checked first) looks like a record heading but is not one. The forms a
# harness or an editor may write in its place count too: a no-break or ideographic
# space, a zero-width one, a Markdown escape before a bracket, full-width or lenticular
# brackets, full-width hashes (``wide_headings`` finds the lines that start with one: no
# line the parse cuts at does). After at most three spaces and a "#", as the parse
# meets it: ``_NEAR_RECORD``.
_GAP = "[ \t\u00a0\u3000\u200b\u2060]*"
TOOL_HEADING = re.compile(rf"[#\uff03]{{1,6}}{_GAP}\\?[\[\uff3b\u3010]{_GAP}tool[ \t\u00a0\u200b\u2060_\-\u2010\u2011]*"
                           rf"calls?{_GAP}\\?[\]\uff3d\u3011]", re.IGNORECASE)
_OPENERS = ("[", "\uff3b", "\u3010")  # a line holding none of them names no [tool_calls] (a cheap test first)
_NEAR_RECORD = re.compile(r" {0,3}(?=#)" + TOOL_HEADING.pattern, re.IGNORECASE)
# A record heading behind what a reader may not see (four spaces or more, a tab, a byte
# order mark, a zero-width or no-break space...): agent text too, reported as such.
# The lines that start so and hold a "#" are found by a search that starts with the
# line break (a literal: fast); only there is the heading's form tried.
_UNSEEN = " \t\ufeff\u200b\u2060\u00a0\x0b\x0c\x85\u2028\u2029"
_UNSEEN_START = re.compile(f"\n([{_UNSEEN}]++)#")  # possessive: the run is never given back
# A "#" right after one of them: the search looks for the "#" (a literal, which the
# regex engine skips to) and then at the character before it, where a search for the
# pattern above tries a match at every line break (twice the instructions over a
# transcript of tool output, where most lines hold no "#").
_HASH_AFTER_UNSEEN = re.compile(f"#(?<=[{_UNSEEN}]#)")


def written_as_heading(line: str) -> bool:
    """Whether ``line`` names ``[tool_calls]`` in a heading that starts, after at most
    three spaces, with ``#``: the lines the parse itself finds not to be a record
    heading in the exact form (not those behind characters a reader may not see)."""
    return _NEAR_RECORD.match(line) is not None


def names_tool_calls(line: str) -> bool:
    """Whether ``line`` may name ``[tool_calls]``: a bracket and "tool" in it."""
    return any(opener in line for opener in _OPENERS) and "tool" in line.lower()


def hidden_headings(text: str, report: str) -> list[Problem]:
    """A ``not-a-record`` problem for each record heading in ``text`` behind characters
    a reader may not see.

    Such a heading's first ``#`` follows one of those characters: only there is its
    line looked at. ``hidden_headings_by_lines``, which tries every line break, is the
    reference (tests/test_transcript_less_work.py holds the two to each other)."""
    found: list[Problem] = []
    line, counted = 1, 0  # the line number at offset `counted`: lines counted once, not from the start each time
    for match in _HASH_AFTER_UNSEEN.finditer(text):
        at = match.start()
        start = at - 1
        # back over the run of those characters alone (runs before two "#" never overlap:
        # linear over the text, where a search back to the line's start is not on one long line)
        while start > 0 and text[start - 1] in _UNSEEN:
            start -= 1
        if start > 0 and text[start - 1] != "\n":
            continue  # the run follows other text on its line
        prefix = text[start:at]
        if (len(prefix) > 3 or prefix.strip(" ")) and TOOL_HEADING.match(text, at):
            line, counted = line + text.count("\n", counted, at), at
            found.append(Problem("not-a-record", report, _HIDDEN, line))
    return found


def hidden_headings_by_lines(text: str, report: str) -> list[Problem]:
    """``hidden_headings``, by a match tried at every line break."""
    found: list[Problem] = []
    lined = "\n" + text  # the first line too starts after a line break
    for match in _UNSEEN_START.finditer(lined):
        prefix = match.group(1)
        if (len(prefix) > 3 or prefix.strip(" ")) and TOOL_HEADING.match(lined, match.end() - 1):
            found.append(Problem("not-a-record", report, _HIDDEN, lined.count("\n", 0, match.end())))
    return found


def wide_headings(text: str, report: str) -> list[Problem]:
    """A ``not-a-record`` problem for each line of ``text`` that names ``[tool_calls]``
    under full-width hashes (``＃＃ [tool_calls] Step 3``, as an input method writes
    them), after at most spaces and characters a reader may not see: the parse cuts
    at no such line, so ``_NEAR_RECORD`` never sees it. Searched only in a text that
    holds one (the character is rare)."""
    if "\uff03" not in text:
        return []
    found: list[Problem] = []
    line, counted = 1, 0  # the line number at offset `counted`: lines counted once
    for match in _WIDE_START.finditer(text):
        if TOOL_HEADING.match(text, match.end() - 1):
            line, counted = line + text.count("\n", counted, match.start()), match.start()
            found.append(Problem("not-a-record", report, _WIDE, line))
    return found


_WIDE_START = re.compile(f"^[{_UNSEEN}]*+\uff03", re.MULTILINE)
_WIDE = ("looks like a [tool_calls] record heading written with full-width hashes; read as agent text")
_HIDDEN = ("looks like a [tool_calls] record heading behind characters a reader may not see "
           "(spaces, a tab, a byte order mark...); read as agent text")
