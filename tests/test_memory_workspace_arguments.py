"""``memory_workspace`` as a library user calls it: files not given as a mapping, or
response files not given as ``response_files(...)`` (a bare path, say), are a
TypeError that says what to give, never an AttributeError from inside."""

from __future__ import annotations

import pytest

from referee.engine.run.memory_workspace import memory_workspace
from referee.engine.run.reading import response_files

HELD = {"eval-1/with_skill/run-1/outputs/response.md": "done\n", "eval-1/with_skill/run-1/outputs/a.md": "x\n"}


def test_response_files_given_as_a_path_are_a_type_error():
    with pytest.raises(TypeError, match="response_files"):
        memory_workspace(HELD, "outputs/a.md")  # type: ignore[arg-type]


def test_files_given_as_pairs_are_a_type_error():
    with pytest.raises(TypeError, match="mapping"):
        memory_workspace(list(HELD.items()))  # type: ignore[arg-type]


def test_response_files_name_the_response():
    (run,) = memory_workspace(HELD, response_files("outputs/a.md"))
    assert run.response is not None and run.response.path.endswith("a.md")
