"""Text of a run cut to a bound, saying so where it is cut.

A grading.json that ``grade`` wrote holds evidence of a few thousand characters at
most, but a report reads any grading.json whose counts agree, and one that another
version or tool wrote may hold megabytes in one value: an annotation or a JUnit
message of that size is cut by the CI server, silently, or makes the file too large
to upload. Each format cuts at its own bound and says in the text that it did.
"""

from __future__ import annotations


def cut(text: str, limit: int, whole: str) -> str:
    """``text``, or its first ``limit`` characters and a line that says it was cut and
    where it is ``whole`` (``"grading.json holds it whole"``)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}…\n(cut at {limit:,} of {len(text):,} characters: {whole})"


def cut_line(text: str, limit: int) -> str:
    """``text`` that stands in one line (a title, a name): its first ``limit`` characters
    and an ellipsis, when it is longer."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
