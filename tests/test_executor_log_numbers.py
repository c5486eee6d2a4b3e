"""The metrics.json and timing.json an executor left beside its skill-creator log are
carried into the imported run with every number as written: ``1e999`` is not
Infinity, ``1e-999`` not 0, a fraction of twenty digits not a float's seventeen, and
``Infinity`` itself is no integer (it stopped the import). A check on such a metric is
decided as it is on the run graded where it lies, never on a changed value."""

from __future__ import annotations

import json

import pytest

import referee
from referee.engine.run.importers import import_sources

LOG = "# Executor log\n\n### Step 1: Read the file\n**Tool**: Read\n**Result**: ok\n\n## Final Result\nDone.\n"
RULES = ('eval "transcript"\nexpect 1: metrics.huge < 5\nexpect 2: metrics.tiny == 0\n'
         'expect 3: metrics.long == 12345678901234567890.5\nexpect 4: metrics.calls == 1\n'
         'expect 5: timing.total_duration_seconds == 0\n')
METRICS = ('{"calls": 1, "huge": 1e999, "tiny": 1e-999, "long": 12345678901234567890.5, '
           '"tool_calls": {"Read": 1}, "half": 0.5}\n')


def _outcomes(run) -> list[str]:
    return [e["outcome"] for e in run.grading["expectations"]]


def _log(tmp_path, metrics: str = METRICS, timing: str = '{"total_duration_seconds": 1e-999}\n'):
    folder = tmp_path / "log"
    folder.mkdir()
    (folder / "transcript.md").write_text(LOG, encoding="utf-8")
    (folder / "metrics.json").write_text(metrics, encoding="utf-8")
    (folder / "timing.json").write_text(timing, encoding="utf-8")
    return folder / "transcript.md"


def test_numbers_beside_a_log_are_carried_as_written(tmp_path):
    log = _log(tmp_path)
    result = import_sources("skill-creator-log", [log], tmp_path / "out")
    assert result.written and not result.errors
    written = (tmp_path / "out" / "transcript" / "outputs" / "metrics.json").read_text(encoding="utf-8")
    assert "Infinity" not in written and "1E+999" in written and "1E-999" in written
    assert "12345678901234567890.5" in written and '"half": 0.5' in written and '"calls": 1' in written
    timing = (tmp_path / "out" / "transcript" / "timing.json").read_text(encoding="utf-8")
    assert "1E-999" in timing


def test_an_imported_log_grades_as_the_log_where_it_lies(tmp_path):
    log = _log(tmp_path)
    run = tmp_path / "ws" / "transcript"
    (run / "outputs").mkdir(parents=True)
    for name in ("transcript.md", "metrics.json"):
        (run / "outputs" / name).write_bytes((log.parent / name).read_bytes())
    (run / "timing.json").write_bytes((log.parent / "timing.json").read_bytes())
    where_it_lies = _outcomes(referee.grade(RULES, tmp_path / "ws")[0])
    assert where_it_lies == ["fail", "fail", "pass", "pass", "fail"]
    assert _outcomes(referee.grade(RULES, log)[0]) == where_it_lies


@pytest.mark.parametrize("value", ["Infinity", "-Infinity", "NaN"])
def test_a_metric_that_is_no_number_stops_nothing(tmp_path, value):
    log = _log(tmp_path, metrics=f'{{"calls": {value}}}\n')
    result = import_sources("skill-creator-log", [log], tmp_path / "out")
    assert result.written and not result.errors
    written = json.loads((tmp_path / "out" / "transcript" / "outputs" / "metrics.json").read_text(encoding="utf-8"))
    assert str(written["calls"]) == str(float(value))
