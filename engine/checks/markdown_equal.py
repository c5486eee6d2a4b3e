"""``==``, ``!=`` and ``in`` over Markdown texts as their reader sees them: ``**Done**``
and ``Done`` are the same words shown, and so are ``All done. <!-- x -->`` and ``All
done.``; whether they are equal cannot be decided (``markdown_seen``)."""

from __future__ import annotations

from referee.engine.checks.folding import as_seen, text_form
from referee.engine.checks.markdown_seen import HIDING, Shown, place_in, shown_form
from referee.engine.values import EvalError, Val, render, short


def not_equal_as_shown(left: Val, right: Val, ignore_case: bool) -> None:
    """Raise when two texts that differ as written (``==`` is false) are the same as
    their reader sees them, a Markdown text as shown (``**Done**`` and ``Done``, ``All
    done. <!-- x -->`` and ``All done.``): whether they are equal cannot be decided."""
    sides = [(side, shown_form(side)) for side in (left, right)]
    marked = [(side, found) for side, found in sides if found is not None]
    if not marked or not all(isinstance(side.value, str) for side, _ in sides):
        return
    seen = [compared(found) if found is not None else as_seen(side.value) for side, found in sides]
    if text_form(seen[0], ignore_case) != text_form(seen[1], ignore_case):
        return
    side, form = marked[0]
    raise EvalError(f"{short(render(left.value), 60)} and {short(render(right.value), 60)} are equal only as "
                    f"Markdown is shown ({_cited(side, form)}): a reader sees the same words, so whether they "
                    "are equal cannot be decided")


def _cited(side: Val, form: Shown) -> str:
    """The markup an ERROR about ``side`` names: its first hidden place, else its first markup."""
    hidden = [i for i, kind in enumerate(form.kind) if kind in HIDING]
    piece = hidden[0] if hidden else 0
    what = HIDING[form.kind[piece]] if hidden else "the first markup"
    markup = side.value[form.start[piece]:form.end[piece]]
    return f"{what}, {short(render(markup), 40)}, at {place_in(side, form.start[piece])}"


def compared(form: Shown) -> str:
    """The text shown as ``==`` compares it: the blank on either side of a hidden place
    shows once, the one holding more line breaks (else the longer), and none at the
    text's start or end, where a reader sees no blank (``All done. <!-- x -->`` shows
    ``All done.``). Only a text holding ``<`` has a hidden place."""
    text = form.text
    places = {at for at, kind in zip(form.at, form.kind) if kind in HIDING}
    for at in sorted(places, reverse=True):
        begin, end = _blank_before(text, at), _blank_after(text, at)
        before, after = text[begin:at], text[at:end]
        if begin == 0 or end == len(text):
            kept = before if begin == 0 else after  # the outer blank: the text's own
        else:
            kept = max(before, after, key=lambda blank: (blank.count("\n"), len(blank)))
        text = text[:begin] + kept + text[end:]
    return text


def _blank_before(text: str, at: int) -> int:
    while at > 0 and text[at - 1].isspace():
        at -= 1
    return at


def _blank_after(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def shown_text(val: Val) -> str | None:
    """The text value ``val`` as shown and compared (``compared``), when it is Markdown
    holding markup that shows otherwise than it is written; else None (a value read as
    written)."""
    form = shown_form(val)
    return compared(form) if form is not None else None
