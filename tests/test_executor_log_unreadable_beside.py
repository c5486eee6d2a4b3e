"""A metrics.json or timing.json beside a skill-creator log that cannot be used (not
JSON, bytes that are not UTF-8) is not dropped by the import: the imported run's file is
marked unread, so a check on it is an ERROR, as on the log graded where it lies, never
a vacuous pass on a file that seems missing. A usable file, and no file, read as before."""

from __future__ import annotations

import pytest

import referee
from referee.engine.run.importers import import_sources

LOG = "# Executor log\n\n### Step 1: Read the file\n**Tool**: Read\n**Result**: ok\n\n## Final Result\nDone.\n"
RULES = ('eval "transcript"\nexpect 1: not (metrics.errors_encountered > 0)\n'
         'expect 2: not (timing.total_tokens > 100)\nexpect 3: response contains "Done"\n')
GOOD_TIMING = b'{"total_tokens": 10}\n'
GOOD_METRICS = b'{"errors_encountered": 0}\n'


def _outcomes(where) -> list[str]:
    return [e["outcome"] for e in referee.grade(RULES, where)[0].grading["expectations"]]


def _log(tmp_path, metrics: bytes, timing: bytes):
    folder = tmp_path / "log"
    folder.mkdir()
    (folder / "transcript.md").write_text(LOG, encoding="utf-8")
    (folder / "metrics.json").write_bytes(metrics)
    (folder / "timing.json").write_bytes(timing)
    return folder / "transcript.md"


def _where_it_lies(tmp_path, metrics: bytes, timing: bytes):
    run = tmp_path / "ws" / "transcript"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(LOG, encoding="utf-8")
    (run / "outputs" / "metrics.json").write_bytes(metrics)
    (run / "timing.json").write_bytes(timing)
    return tmp_path / "ws"


CASES = {
    "metrics-not-json": (b'{"errors_encountered": 3,', GOOD_TIMING, ["error", "pass", "pass"]),
    "metrics-not-utf8": (b'{"errors_encountered": 3, "n\xff": 1}', GOOD_TIMING, ["error", "pass", "pass"]),
    "timing-not-json": (GOOD_METRICS, b'{"total_tokens": 300', ["pass", "error", "pass"]),
    "both-usable": (GOOD_METRICS, GOOD_TIMING, ["pass", "pass", "pass"]),
}


@pytest.mark.parametrize("metrics, timing, expected", CASES.values(), ids=CASES.keys())
def test_an_imported_log_grades_as_where_it_lies(tmp_path, metrics, timing, expected):
    assert _outcomes(_where_it_lies(tmp_path, metrics, timing)) == expected
    log = _log(tmp_path, metrics, timing)
    assert _outcomes(log) == expected
    result = import_sources("skill-creator-log", [log], tmp_path / "out")
    assert result.written and not result.errors
    assert _outcomes(tmp_path / "out") == expected
