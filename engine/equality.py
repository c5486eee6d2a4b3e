"""When two values of the assertion language are equal: deeply, without coercion
(numbers as Decimal, text in one form, ``checks.folding.text_form``: NFC, and folded
by ``values.fold_case`` ignoring case; ``True`` never
the number 1), and
never on JSON that could not be read (``UnreadJson``), whose value is unknown.

Two texts that differ only by invisible format characters ("Er\u200bror" and
"Error"), or by a no-break or other space where the other has a space ("10\u00a0km"
and "10 km"), look the same to a reader and are not the same as written: whether they are
equal is unknown (an ERROR), as a text test's miss is that is a hit once they are left
out, never a pass of ``!= "Error"`` on words a reader sees as "Error"."""

from __future__ import annotations

from typing import Any, Iterable

from referee.engine.checks.folding import UNSEEN, as_seen, seen_as, text_form
from referee.engine.checks.held_json import against_structure
from referee.engine.checks.letter_forms import OTHER_FORMS, OTHER_FORMS_SEEN, as_letters
from referee.engine.checks.keys import Undecided, in_nfc
from referee.engine.values import EvalError, UnreadJson, as_decimal, is_number, plain_top, render, type_name


def unread_against(unread: str, other: str) -> EvalError:
    """The ERROR of comparing JSON that could not be read with ``other`` (a value that is
    not text, as shown)."""
    return EvalError(f"{render(unread)[:60]} looks like JSON but could not be read as JSON (see the run's "
                     f"warnings), so how it compares with {other[:60]} cannot be known")


def equal(a: Any, b: Any, ignore_case: bool = False) -> bool:
    """Deep equality without coercion: numbers as Decimal, text in ``text_form`` (NFC, folded ignoring case).
    An EvalError when it rests on JSON that could not be read (``UnreadJson``) being
    some value other than text; a difference elsewhere decides it all the same."""
    found = _equal(a, b, ignore_case)
    if isinstance(found, EvalError):
        raise found
    return found


def _equal(a: Any, b: Any, ignore_case: bool) -> bool | EvalError:
    """``equal``, with the EvalError given back: False where any part differs, else
    the first unknown part's EvalError, else True."""
    a, b = plain_top(a), plain_top(b)
    if isinstance(a, UnreadJson) != isinstance(b, UnreadJson) and not (isinstance(a, str) and isinstance(b, str)):
        return unread_against(a, render(b)) if isinstance(a, UnreadJson) else unread_against(b, render(a))
    if is_number(a) and is_number(b):
        return as_decimal(a) == as_decimal(b)
    if isinstance(a, str) != isinstance(b, str) and isinstance(a if isinstance(b, str) else b, (dict, list)):
        return _held_against(a, b) if isinstance(a, str) else _held_against(b, a)
    if isinstance(a, str) and isinstance(b, str):
        return a == b or text_form(a, ignore_case) == text_form(b, ignore_case) or _unseen(a, b, ignore_case)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and _all_equal(zip(a, b), ignore_case)
    if isinstance(a, dict) and isinstance(b, dict):
        return _objects_equal(a, b, ignore_case)
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return type(a) is type(b) and a == b
    return False


def _held_against(text: str, structure: Any) -> bool | EvalError:
    """False for a text against an object or a list; an EvalError when the text is JSON
    written as a string (``checks.held_json``), which a program reads as a structure."""
    try:
        against_structure(text, structure, "whether it equals")
    except EvalError as err:
        return err
    return False


def _unseen(a: str, b: str, ignore_case: bool) -> bool | EvalError:
    """False for two texts that differ (``a`` and ``b``, not equal as written); an
    EvalError when they are equal once their invisible format characters are left out."""
    if a.isascii() and b.isascii():  # every such character lies outside ASCII
        return False
    seen_a, seen_b = as_letters(as_seen(a)), as_letters(as_seen(b))  # ＡＰＩ is API too
    if (seen_a, seen_b) == (a, b) or text_form(seen_a, ignore_case) != text_form(seen_b, ignore_case):
        return False
    unseen = UNSEEN.search(a + b) or OTHER_FORMS.search(a + b)  # one of them holds such a character
    assert unseen is not None
    why = seen_as(unseen.group()) if UNSEEN.match(unseen.group()) else OTHER_FORMS_SEEN
    return EvalError(f"{render(a)[:60]} and {render(b)[:60]} are equal only with their {why} "
                     f"(the first, U+{ord(unseen.group()):04X}): a reader sees the same words, so whether they "
                     "are equal cannot be decided")


def _objects_equal(a: dict, b: dict, ignore_case: bool) -> bool | EvalError:
    """Objects are equal when their keys are the same in NFC, each with an equal value;
    unknown where one holds a key twice (equal in NFC) with different values."""
    a, b = in_nfc(a), in_nfc(b)
    return a.keys() == b.keys() and _all_equal(((a[k], b[k]) for k in a), ignore_case)


def _all_equal(pairs: Iterable[tuple[Any, Any]], ignore_case: bool) -> bool | EvalError:
    unknown: EvalError | None = None
    for x, y in pairs:
        undecided = x if isinstance(x, Undecided) else y if isinstance(y, Undecided) else None
        found = _equal(x, y, ignore_case) if undecided is None else undecided.error
        if found is False:
            return False
        if isinstance(found, EvalError) and unknown is None:
            unknown = found
    return True if unknown is None else unknown


def mismatch_hint(a: Any, b: Any) -> str:
    """Why two values of different types are not equal, and what to write instead."""
    ta, tb = type_name(a), type_name(b)
    if {ta, tb} == {"text", "number"}:
        text, num = (a, b) if ta == "text" else (b, a)
        return f"text '{text}' vs number {render(num)}; use number(...)"
    if ta != tb:
        return f"{ta} vs {tb}"
    return ""
