"""``referee.grade`` takes what ``referee grade SOURCE...`` takes: a list of source
files (str or Path, any iterable), graded together as the command grades them.
What is neither a path, nor source paths, nor runs is a TypeError that names it,
never an AttributeError from inside."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import referee

FIXTURE = Path(__file__).parent / "fixtures" / "import" / "claude-code"
SESSION = FIXTURE / "session.jsonl"
RULES = (FIXTURE / "session.rules").read_text(encoding="utf-8")


def graded(results):
    return [(r.path, r.grading_json) for r in results]


@pytest.mark.parametrize("given", [
    [str(SESSION)], [SESSION], (str(SESSION),), pytest.param("generator", id="generator"),
])
def test_a_list_of_source_paths_is_graded_as_the_one_source(given):
    if given == "generator":
        given = (p for p in [str(SESSION)])
    assert graded(referee.grade(RULES, given)) == graded(referee.grade(RULES, SESSION))


def test_two_sources_are_graded_together(tmp_path: Path):
    other = tmp_path / "other.jsonl"
    other.write_bytes(SESSION.read_bytes())
    results = referee.grade(RULES, [SESSION, str(other)], as_eval="session")  # both: runs of eval "session"
    assert [r.path for r in results] == ["eval-session/imported/run-1", "eval-session/imported/run-2"]
    assert '"session.jsonl' in results[0].grading_json and '"other.jsonl' in results[1].grading_json


def test_a_missing_source_in_a_list_is_named(tmp_path: Path):
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(FileNotFoundError) as raised:
        referee.grade(RULES, [SESSION, str(missing)])
    assert str(missing) in str(raised.value)


def test_a_folder_in_a_list_of_sources_is_refused(tmp_path: Path):
    with pytest.raises(ValueError, match="is a folder"):
        referee.grade(RULES, [SESSION, tmp_path])


def test_a_source_that_holds_no_conversation_is_refused(tmp_path: Path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ValueError):
        referee.grade(RULES, [SESSION, empty])


@pytest.mark.parametrize("where", [None, 5, b"session.jsonl", [b"session.jsonl"], [SESSION, 5]])
def test_what_is_no_path_and_no_run_is_a_type_error_naming_it(where):
    with pytest.raises(TypeError, match="where"):
        referee.grade(RULES, where)


def test_files_held_in_a_dict_are_a_type_error_that_says_how_to_grade_them(tmp_path: Path, monkeypatch):
    (tmp_path / "outputs").mkdir()
    (tmp_path / "outputs" / "response.md").write_text("done\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # its keys name files here: still no source paths
    with pytest.raises(TypeError, match="memory_run"):
        referee.grade(RULES, {"outputs/response.md": "done\n"})


def test_a_set_of_sources_is_read_in_the_order_of_its_paths(tmp_path: Path):
    """A set has no order of its own (a Path's hash changes from process to process):
    its sources are read in the order of their paths, so the run numbers ``as_eval``
    gives, and the reports, are the same in every process."""
    other = tmp_path / "other.jsonl"
    other.write_bytes(SESSION.read_bytes())
    in_order = referee.grade(RULES, sorted([SESSION, other], key=str), as_eval="session")
    for given in ({SESSION, other}, frozenset({str(other), str(SESSION)})):
        assert referee.grade(RULES, given, as_eval="session") == in_order
    code = ("import sys, referee; from pathlib import Path; "
            f"r = referee.grade(Path({str(FIXTURE / 'session.rules')!r}).read_text(), "
            f"{{Path({str(SESSION)!r}), Path({str(other)!r})}}, as_eval='session'); "
            "sys.stdout.write(''.join(x.path + x.grading_json for x in r))")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(6)}
    assert outputs == {"".join(r.path + r.grading_json for r in in_order)}
