"""The names that mark a report file as referee's own: the files' names, and the
``grader.name`` written into each.

A module of its own, so that what only needs the names (grading, writing, the
decision's collector) does not load pydantic and the report models with it.
"""

from __future__ import annotations

from typing import Final

GRADER_NAME: Final = "referee"
GRADING: Final = "grading.json"
GROUND_TRUTH: Final = "ground_truth.json"
