"""Where a node of the syntax tree was written: ``Span``, and the field every node keeps it in.

Spans are left out of equality (``compare=False``): two trees are equal when they say the
same thing, wherever they were written, which is what round-trip tests compare.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from referee.dsl.frozen import frozen


@frozen
class Span:
    """1-based line and column of the first character; end is exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int
    start_pos: int = 0
    end_pos: int = 0

    def head(self, width: int) -> "Span":
        """The first ``width`` characters: where a statement's keyword stands, so a
        caret marks ``expect`` rather than the whole statement."""
        return Span(self.line, self.column, self.line, self.column + width,
                    self.start_pos, self.start_pos + width)

    def caret_end(self) -> int:
        """The exclusive end column of a diagnostic's caret under this span, which
        is drawn on the first line only: the span's end when it stays on that
        line, else one character. The one place this is decided."""
        return self.end_column if self.end_line == self.line else self.column + 1


NO_SPAN = Span(0, 0, 0, 0)


def span_field() -> Any:
    """The ``span`` field of a node: ``NO_SPAN`` unless given, not compared, not shown."""
    return field(default=NO_SPAN, compare=False, repr=False)
