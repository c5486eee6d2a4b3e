"""grading.json's shape has one description, its model (``engine.report.models``):
every reader judges a field by it and says what is wrong in the same words.

``report`` (and ``diff``, ``compare``) validated the model leniently, in pydantic's
words; ``aggregate`` and ``merge`` checked a hand-written list of fields strictly.
The same file was counted by one and left out by the other (``"passed": "true"``),
or left out by both in different words."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from referee.engine.decision import collect as aggregation
from referee.engine.decision.shape import grading_shape, shape_problem
from referee.engine.report import collect as reporting
from referee.engine.report.models import GradingReport

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RUN = "iteration-1/eval-1-book-flight/with_skill/run-1"


def _example_report() -> dict:
    return json.loads((EXAMPLE / RUN / "grading.json").read_text(encoding="utf-8"))


def _edited(tmp_path: Path, edit) -> Path:
    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    (workspace / "benchmark.json").unlink()
    target = workspace / RUN / "grading.json"
    document = json.loads(target.read_text(encoding="utf-8"))
    edit(document)
    target.write_text(json.dumps(document), encoding="utf-8")
    return workspace


def _set(path: tuple, value):
    def edit(document):
        *parents, last = path
        for part in parents:
            document = document[part]
        document[last] = value
    return edit


@pytest.mark.parametrize("path, value, said", [
    (("expectations",), None, "its expectations is null, not a list"),
    # a pass written as text: report counted it (pydantic read "true" as true), aggregate did not
    (("expectations", 0, "passed"), "true", 'its expectations[0].passed is "true", not true or false'),
    (("expectations", 0, "outcome"), "PASS",
     'its expectations[0].outcome is "PASS", not one of "pass", "fail", "error", "not_graded"'),
    (("summary", "total"), "4", 'its summary.total is "4", not a whole number'),
    (("grader", "version"), 1, "its grader.version is 1, not a string"),
])
def test_aggregate_and_report_leave_out_a_report_out_of_shape_in_the_same_words(tmp_path, path, value, said):
    workspace = _edited(tmp_path, _set(path, value))
    unusable = aggregation.collect(workspace).unusable
    assert [u.path for u in unusable] == [RUN]
    assert f"grading.json is not as referee writes it ({said}): " in unusable[0].reason
    problems = reporting.collect(workspace, with_benchmark=False).problems
    assert f"ws/{RUN}/grading.json: not a grading.json that referee wrote ({said}); grade the run again " \
           "(left out)" in problems


def _places(value, here=()):
    """Every place in a JSON document: (path to it, its value)."""
    yield here, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from _places(inner, (*here, key))


def _strictly_valid(document) -> bool:
    try:
        GradingReport.model_validate(document, strict=True)
    except ValidationError:
        return False
    return True


def test_the_shape_judges_every_field_as_the_model_does():
    # Each field of a real report replaced by a value of each JSON type, or taken out:
    # the shape readers check refuses exactly what strict validation by the model refuses.
    report = _example_report()
    report["run"]["inputs"] = {"fares.csv": "00ff"}  # a field the example leaves null
    assert shape_problem(report, grading_shape("report")) is None and _strictly_valid(report)
    tried = 0
    for path, _ in list(_places(report)):
        if not path:
            continue
        for value in (None, "x", 3, 2.5, True, [], {}, ["x"], {"x": 1}, "pass", "removed"):
            edited = copy.deepcopy(report)
            *parents, last = path
            holder = edited
            for part in parents:
                holder = holder[part]
            if value == "removed":
                if isinstance(holder, list):
                    continue
                del holder[last]
            else:
                holder[last] = value
            wrong = shape_problem(edited, grading_shape("report"))
            assert (wrong is None) == _strictly_valid(edited), (path, value, wrong)
            tried += 1
    assert tried > 1000


def test_a_field_of_the_model_is_checked_by_every_reader_that_reads_it():
    # aggregate and merge name the fields they read; their types are the model's
    whole = grading_shape("report")
    for reader in ("aggregate", "merge"):
        for name, shape in grading_shape(reader).items():
            assert name in whole
            if isinstance(shape, dict):
                assert all(inner in whole[name] and shape[inner] == whole[name][inner] for inner in shape)


@pytest.mark.parametrize("planted, said", [("folder", "not a regular file"),
                                           ("link", "not a regular file (a symlink, not a file referee wrote)")])
def test_aggregate_names_what_stands_in_grading_jsons_place_as_report_does(tmp_path, planted, said):
    # aggregate said "no grading.json: grade the run first" of a run whose report is
    # there, a folder or a link: report said what it is
    workspace = _edited(tmp_path, lambda document: None)
    target = workspace / RUN / "grading.json"
    target.unlink()
    if planted == "folder":
        target.mkdir()
    else:
        target.symlink_to(workspace / RUN.replace("run-1", "run-2") / "grading.json")
    unusable = aggregation.collect(workspace).unusable
    assert [(u.path, u.reason) for u in unusable] == [(RUN, f"grading.json is {said}; grade the run again")]
    problems = reporting.collect(workspace, with_benchmark=False).problems
    assert f"ws/{RUN}/grading.json: {said}; grade the run again (left out)" in problems


def test_carry_overs_copy_of_judged_by_is_the_models():
    # A plain grade reads judged_by back without loading the models (carry._IDENTITY):
    # that copy must stay the model's
    from referee.engine.decision.shape import Either
    from referee.engine.report.carry import _IDENTITY

    (judged_by, null) = grading_shape("report")["expectations"][0]["judged_by?"].shapes
    assert isinstance(grading_shape("report")["expectations"][0]["judged_by?"], Either) and null is type(None)
    assert list(_IDENTITY) == [name.rstrip("?") for name in judged_by]
    assert list(_IDENTITY.values()) == [kinds if isinstance(kinds, tuple) else (kinds,)
                                        for kinds in judged_by.values()]
