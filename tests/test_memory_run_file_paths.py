"""A run held in memory names each file by its path in the run folder. A path no
folder could hold a file at (absolute, with a ``..`` part, empty), or two paths that
name one file (``outputs/response.md`` and ``./outputs/response.md``), is refused
with a ValueError naming it: such a file would go unread, or one of two texts would
be dropped, and ``not response contains "secret"`` would pass on a response that
says it."""

from __future__ import annotations

import json

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


def test_a_path_that_is_not_a_str_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="files: a file's path is a str, not int: 1"):
        memory_run({1: "the secret is out"})


@pytest.mark.parametrize("name", ["outputs/a\0b.md"])
def test_a_path_no_file_system_holds_is_refused(name):
    with pytest.raises(ValueError) as raised:
        memory_run({name: "the secret is out"})
    assert repr(name) in str(raised.value)


@pytest.mark.parametrize("argument, value", [
    ("run_number", -1), ("run_number", 10**9), ("eval_id", "a/b"), ("eval_id", ""), ("configuration", ".."),
    ("configuration", "x\0"), ("eval_name", "a/b"), ("rel", "a\0b")])
def test_an_identity_no_run_folder_has_is_a_value_error_naming_it(argument, value):
    with pytest.raises(ValueError) as raised:
        memory_run({"outputs/response.md": "x"}, **{argument: value})
    assert f"{argument}={value!r}" in str(raised.value)


@pytest.mark.parametrize("configuration, number", [("with_skill", 0), ("caf\udce9", 999_999_999)])
def test_a_run_is_graded_as_the_same_folder_on_disk(tmp_path, configuration, number):
    # run-0, the last number a folder is read as, and a folder name whose bytes are
    # not UTF-8 (Latin-1 "café", read back as a lone surrogate) are runs on disk too.
    from referee.engine.api import rules_name
    from referee.engine.cli import main
    from referee.engine.report.atomic import encode

    folder = tmp_path / "eval-1" / configuration / f"run-{number}" / "outputs"
    folder.mkdir(parents=True)
    (folder / "response.md").write_text("the secret is out", encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(tmp_path), "--rules", str(tmp_path / "r.rules")]) == 1
    program = referee.compile(RULES, rules_name(tmp_path / "r.rules", RULES))
    run = memory_run({"outputs/response.md": "the secret is out"}, configuration=configuration, run_number=number)
    (result,) = referee.grade(program, [run])
    assert result.path == f"eval-1/{configuration}/run-{number}"
    # grading_json is text; a lone surrogate in it is written as its escape, as grade writes it
    assert encode(result.grading_json) == (folder.parent / "grading.json").read_bytes()


@pytest.mark.parametrize("build", [
    lambda text: memory_run({"outputs/response.md": text}),
    lambda text: memory_workspace({"eval-1/with_skill/run-1/outputs/response.md": text})])
def test_a_text_no_utf8_file_holds_is_refused_naming_its_file_and_line(build):
    # the readers read a file's bytes: this text was encoded at the first check that
    # read it, and every check of the run was an ERROR naming a UnicodeEncodeError
    with pytest.raises(ValueError, match=r"response\.md'?: line 2 holds a lone surrogate"):
        build("clean\nthe secret \ud800")
    run = memory_run({"outputs/response.md": "clean\nthe secret \ud800".encode("utf-8", "surrogatepass")})
    (result,) = referee.grade(RULES, run)
    summary = json.loads(result.grading_json)["summary"]
    assert (summary["passed"], summary["failed"]) == (0, 1), summary  # its bytes are read, as on disk
