"""The name that marks a report file as referee's own.

A module of its own, so that what only needs the name (grading, writing, the
decision's collector) does not load pydantic and the report models with it.
"""

from __future__ import annotations

from typing import Final

GRADER_NAME: Final = "referee"
