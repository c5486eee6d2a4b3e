"""A transcript that ends inside a ``[tool_calls]`` record (the record has no
``Status:`` line, which closes every record, and nothing follows it) was cut while it
was written: the calls after the cut are lost. The example's eval-1 run-1 transcript
cut inside step 2's Args passed ``no calls to glob "*cancelReservation"`` and
``count(calls) <= 2``, though what was cut may hold a third call; its run's
metrics.json (which counts the two calls read) was no help. Now each is an ERROR
(``transcript-cut``; a check that such a call was made is one too, as where metrics.json
counts calls the transcript lacks), but one the calls read decide: the search read at
step 1 was made, whatever was cut (``exists calls to glob "*searchFlights"`` passes). A record without a Status line that other text follows is a
record read whole, whose status alone is unknown (as before)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main

RUN = (Path(__file__).resolve().parent.parent / "examples" / "booking-skill-workspace" / "iteration-1"
       / "eval-1-book-flight" / "with_skill" / "run-1")
RULES = ('eval 1\nexpect "no cancellation": no calls to glob "*cancelReservation"\n'
         'expect "two calls at most": count(calls) <= 2\n'
         'expect "searched": exists calls to glob "*searchFlights"\n')


def _verdicts(tmp_path: Path, capsys, transcript: str | None, metrics: bool = True) -> list[str]:
    run = tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-1"
    shutil.copytree(RUN, run)
    if transcript is not None:
        (run / "outputs" / "transcript.md").write_text(transcript, encoding="utf-8")
    if not metrics:
        (run / "outputs" / "metrics.json").unlink()
    rules = tmp_path / "cut.rules"
    rules.write_text(RULES, encoding="utf-8")
    main(["grade", str(tmp_path / "iteration-1"), "--rules", str(rules), "--check", "--json"])
    [graded] = json.loads(capsys.readouterr().out)["runs"]
    return [row["outcome"] for row in graded["expectations"]]


def _whole() -> str:
    return (RUN / "outputs" / "transcript.md").read_text(encoding="utf-8")


def test_the_whole_transcript_passes(tmp_path: Path, capsys):
    assert _verdicts(tmp_path, capsys, None) == ["pass", "pass", "pass"]


@pytest.mark.parametrize("metrics", [True, False])
@pytest.mark.parametrize("after", ['Args: {"flightId":"LX', "Tool: travel_bookReservation\n",
                                   "Tool: travel_bookReservation\r\n", 'Return: {"status":"CONFIRMED",'])
def test_a_transcript_cut_inside_a_record_leaves_the_calls_unknown(tmp_path: Path, capsys, after: str,
                                                                     metrics: bool):
    text = _whole()
    if "\r" in after:
        text = text.replace("\n", "\r\n")
    cut = text[:text.index(after) + len(after)]
    assert _verdicts(tmp_path, capsys, cut, metrics) == ["error", "error", "pass"]


def test_a_record_without_status_that_text_follows_is_no_cut(tmp_path: Path, capsys):
    text = _whole()
    step_2 = text.index("Tool: travel_bookReservation")
    status = text.index("Status: success\n", step_2)
    without = text[:status] + text[status + len("Status: success\n"):]
    assert _verdicts(tmp_path, capsys, without) == ["pass", "pass", "pass"]


def _response_verdict(tmp_path: Path, capsys, transcript: str) -> str:
    """The verdict on 'not response contains "refund"' of the example run with no
    response file and ``transcript``."""
    run = tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-1"
    shutil.copytree(RUN, run)
    (run / "outputs" / "response.md").unlink()
    (run / "outputs" / "transcript.md").write_text(transcript, encoding="utf-8")
    rules = tmp_path / "reply.rules"
    rules.write_text('eval 1\nexpect "no refund": not response contains "refund"\n', encoding="utf-8")
    main(["grade", str(tmp_path / "iteration-1"), "--rules", str(rules), "--check", "--json"])
    [graded] = json.loads(capsys.readouterr().out)["runs"]
    [row] = graded["expectations"]
    return row["outcome"]


def test_with_no_response_file_a_cut_transcript_leaves_the_answer_unknown(tmp_path: Path, capsys):
    """The answer the agent gave after the cut is lost with it: the response was
    missing, and the check passed vacuously."""
    text = _whole()
    cut = text[:text.index('Args: {"flightId":"LX') + 10]
    assert _response_verdict(tmp_path, capsys, cut) == "error"


def test_with_no_response_file_a_whole_record_without_an_answer_has_none(tmp_path: Path, capsys):
    text = _whole()
    whole = text[:text.index("## Final Result")]
    assert _response_verdict(tmp_path, capsys, whole) == "pass"


def test_a_transcript_cut_at_its_head_leaves_the_calls_unknown(tmp_path: Path, capsys):
    """Cut at its head, the example's transcript begins at step 2: one number per call
    and one counter shared with the notes both count from 1, so what was numbered
    before it is not there. It passed no calls to searchFlights, though step 1 was one."""
    text = _whole()
    cut = text[text.index("## [tool_calls] Step 2"):]
    assert _verdicts(tmp_path, capsys, cut, metrics=False) == ["error", "error", "error"]


def test_a_step_missing_before_the_first_record_leaves_the_calls_unknown(tmp_path: Path, capsys):
    text = _whole()
    kept = text[:text.index("## [tool_calls] Step 1")] + text[text.index("## [tool_calls] Step 2"):]
    assert _verdicts(tmp_path, capsys, kept, metrics=False) == ["error", "error", "error"]


def test_a_transcript_cut_inside_its_first_record_leaves_the_calls_unknown(tmp_path: Path, capsys):
    """Cut inside step 1's Args, the file starts with the rest of that record (its
    Return and Status lines under no heading), then the notes of step 1."""
    text = _whole()
    cut = text[text.index('"cabin": "economy"'):]
    assert _verdicts(tmp_path, capsys, cut, metrics=False) == ["error", "error", "error"]


def test_one_counter_shared_with_the_notes_starts_with_a_note(tmp_path: Path, capsys):
    """A note numbered 1 and then the record numbered 2: the shared counter counts from
    1, and nothing is missing."""
    text = _whole()
    step_1 = text[text.index("## [tool_calls] Step 1"):text.index("## [agent_notes] Step 1")]
    shared = text.replace(step_1, "").replace("## [agent_notes] Step 2", "## [agent_notes] Step 3")
    # whole: no call to searchFlights is made, and the one check that one was fails
    assert _verdicts(tmp_path, capsys, shared, metrics=False) == ["pass", "pass", "fail"]
