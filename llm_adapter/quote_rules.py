"""The rules that refuse a quote whose sense the text around it undoes, for ``quotes``.

A quote, and each part of an elided one, cannot start right after a negation ("not",
"never", "isn't" ...), nor after the words that carry one on ("not been", "not yet"):
"confirmed" quoted from "was not confirmed" or "has not been confirmed" says the opposite.
So does "send the email" quoted from "failed to send the email" or "unable to send the
email", "confirmed" from "non-confirmed" or from "not \"confirmed\"", and "bookings
confirmed" from "0 bookings confirmed", and "Tests pass" from "- [ ] Tests pass" or
"❌ Tests pass".

A quote, and each part of an elided one, that ends at a field's name (``"available"`` or
``"available":`` from ``"available": false``, ``passed`` from a YAML ``passed: false``)
leaves its value out, which may say the opposite: it proves nothing, and is reported as
such (``Match.field_name``).
"""

from __future__ import annotations

import re
import unicodedata

from referee.llm_adapter.clusters import NUMBER_GLUE, invisible, signlike

# What a reader takes for the apostrophe of "isn't" (NFKC makes the full-width one "'").
WORD_APOSTROPHES = frozenset("'\u2019\uff07\u02bc")
# Words that negate what follows them: a quote that starts right after one leaves it out.
NEGATIONS = frozenset("not no never cannot without nor neither none nothing nobody nowhere zero".split())
# Words between a negation and what it negates, which carry it on: "not been confirmed",
# "not yet confirmed", "no longer valid" say "not confirmed", "not valid".
CARRIERS = frozenset("""be been being have has had yet ever even fully really actually always quite entirely
completely properly correctly successfully still longer""".split())
MAX_CARRIERS = 3  # "hasn't yet been fully confirmed": a few words, read back from the quote
# Words that say the act after their "to" did not happen: "failed to send the email",
# "unable to retrieve any news" say it was not sent, not retrieved.
FAILED_TO = frozenset("""fail fails failed failing unable refused refuses declined declines forgot forgets
neglected impossible""".split())
# Words before a "to" that carry a negation on to the act after it: "not able to send",
# "did not manage to send".
TO_CARRIERS = frozenset("able manage managed".split())
# Marks that say the line after them is not done: a cross, a "no entry" sign, an empty
# ballot box ("❌ Unit tests pass", "☐ Docs updated"); a Markdown task list's "[ ]" too.
NOT_DONE = frozenset("\u2717\u2718\u2715\u2716\u274c\u274e\u2610\u26d4\U0001f6ab")
# Prefixes that negate the word they are joined to by a hyphen: "non-compliant", "un-confirmed".
NEGATING_PREFIXES = frozenset("non un not no".split())
# Markdown emphasis and code marks: "**not** confirmed" and "not *confirmed*" read
# "not confirmed", so they neither end a negation's reach nor hide the negation.
EMPHASIS = frozenset("*_`")


def after_negation(text: str, start: int) -> bool:
    """Whether ``text[start:]`` follows a negation across nothing but spaces ("was not
    confirmed", "isn't confirmed"), or across words that carry it (``CARRIERS``: "not
    been confirmed", "not yet confirmed"): "confirmed" quoted from there says the
    opposite of the text, as "500" quoted from "-500" does. Punctuation between them
    ("No, it is confirmed") or any other word ends the negation's reach; Markdown
    emphasis ("**not** confirmed", "not *confirmed*") does not, as a reader of the
    rendered text sees, nor do quotation marks and brackets ("not \"confirmed\"",
    "not (yet) confirmed"). A "to" after a word that says the act failed ("failed to",
    "unable to": ``FAILED_TO``) negates as "not" does, a negating prefix joined by a
    hyphen ("non-confirmed") too, and so does a count of none ("0 bookings confirmed")
    or a mark that says the line is not done ("- [ ] Tests pass", "❌ Tests pass")."""
    if _negating_prefix(text, start) or _count_of_none(text, start) or _marked_not_done(text, start):
        return True
    at = start
    for _ in range(MAX_CARRIERS + 1):
        word, at = word_before(text, at)
        if word in NEGATIONS or word.endswith("n't"):
            return True
        if word == "to":
            word, at = word_before(text, at)
            if word in FAILED_TO:
                return True
            if word not in TO_CARRIERS:
                return False
        elif word not in CARRIERS:
            return False
    return False


def _negating_prefix(text: str, start: int) -> bool:
    """Whether ``text[start:]`` is joined by a hyphen to a negating prefix: "confirmed"
    quoted from "non-confirmed" or "un-confirmed"."""
    if start < 2 or not signlike(text[start - 1]):
        return False
    i = start - 1
    while i > 0 and text[i - 1].isalpha():
        i -= 1
    return as_read(text[i:start - 1]) in NEGATING_PREFIXES and (i == 0 or not text[i - 1].isalnum())


def _marked_not_done(text: str, start: int) -> bool:
    """Whether ``text[start:]`` follows a mark that says it is not done (``NOT_DONE``,
    an emoji's variation selector after it, or an unchecked "[ ]" of a task list),
    across spaces and emphasis only."""
    i = start - 1
    while i >= 0 and (text[i].isspace() or invisible(text[i]) or text[i] in EMPHASIS
                      or text[i] in "\ufe0e\ufe0f"):
        i -= 1
    if i < 0:
        return False
    return text[i] in NOT_DONE or (text[i] == "]" and text[max(i - 2, 0):i + 1] == "[ ]")


def _count_of_none(text: str, start: int) -> bool:
    """Whether ``text[start:]`` follows a count of none written in digits ("0 bookings
    confirmed", "00"), a number of its own: not the end of "2.0" or "10"."""
    i = start - 1
    while i >= 0 and (text[i].isspace() or invisible(text[i]) or text[i] in EMPHASIS):
        i -= 1
    if i == start - 1 or i < 0 or text[i] != "0":
        return False
    while i > 0 and text[i - 1] == "0":
        i -= 1
    return i == 0 or not (text[i - 1].isalnum() or text[i - 1] in NUMBER_GLUE or signlike(text[i - 1]))


def word_before(text: str, start: int) -> tuple[str, int]:
    """The word before ``text[start]`` across spaces and emphasis marks, as read, and
    where it starts; "" when something else comes first (nothing, punctuation, or a
    word ``start`` lies inside). Quotation marks and brackets are read through, as
    spaces are: "not \"confirmed\"" and "not (yet) confirmed" say "not confirmed"."""
    i = start - 1
    while i >= 0 and (text[i].isspace() or invisible(text[i]) or text[i] in EMPHASIS or enclosing(text[i])):
        i -= 1
    if i == start - 1:  # nothing before, punctuation, or a word it starts inside
        return "", start
    end = i + 1
    while i >= 0 and (text[i].isalpha() or text[i] in WORD_APOSTROPHES or invisible(text[i])):
        i -= 1
    return as_read(text[i + 1:end]), i + 1


def enclosing(ch: str) -> bool:
    """A quotation mark or a bracket, which encloses words without ending a sentence."""
    return ch in "\"'" or unicodedata.category(ch) in ("Pi", "Pf", "Ps", "Pe")


def as_read(word: str) -> str:
    """``word`` as a reader takes it, lower case: "ｎｏｔ", "𝐧𝐨𝐭" and "n<zero-width
    space>ot" read "not", and "isn＇t" and "isnʼt" read "isn't"."""
    read = "".join(ch for ch in unicodedata.normalize("NFKC", word) if not invisible(ch))
    return "".join("'" if ch in WORD_APOSTROPHES else ch for ch in read).lower()


KEY_QUOTES = "\"'"
YAML_WORD = re.compile(r"[^\W\d][\w.-]*")  # a field's name of one word: passed, tests_passed, email-sent
YAML_PHRASE = re.compile(r"[^\W\d][\w .-]*[\w]")  # a name of a few words: "all tests passed"
YAML_SCALARS = frozenset("true false yes no on off null none ~ y n".split())
KEY_REACH = 400  # characters read either side of a colon for a YAML name and its value
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def ends_at_a_key(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ends at a field's name, or at the separator after it,
    and leaves its value out: ``"available"`` or ``"available":`` quoted from
    ``"available": false``, ``captured`` from ``captured=false``. The value may say the
    opposite of the name, so the quote proves nothing. A field's name is a quoted key
    before its colon, a name before a single "=", or a YAML key (``passed: false``:
    ``_yaml_key``); a phrase before a colon in prose ("Booking confirmed: LX2084") is a
    label, and stays found."""
    i = end
    while i > start and text[i - 1] in " \t":
        i -= 1
    if i > start and text[i - 1] in ":=":  # the quote took the separator too
        at = i - 1
    else:
        at = end + 1 if text[end:end + 1] == "\\" else end  # a key escaped in a string: \"available\"
        at += 1 if text[at:at + 1] and text[at] in KEY_QUOTES else 0
        while at < len(text) and text[at] in " \t":
            at += 1
        if at >= len(text) or text[at] not in ":=":
            return False
    if text[at + 1:at + 2] in (":", "="):  # "==", "::", ":=": no field
        return False
    before = at - 1
    while before >= 0 and text[before] in " \t":
        before -= 1
    if before >= 0 and text[before] in KEY_QUOTES:
        return True
    if text[at] == ":":
        return _yaml_key(text, at)
    return text[at] == "=" and before >= 0 and (text[before].isalnum() or text[before] == "_") \
        and (at == 0 or text[at - 1] != "=")


def _yaml_key(text: str, at: int) -> bool:
    """Whether the ":" at ``text[at]`` ends a YAML field's name (``passed: false``,
    ``- email_sent: no``, ``{sent: false}``): a space and a value after it on its line, the
    name opening its line (after indentation and a list's "- ") or following a flow
    mapping's "{" or ","; and the name one word, or its value a scalar that may undo it
    (false, no, null, a number). A phrase before a colon in prose ("Booking confirmed:
    LX2084") is a label."""
    if text[at + 1:at + 2] not in ("", " ", "\t", "\r", "\n"):
        return False
    floor = max(0, at - KEY_REACH)  # a name and its value are short: a long line is read in part
    newline = text.rfind("\n", floor, at)
    head = text[newline + 1 if newline >= 0 else floor:at]
    if "{" in head:
        head = re.split(r"[{,]", head)[-1]
    elif newline < 0 and floor > 0:
        return False  # its line starts beyond reach: the name does not open it
    name = re.sub(r"^\s*(?:-\s+)*", "", head)
    line_end = text.find("\n", at, at + KEY_REACH)
    value = text[at + 1:at + KEY_REACH if line_end < 0 else line_end].split(" #")[0].strip().rstrip(",}").strip()
    if not value:  # a block below it ("CONFUSION:" over its list): a heading more than a field
        return False
    if YAML_WORD.fullmatch(name):
        return True
    scalar = value.lower() in YAML_SCALARS or NUMBER.fullmatch(value) is not None
    return scalar and YAML_PHRASE.fullmatch(name) is not None
