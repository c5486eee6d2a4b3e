"""A file the rule names that the run keeps beside outputs/, not in it, is no
missing file.

The pua runs (tests/fixtures/real/pua-workspace) leave the task's repository, as
each run left it, in ``repo/`` beside ``outputs/``. ``file "repo/slugify.py"``
read under outputs/ alone and failed, saying the file does not exist, although the
run holds it; ``not file "repo/slugify.py" contains 'split(" ")'`` passed
vacuously on without_skill, whose repo/slugify.py still splits on a space. Both are
now an ERROR that names the file beside outputs/."""

from __future__ import annotations

import shutil
from pathlib import Path

import referee
from referee.engine.cli import main

REAL = Path(__file__).parent / "fixtures" / "real" / "pua-workspace"
WITHOUT = "iteration-1/eval-1-red-suite-evidence/without_skill"
RULES = """eval 1
expect "The source splits words on any whitespace": file "repo/slugify.py" contains "text.split()"
expect "The source no longer splits on one space": not file "repo/slugify.py" contains "split(\\" \\")"
expect "The repository is there": exists file "repo/slugify.py"
expect "A file in neither place": file "repo/README.md" contains "slug"
expect "The run's own timing file is no output": file "timing.json" contains "total_tokens"
"""


def _graded(where: Path) -> dict[str, list[dict]]:
    results = referee.grade(RULES, where, response="outputs/final_response.md")
    return {result.path: result.expectations for result in results}


def test_a_file_beside_outputs_is_an_error_naming_it_never_missing():
    found = _graded(REAL)[WITHOUT]
    assert [e["outcome"] for e in found] == ["error", "error", "error", "fail", "fail"]
    for item in found[:3]:
        assert "repo/slugify.py beside outputs/" in item["evidence"], item["evidence"]
    assert "does not exist" in found[3]["evidence"]


def test_grading_again_gives_the_same_verdicts(tmp_path: Path):
    where = tmp_path / "pua-workspace"
    shutil.copytree(REAL, where)
    for run in where.rglob("grading.json"):  # the other grader's: referee writes its own
        run.unlink()
    first = _graded(where)
    (where / "suite.rules").write_text(RULES, encoding="utf-8")
    main(["grade", str(where), "--rules", str(where / "suite.rules"), "--response", "outputs/final_response.md"])
    assert (where / WITHOUT / "grading.json").is_file()
    again = _graded(where)
    assert {path: [e["outcome"] for e in items] for path, items in first.items()} == \
        {path: [e["outcome"] for e in items] for path, items in again.items()}


def test_the_run_folder_files_identity_names_are_its_own_never_beside_outputs(tmp_path):
    # eval_metadata.json and source_map.json are named where a run folder is told
    # (engine.run.identity): a rule naming one still means a file of outputs/.
    from referee.engine.run.beside import held_beside_outputs
    from referee.engine.run.identity import METADATA, SOURCE_MAP

    for name in (METADATA, SOURCE_MAP, "repo.py"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    assert [held_beside_outputs(tmp_path, name) for name in (METADATA, SOURCE_MAP, "repo.py")] == [None, None, "repo.py"]
