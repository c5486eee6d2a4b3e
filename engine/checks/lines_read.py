"""A file's lines, split only as far as they are asked for.

A hit's evidence names the file line that holds it (``checks.text._file_line``),
which reads the lines from the value's own line to a few past its end. Splitting a
whole 50 KB transcript into lines for a hit on its 40th line made one check of a
run cost more than the run's other nineteen; here the lines are split from the
start up to the furthest line any check of the run has asked for, and no further.
They are the lines ``engine.text.file_lines`` gives, which stays the reference.
"""

from __future__ import annotations


class LinesRead:
    """The lines of ``text`` as ``engine.text.file_lines`` counts them, split on demand."""

    __slots__ = ("_lines", "_rest")

    def __init__(self, text: str):
        if "\r" in text:  # the line ends file_lines counts, made one kind before splitting
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self._lines: list[str] = []
        self._rest: str | None = text  # the text after the lines split so far; None: all split

    def upto(self, count: int) -> list[str]:
        """The first ``count`` lines, or all of them when the file has fewer.

        The list returned is the one kept (it only grows): read it, never change it."""
        lines, rest = self._lines, self._rest
        if len(lines) >= count or rest is None:
            return lines
        wanted = count - len(lines)
        parts = rest.split("\n", wanted)
        if len(parts) > wanted:  # the last part is the text not yet split
            self._rest = parts.pop()
            lines.extend(parts)
            return lines
        self._rest = None
        lines.extend(parts)
        if lines[-1] == "":  # the text ends with a line end, which ends a line and starts none
            lines.pop()
        return lines
