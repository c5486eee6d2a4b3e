"""Letters and digits written in another form of the same letter: fullwidth (``ＡＰＩ``,
as Japanese and Chinese text writes Latin letters among its own) and mathematical
(``𝐖𝐀𝐑𝐍𝐈𝐍𝐆``, bold or italic letters that replies use where no markup is shown).

A reader reads ``ＡＰＩキー`` as "API key" and ``𝐃𝐞𝐥𝐞𝐭𝐞𝐝`` as "Deleted"; the text as
written holds neither word, so ``not (response contains "API")`` would pass. A miss
that is a hit with such characters read as the letters they are is an ERROR naming the
first and its line. Each character is one character either way (Unicode's
compatibility decomposition of these blocks), so places in the text stand.
"""

from __future__ import annotations

import unicodedata
from typing import Callable

import regex

from referee.engine.values import EvalError, Val

# Fullwidth ASCII (U+FF01-U+FF5E) and the Mathematical Alphanumeric Symbols block
OTHER_FORMS = regex.compile(r"[\uFF01-\uFF5E\U0001D400-\U0001D7FF]")
OTHER_FORMS_SEEN = "letters of another form read as the letters they are"


def as_letters(text: str) -> str:
    """``text`` with each such character as the letter, digit or sign it is a form of."""
    if text.isascii():
        return text
    return OTHER_FORMS.sub(_plain, text)


def _plain(found: regex.Match) -> str:
    plain = unicodedata.normalize("NFKC", found.group())
    return plain if len(plain) == 1 else found.group()


def not_other_forms(subject: Val, verb: str, shown: str, holds: Callable[[str], bool]) -> None:
    """Raise when a miss of ``shown`` in ``subject`` is a hit (``holds``) in ``as_letters``
    of the text: which of the two the text says cannot be told."""
    text = subject.value
    if not isinstance(text, str) or text.isascii():
        return
    other = OTHER_FORMS.search(text)
    if other is None or not holds(as_letters(text)):
        return
    from referee.engine.checks.markdown_seen import place_in  # not at the top: equality imports this module

    raise EvalError(f"{subject.label} {verb} {shown} only with its {OTHER_FORMS_SEEN} (the first, "
                    f"{other.group()}, U+{ord(other.group()):04X}, at {place_in(subject, other.start())}): a reader "
                    "sees what the text as written does not hold, so it cannot be decided")
