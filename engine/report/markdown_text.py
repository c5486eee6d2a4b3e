"""Text from a workspace written into Markdown that GitHub renders.

Names of configurations, evals and assertions, reasons and quotes come from the
workspace, and its author (or the agent) wrote them. In a table cell or a list
item, ``cell`` keeps such a text to one line of plain text: a line break would
end the row or start a block of its own (``# PASS``; nor may a list marker or an
indent that starts the text), ``|`` a cell, and the characters of inline markup
(emphasis, links and images, code, strikethrough), ``<``, ``>`` (raw HTML) and
``&`` (entities) are escaped. An ``@name`` mentions no one, and a bare address
(``https://...``, ``www....``), an issue reference (``#12``, ``owner/repo#12``)
or an e-mail address links nowhere, nor does a commit's hash (``a5c3785``), and an emoji shortcode (``:x:``) or a
math expression (``$x$``) is shown as written; ``html_line`` does the same in a
line of HTML. ``code_span`` writes a text as inline code whatever backticks it holds.
Each shows a bidi control or an invisible character as an escape
(``engine.report.inert.visible``), so a name cannot read reversed or hide text.
The report's summary (``engine.report.markdown``) and benchmark.md
(``engine.decision.markdown``) write names through them alike.
"""

from __future__ import annotations

import re

from referee.engine.report.inert import log_safe, visible

# A cell or list item is Markdown that GitHub renders: a name from a run
# ("![PASS](https://...)", "**PASS**") would be an image or bold text there.
_MARKUP = {c: "\\" + c for c in "\\`*[]~|"}
# "&" starts an entity that Markdown and HTML decode: "&#64;octocat" would be
# "@octocat" once rendered, and GitHub reads mentions and references in the rendered
# text. Escaped, it is shown as written (referee's own "&lt;" is made after it).
_CELL = str.maketrans({**_MARKUP, "&": "\\&", "<": "&lt;", ">": "&gt;", "\n": " ", "\r": " "})
# "_" emphasises only where a letter or digit is not on both sides: "with_skill" is kept as it is.
_EMPHASIS_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
# "#" starts a heading only first on its line ("- # PASS" is a heading in a list item);
# within a text ("1#4") it is a character, and stays as written.
_HEADING = re.compile(r"^(\s*)#")
# Nor may a text start a list ("- 1. old" is a list inside the item, "1. old" the
# decision line made a list) or, indented by four spaces, a code block: a list
# marker first on the line is escaped, and the indentation, which GitHub shows nowhere, dropped.
_LIST_MARKER = re.compile(r"^([-+]|\d{1,9}(?=[.)]))([.)]?)(?=\s|$)")
_LINE_BREAKS = str.maketrans({"\n": " ", "\r": " "})
# GitHub notifies the user or team a rendered comment names as "@name" (outside code,
# and not within a word: "ana@example.com", "release.toml@3ba210f5" name no one),
# whatever escapes stand around it; after a zero-width space the "@" names no one.
_MENTION = re.compile(r"(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])")
# GitHub makes a link of a bare address ("https://x.example", "www.x.example": GFM's
# autolinks, which cmark-gfm finds by the scheme before "://" or by "www.") and of a
# reference to an issue or pull request ("#12", "GH-12", "owner/repo#12", which also
# adds a cross-reference to that issue), whatever escapes stand around them. A
# zero-width space after the scheme, the "www", the "#" or the "GH-" breaks each, and
# the text reads the same. "#" or "GH-" right after a word ("1#4", an assertion's key)
# is no reference, unless the word is a repository's path ("owner/repo#12").
_AUTOLINK = re.compile(r"(?<![A-Za-z0-9])(?:https?|ftp|mailto|xmpp)(?=:)|(?<![A-Za-z0-9])www(?=\.)",
                       re.IGNORECASE)
# Tried only where a run of word characters starts (the lookbehind), from which the
# run is read once: tried inside one too, a long word was read again from each of its
# characters, a time growing with its square. The match is the same: one that starts
# inside a run would have started at its first character.
_REFERENCE = re.compile(r"(?<![\w./-])([\w./-]*)(#|GH-)(?=\d)", re.IGNORECASE)
# An e-mail address ("ana@example.com": a period in the part after the "@") is an
# autolink too, to mailto:; "release.toml@3ba210f5" is none.
_EMAIL = re.compile(r"(?<=[\w.+-])@(?=[\w-]+\.[\w-])")
# GitHub draws an emoji for ":name:" outside code ("x :white_check_mark:" would show a
# green check beside a failure), within a word too. A zero-width space after the colon
# that opens one keeps it text. Digits alone name no emoji but :100: and :1234:, so a
# rules place ("booking.rules@c80e3172:7:1") or a time ("12:30:45") stays as written.
_SHORTCODE = re.compile(r":(?=([A-Za-z0-9_+-]+):)")
_DIGIT_EMOJI = frozenset({"100", "1234"})
# GitHub renders the text between two "$" of a line as LaTeX math (MathJax: a name
# "$\\color{green}{PASS}$" would draw a green PASS), and a backslash before a "$" does
# not stop it; a "$" inside an HTML element of its own delimits nothing, and reads the same.
# A run of them ("$$" opens display math) shares one element: a name of many grows less.
_DOLLARS = re.compile(r"\$+")
# GitHub links a run of 7 to 40 hex digits to the commit it names ("a5c3785",
# "owner/repo@a5c3785ed8d..."), whatever escapes stand around it. A zero-width space
# after every sixth digit leaves no run that long (one after the first six alone would
# leave the rest, 34 digits, a link of its own). Digits alone are a number (a token
# count, a date), kept as written; so is a hash after "@" and a name no user or
# repository has ("booking.rules@c80e3172", a rules place: GitHub reads "user@hash" and
# "owner/repo@hash" alone).
_COMMIT = re.compile(r"(?<![A-Za-z0-9_])(?=[0-9]*[A-Fa-f])[0-9A-Fa-f]{7,}(?![A-Za-z0-9_])")
_SIX_DIGITS = re.compile(r"[0-9A-Fa-f]{6}(?=[0-9A-Fa-f])")
_BEFORE_AT = re.compile(r"([\w./-]*)@$")
_OWNER = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*(?:/[\w.-]+)?")
# A <summary> line is HTML, where Markdown and its backslash escapes are not read.
_HTML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": " ", "\r": " "})


def cell(text: object) -> str:
    """``text`` as one line of plain text in a table cell or list item."""
    text = _EMPHASIS_UNDERSCORE.sub(r"\\_", visible(str(text)).translate(_CELL))
    text = _HEADING.sub(r"\1\\#", text).lstrip(" \t")
    # A cell that starts its line (the summary's decision line starts with the primary's
    # name) starts no workflow command when printed to a CI log: "\:" reads ":".
    return log_safe(_no_mention(_LIST_MARKER.sub(_escaped_marker, text)), "\\[", "\\:")


def _escaped_marker(match: re.Match) -> str:
    """``-`` as ``\\-``, ``1.`` as ``1\\.``: the same text, starting no list."""
    marker, dot = match.groups()
    return f"{marker}\\{dot}" if dot else f"\\{marker}"


def html_line(text: object) -> str:
    """``text`` as one line of HTML text (a failure's ``<summary>``)."""
    return _no_mention(html_code(text))


def html_code(text: object) -> str:
    """``text`` as one line inside ``<code>``, where GitHub reads no mention: as written,
    so a path copied from it is the path."""
    # "&#91;" reads "[": a summary printed (-o -) may be a CI log, where "##[" starts a command
    return log_safe(visible(str(text)).translate(_HTML), "&#91;", "&#58;")


def _no_mention(text: str) -> str:
    """``text`` naming no one, linking nowhere and drawing no emoji nor math (see
    ``_MENTION``, ``_AUTOLINK``, ``_REFERENCE``, ``_EMAIL``, ``_COMMIT``, ``_SHORTCODE``, ``_DOLLARS``)."""
    text = _AUTOLINK.sub(lambda m: m.group() + "\u200b", text)
    text = _COMMIT.sub(_no_commit, text)
    text = _REFERENCE.sub(_no_reference, text)
    text = _EMAIL.sub("@\u200b", text)
    text = _DOLLARS.sub(r"<span>\g<0></span>", _SHORTCODE.sub(_no_emoji, text))
    return _MENTION.sub("@\u200b", text)


def _no_commit(match: re.Match) -> str:
    owner = _BEFORE_AT.search(match.string, max(0, match.start() - 200), match.start())
    if owner and not _OWNER.fullmatch(owner.group(1)):
        return match.group()
    return _SIX_DIGITS.sub("\\g<0>\u200b", match.group())


def _no_emoji(match: re.Match) -> str:
    name = match.group(1)
    return ":\u200b" if not name.isdigit() or name in _DIGIT_EMOJI else ":"


def _no_reference(match: re.Match) -> str:
    before = match.group(1)
    within_word = bool(before) and (before[-1].isalnum() or before[-1] == "_") and "/" not in before
    return match.group() if within_word else match.group() + "\u200b"


def code_span(text: object) -> str:
    """``text`` as inline code on one line: fenced by more backticks than any run of
    them inside, padded with a space where it starts or ends with one (CommonMark
    strips one space from each side of such a span)."""
    text = visible(str(text)).translate(_LINE_BREAKS)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
