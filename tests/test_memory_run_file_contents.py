"""A run held in memory holds each file as text or bytes. Any bytes-like content
(bytearray, memoryview) is its bytes; anything else (None, a number, a dict) is a
TypeError naming the file when the run is built, never an error from deep inside
the grade."""

from __future__ import annotations

import pytest

import referee
from referee.engine.run.memory import memory_run
from referee.engine.run.memory_workspace import memory_workspace

RULES = 'eval 1\nexpect "no secret": not response contains "secret"\n'


@pytest.mark.parametrize("content", [b"the secret", bytearray(b"the secret"), memoryview(b"the secret"), "the secret"])
def test_text_and_bytes_like_contents_are_read(content):
    (result,) = referee.grade(RULES, [memory_run({"outputs/response.md": content})])
    assert result.expectations[0]["outcome"] == "fail"


@pytest.mark.parametrize("content", [None, 5, {"a": 1}, ["the secret"]])
def test_other_contents_are_a_type_error_naming_the_file(content):
    with pytest.raises(TypeError, match="outputs/response.md"):
        memory_run({"outputs/response.md": content})
    with pytest.raises(TypeError, match="outputs/response.md"):
        memory_workspace({"eval-1/with_skill/run-1/outputs/response.md": content})
