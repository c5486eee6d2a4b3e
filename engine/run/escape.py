"""The escaping convention for text written into a dual-section transcript.

A ``## [tool_calls]`` block is a system record only if the harness wrote it. Text
that the agent (or anyone other than the harness) wrote must therefore never be
able to form a heading or a code fence, which could open, close or hide a record.
Writers of transcripts (a harness, ``referee import``) escape such text line by
line: every line that, after up to three spaces, starts with ``#``, a backtick
or a tilde gets a backslash in front of that character, as Markdown itself
escapes them (and a line that already starts with a backslash gets one more, so
that unescaping gives back exactly what was written). Readers treat an escaped line as plain text and may unescape it for
display. Tool arguments and results are written as one-line JSON, so they cannot
contain a line at all.
"""

from __future__ import annotations

import re

# A line that could start a heading or a fence once read as Markdown.
# A line starts after "\n" or a lone "\r": transcript readers end lines at either.
_OPENER = re.compile(r"(?:\A|(?<=[\r\n]))( {0,3})([#`~\\])")
_ESCAPED = re.compile(r"(?:\A|(?<=[\r\n]))( {0,3})\\([#`~\\])")


def escape_text(text: str) -> str:
    """``text`` with every line that could open a heading or a fence escaped."""
    return _OPENER.sub(r"\1\\\2", text)


def unescape_text(text: str) -> str:
    """The inverse of :func:`escape_text` for text that it escaped."""
    return _ESCAPED.sub(r"\1\2", text)
