"""Text for a terminal that cannot act on it: control characters are shown, not sent.

Tool names, file names, quotes and paths come from the run, and the agent wrote
them. Sent raw, an escape sequence in one could move the cursor, rewrite earlier
lines (a FAIL repainted as PASS), set the window title or hide text; a bidi
override could make text read backwards; and a zero-width space, shown as nothing
in a terminal and in a CI log's page alike, makes "LX\\u200b2084" look like the
"LX2084" it is not equal to. ``inert`` writes each such character as an escape
(``\\x1b``, ``\\r``, ``\\u202e``, ``\\u200b``: every one ``visible`` escapes);
line breaks and tabs are kept. Nor
can such text start a CI runner's workflow command in its legacy form (``##[error]``,
read anywhere in a line): its ``[`` is written ``\\x5b``.
Colour is added by referee after the text is made inert, so its own codes pass.

A report a person reads in a browser or on GitHub (the HTML viewer, the Markdown
summary, JUnit, benchmark.md) shows the same text through ``visible``: the same
escapes, every invisible format character (a zero-width space, a word joiner, a
byte order mark, the tag characters U+E0000 to U+E007F), by which a name could hide
text or look like another one. The zero-width non-joiner and joiner are kept: they
shape Persian and Indic words and emoji, and hide nothing.
"""

from __future__ import annotations

import re
from typing import Any, Callable

# Unicode's format characters (category Cf, Unicode 15.1) and the controls but U+200C and U+200D:
# written out, so the characters shown do not depend on a library's tables.
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891"
                        "\u08e2\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
                        "\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
                        "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]")


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    if code == 0x0D:
        return "\\r"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


# A CI runner reads a workflow command in its legacy form, "##[name]data", anywhere in
# a line it prints (GitHub's acts on "##[error]", "##[add-mask]FAIL", which hides
# "FAIL" in the rest of the log, "##[stop-commands]"): written with its "[" as an
# escape, the text reads the same and starts none.
_LEGACY_COMMAND = "##["


def inert(text: str) -> str:
    """``text`` with every control (but line break and tab) and invisible format character
    written as an escape, and the ``##[`` that starts a legacy workflow command as ``##\\x5b``."""
    return _INVISIBLE.sub(_escaped, text).replace(_LEGACY_COMMAND, "##\\x5b")


def line_start(text: str) -> str:
    """``text``, which starts a line of its own, with a ``::`` it starts with (after blanks)
    written ``\\x3a:``. A CI runner reads a workflow command on any line that starts with
    ``::`` once its leading blanks (a no-break space too) are trimmed, and such a line can
    start with a name the run chose (an output file or a folder named ``::error::x``)."""
    rest = text.lstrip()
    if not rest.startswith("::"):
        return text
    start = len(text) - len(rest)
    return f"{text[:start]}\\x3a{text[start + 1:]}"


# A line a CI runner reads as a workflow command: "::" first on it, after blanks. The
# blanks are read from where a run of them starts (the lookbehind), once: read from each
# line start, many blank lines were read again from each, a time growing with their
# square. ``_starts_line`` keeps the match only where a line starts in those blanks.
_BLANKS_COLON = re.compile(r"(?<!\s)(\s*):(?=:)")


def log_safe(text: str, bracket: str, colon: str) -> str:
    """``text`` of a report that may be printed to a CI log (``report -o -``), starting
    no workflow command there: the ``[`` of each ``##[`` written ``bracket``, and the
    first ``:`` of a ``::`` that starts a line (after blanks) written ``colon``, each the
    format's own escape of the character (``&#91;`` and ``&#58;`` in XML or HTML, which
    read the same; ``\\x5b`` and ``\\x3a`` in text shown as written, as ``inert`` and
    ``line_start`` write them). ``text`` is taken to start a line: a piece of XML or HTML
    written mid-line is escaped at its start too, which reads the same."""
    text = text.replace(_LEGACY_COMMAND, "##" + bracket)
    return _BLANKS_COLON.sub(lambda m: m.group(1) + colon if _starts_line(m) else m.group(), text)


def _starts_line(found: re.Match) -> bool:
    """Whether a line starts in the blanks before this ``::`` (at the text's start, or
    after a line break among them): then it is the first thing on that line."""
    return found.start() == 0 or "\n" in found.group(1)


def visible(text: str) -> str:
    """``text`` with every control and invisible format character written as an escape
    (``\\u202e``, ``\\u200b``, ``\\U000e0041``), as ``inert`` writes them; a ``##[`` is
    left as it is (each format writes it its own way)."""
    return _INVISIBLE.sub(_escaped, text)


def visible_data(value: Any) -> Any:
    """A copy of JSON-like ``value`` with every string (keys too) made ``visible``."""
    return _each_string(value, visible)


def inert_data(value: Any) -> Any:
    """A copy of JSON-like ``value`` with every string (keys too) made ``inert``."""
    return _each_string(value, inert)


def _each_string(value: Any, write: Callable[[str], str]) -> Any:
    """A copy of JSON-like ``value`` with ``write`` applied to every string, keys too."""
    if isinstance(value, str):
        return write(value)
    if isinstance(value, dict):
        return {_each_string(k, write): _each_string(v, write) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_each_string(v, write) for v in value)
    return value
