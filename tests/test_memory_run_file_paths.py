"""A run held in memory names each file by its path in the run folder. A path no
folder could hold a file at (absolute, with a ``..`` part, empty), or two paths that
name one file (``outputs/response.md`` and ``./outputs/response.md``), is refused
with a ValueError naming it: such a file would go unread, or one of two texts would
be dropped, and ``not response contains "secret"`` would pass on a response that
says it."""

from __future__ import annotations

import pytest

import referee
from referee.engine.run.memory import memory_run
from referee.engine.run.memory_workspace import memory_workspace

RULES = 'eval 1\nexpect "no secret": not response contains "secret"\n'


@pytest.mark.parametrize("name", ["outputs/../outputs/response.md", "/outputs/response.md", "../response.md", ""])
def test_a_run_refuses_a_path_no_folder_holds(name):
    with pytest.raises(ValueError) as raised:
        memory_run({name: "the secret is out"})
    assert repr(name) in str(raised.value)


def test_a_run_refuses_two_paths_that_name_one_file():
    with pytest.raises(ValueError, match="outputs/response.md"):
        memory_run({"outputs/response.md": "clean", "./outputs/response.md": "the secret is out"})


@pytest.mark.parametrize("name", ["eval-1/with_skill/run-1/outputs/../outputs/response.md",
                                  "/eval-1/with_skill/run-1/outputs/response.md"])
def test_a_workspace_refuses_a_path_no_folder_holds(name):
    with pytest.raises(ValueError) as raised:
        memory_workspace({"eval-1/with_skill/run-1/outputs/notes.md": "x", name: "the secret is out"})
    assert repr(name) in str(raised.value)


def test_a_workspace_refuses_two_paths_that_name_one_file():
    with pytest.raises(ValueError, match="response.md"):
        memory_workspace({"eval-1/with_skill/run-1/outputs/response.md": "clean",
                          "eval-1/with_skill/run-1/./outputs/response.md": "the secret is out"})


def test_paths_written_another_way_name_the_same_files():
    (run,) = memory_workspace({"./eval-1/with_skill/run-1/outputs//response.md": "the secret is out"})
    (result,) = referee.grade(RULES, [run])
    assert result.expectations[0]["outcome"] == "fail"
    (result,) = referee.grade(RULES, [memory_run({"./outputs/response.md": "the secret is out"})])
    assert result.expectations[0]["outcome"] == "fail"
