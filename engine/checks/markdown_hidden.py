"""What no reader of a Markdown (or HTML) text sees: its HTML comments, tags and the
elements that hide what they hold (``markdown_seen.HIDING``), left out, so that a hit
only there is known for one a reader does not grant."""

from __future__ import annotations

from bisect import bisect_right

from referee.dsl.frozen import frozen
from referee.engine.checks.folding import kept_form
from referee.engine.checks.markdown_marks import marks
from referee.engine.checks.markdown_seen import HIDING


@frozen
class Hidden:
    """A Markdown text with what no reader of it sees left out (``HIDING``: HTML comments
    and tags outside code), and each piece left out: where it starts and ends in the text
    as written, and what it is."""

    text: str
    start: tuple[int, ...]
    end: tuple[int, ...]
    kind: tuple[str, ...]

    def piece_near(self, offset: int) -> int:
        """The index of the first piece that ends after ``offset`` of the text as written
        (the one holding it, or the next), else the last: where a hit there is hidden."""
        return min(bisect_right(self.end, offset), len(self.end) - 1)

    def place_of(self, piece: int, offset: int) -> int:
        """Where to cite piece ``piece`` for a hit at ``offset``: there, when the piece holds
        it (a comment over lines is cited at the line of the words), else where it starts."""
        return offset if self.start[piece] <= offset < self.end[piece] else self.start[piece]

    def named(self, piece: int) -> str:
        return HIDING[self.kind[piece]]


def hidden_in_markdown(text: str, html: bool = False) -> Hidden | None:
    """``text`` (Markdown; ``html``: HTML) without its HTML comments and tags, None when it
    holds none. Only a text holding ``<`` is read: no comment or tag starts otherwise."""
    if "<" not in text:
        return None
    form = kept_form("html hidden" if html else "markdown hidden", text,
                     _html_without_hidden if html else _without_hidden)
    return form if form.start else None


def _html_without_hidden(text: str) -> Hidden:
    return _without_hidden(text, True)


def _without_hidden(text: str, html: bool = False) -> Hidden:
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    kinds: list[str] = []
    at = 0
    for begin, stop, _, kind in marks(text, html=html):
        if kind in HIDING:
            pieces.append(text[at:begin])
            starts.append(begin)
            ends.append(stop)
            kinds.append(kind)
            at = stop
    pieces.append(text[at:])
    return Hidden("".join(pieces), tuple(starts), tuple(ends), tuple(kinds))
