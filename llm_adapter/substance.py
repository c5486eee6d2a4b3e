"""Whether a quote is long and specific enough to prove anything.

A grader can quote "o", "the", "Tool:" or a heading line, and each of those is
somewhere in every run. Such a quote is counted as no quote at all.

The rule: set aside the parts of the quote that say nothing about this run, that is
heading lines, the transcript's field labels (``Tool:``, ``Args:``, ``Return:``,
``Status:``, ``Step N:``, ``[tool_calls]``, ``[agent_notes]``), common English words
("the", "is", "was" ...) and generic status words ("success", "error", "true",
"null" ...). What remains must hold at least ``MIN_CHARS`` letters and digits (a Han
character or kana counts as two, being a word more than a letter), or one
identifier of at least ``MIN_ID`` characters that mixes letters and digits
(``LX2084``, ``a1b2c3d4``). Punctuation and symbols do not count.

So "Your draft is saved." (draft + saved: 10) and "LX2084" prove something;
"the", "Tool: ", "Status: success", "168.00" (5 digits) and "## [tool_calls] Step 1:
search" do not. The rule measures specificity, not relevance: whether the quote
supports the expectation is still the grader's claim, checked only as far as the
quote exists where it says.
"""

from __future__ import annotations

import re
import unicodedata

MIN_CHARS = 8
MIN_ID = 5
HEADING_LINE = re.compile(r"^ {0,3}#{1,6}(?:[ \t].*)?$", re.MULTILINE)
LABELS = re.compile(r"\[\s*(?:tool[_ -]?calls|agent[_ -]?notes)\s*\]|\bstep\s+\d+\s*:"
                    r"|\b(?:tool|args|arguments|return|returns|result|status)\s*:",
                    re.IGNORECASE)
TOKEN = re.compile(r"[^\W_]+")
STOP_WORDS = frozenset("""
a an the and or but nor of to in on at by for with from into onto as is are was were be
been being am it its it's this that these those there here then than so if not no yes i
me my we our you your he him his she her they them their what which who whom whose do
does did done has have had having will would shall should can could may might must
very just also too all any some each every such only own same other out up down over
under again about after before while when where why how s t
""".split())
GENERIC = frozenset("""
success successful succeeded ok okay error errors failed failure fail pass passed true
false null none nil undefined nan yes no done complete completed tool tools call calls
args arguments return returned result results status step steps response output outputs
""".split())


def _weight(token: str) -> int:
    return sum(2 if _no_space_script(ch) else 1 for ch in token)


def _no_space_script(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA"))


def _identifier(token: str) -> bool:
    return len(token) >= MIN_ID and any(c.isdigit() for c in token) \
        and sum(c.isalpha() for c in token) >= 1


def as_read(text: str) -> str:
    """``text`` as a reader (and the loose match) takes it: after NFKC, so full-width
    and mathematical letters are plain ones, and without invisible characters."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch) != "Cf")


def content(quote: str) -> list[str]:
    """The tokens of ``quote`` that say something about this run. The quote is read as
    the loose match reads it (NFKC), and invisible characters are dropped: "Status:
    success" in full-width letters is the "Status: success" a loose match finds."""
    text = HEADING_LINE.sub(" ", as_read(quote))
    text = LABELS.sub(" ", text)
    return [t for t in TOKEN.findall(text) if t.lower() not in STOP_WORDS
            and t.lower() not in GENERIC]


def trivial(quote: str) -> bool:
    """Whether ``quote`` is too short or too generic to prove anything."""
    tokens = content(quote)
    if any(_identifier(t) for t in tokens):
        return False
    return sum(_weight(t) for t in tokens) < MIN_CHARS


RULE = (f"a quote must hold at least {MIN_CHARS} letters or digits, or an identifier such as "
        "LX2084, besides headings, field labels, common words and status words")
