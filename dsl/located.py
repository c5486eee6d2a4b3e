"""Where a parsed fragment of a rules file stands in the whole text, and the
diagnostics recorded at its tokens."""

from __future__ import annotations

from typing import Any

from referee.dsl import ast
from referee.dsl.errors import Diagnostic, line_of


class Located:
    """Positions of one parsed fragment inside the whole text.

    A fragment always starts at the beginning of a line of the whole text, so only
    lines and offsets shift; columns stay as Lark reports them."""

    def __init__(self, text: str, path: str, line_offset: int = 0, pos_offset: int = 0):
        self.text, self.path = text, path
        self.line_offset, self.pos_offset = line_offset, pos_offset
        self.diagnostics: list[Diagnostic] = []

    def span(self, meta: Any) -> ast.Span:
        """The absolute span of a rule's meta or of a token."""
        if getattr(meta, "empty", False):
            return ast.NO_SPAN
        return ast.Span(
            meta.line + self.line_offset, meta.column,
            meta.end_line + self.line_offset, meta.end_column,
            meta.start_pos + self.pos_offset, meta.end_pos + self.pos_offset,
        )

    def error(self, code: str, message: str, where: Any, hint: str | None = None) -> None:
        """Record a diagnostic at a token or rule meta (or a Span)."""
        span = where if isinstance(where, ast.Span) else self.span(where)
        end = span.caret_end()
        self.diagnostics.append(Diagnostic(
            code, message, self.path, span.line, span.column, end, hint,
            line_of(self.text, span.line),
        ))
