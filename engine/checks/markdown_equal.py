"""``==``, ``!=`` and ``in`` over Markdown texts as their reader sees them: ``**Done**``
and ``Done`` are the same words shown, and so are ``All done. <!-- x -->`` and ``All
done.``; whether they are equal cannot be decided (``markdown_seen``)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from referee.engine.checks.blank_ends import not_equal_at_ends
from referee.engine.checks.folding import as_seen, text_form
from referee.engine.checks.markdown_seen import HIDING, SHOWN_AS, Shown, markup_of, may_join, place_in, shown_form
from referee.engine.values import EvalError, Val, render, short


def not_equal_as_shown(left: Val, right: Val, ignore_case: bool) -> None:
    """Raise when two texts that differ as written (``==`` is false) are the same as
    their reader sees them, a Markdown text as shown (``**Done**`` and ``Done``, ``All
    done. <!-- x -->`` and ``All done.``): whether they are equal cannot be decided.
    The lines of a paragraph are joined (``markdown_breaks``), and its blanks shown as
    one space, only when the other side holds a space: else no soft line break or run of
    blanks can be what the two differ by."""
    one, other = left.value, right.value
    if not (isinstance(one, str) and isinstance(other, str)):
        return
    not_equal_at_ends(left, right, ignore_case)
    _not_equal(left, right, ignore_case, False)
    if (may_join(one) and " " in other) or (may_join(other) and " " in one):
        _not_equal(left, right, ignore_case, True)


def _not_equal(left: Val, right: Val, ignore_case: bool, joined: bool) -> None:
    sides = [(side, _form(side, joined)) for side in (left, right)]
    marked = [(side, found) for side, found in sides if found is not None]
    if not marked or (joined and not any(kind in found.kind for _, found in marked for kind in SHOWN_AS)):
        return
    seen = [compared(found) if found is not None else as_seen(side.value) for side, found in sides]
    if text_form(seen[0], ignore_case) != text_form(seen[1], ignore_case):
        return
    side, form = marked[0]
    raise EvalError(f"{short(render(left.value), 60)} and {short(render(right.value), 60)} are equal only as "
                    f"{markup_of(side.prov)} is shown ({_cited(side, form)}): a reader sees the same words, so "
                    "whether they are equal cannot be decided")


def _form(side: Val, joined: bool) -> Shown | None:
    """``side`` as shown, its soft line breaks joined when ``joined`` and it holds one."""
    return (shown_form(side, True) if joined else None) or shown_form(side)


def _cited(side: Val, form: Shown) -> str:
    """The markup an ERROR about ``side`` names: its first hidden place, else its first
    soft line break, else its first blanks shown as one space, else its first markup."""
    hidden = [i for i, kind in enumerate(form.kind) if kind in HIDING]
    joins = [i for shown in SHOWN_AS for i, kind in enumerate(form.kind) if kind == shown]
    if hidden:
        piece, what = hidden[0], HIDING[form.kind[hidden[0]]]
    elif joins:
        return f"{SHOWN_AS[form.kind[joins[0]]]}, at {place_in(side, form.start[joins[0]])}"
    else:
        piece, what = 0, "the first markup"
    markup = side.value[form.start[piece]:form.end[piece]]
    return f"{what}, {short(render(markup), 40)}, at {place_in(side, form.start[piece])}"


def compared(form: Shown) -> str:
    """The text shown as ``==`` compares it: the blank around hidden places shows once,
    the piece of it between two places (or a place and the blank's end) holding the
    most line breaks (else the longest, else the first), and none at the text's start
    or end, where a reader sees no blank (``All done. <!-- x -->`` shows ``All
    done.``). Only a text holding ``<`` has a hidden place."""
    text, shown, last = form.text, [], 0
    for begin, end, places in _blanks_with_places(text, form):
        pieces = [text[left:right] for left, right in pairwise((begin, *places, end))]
        if begin == 0 or end == len(text):
            kept = pieces[0] if begin == 0 else pieces[-1]  # the outer blank: the text's own
        else:
            kept = max(pieces, key=lambda blank: (blank.count("\n"), len(blank)))
        shown += [text[last:begin], kept]
        last = end
    return "".join(shown) + text[last:]


def _blanks_with_places(text: str, form: Shown) -> Iterator[tuple[int, int, list[int]]]:
    """Each run of blanks of ``text`` that a hidden place of ``form`` touches, with those
    places in order: read once, however many places one run holds."""
    run: tuple[int, int, list[int]] | None = None
    for at in sorted({at for at, kind in zip(form.at, form.kind) if kind in HIDING}):
        if run is not None and at <= run[1]:
            run[2].append(at)
            continue
        if run is not None:
            yield run
        run = (_blank_before(text, at), _blank_after(text, at), [at])
    if run is not None:
        yield run


def _blank_before(text: str, at: int) -> int:
    while at > 0 and text[at - 1].isspace():
        at -= 1
    return at


def _blank_after(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def shown_text(val: Val, joined: bool = False) -> str | None:
    """The text value ``val`` as shown and compared (``compared``), when it is Markdown
    holding markup that shows otherwise than it is written (``joined``: or a soft line
    break, its lines joined); else None (a value read as written)."""
    form = _form(val, joined)
    return compared(form) if form is not None else None
