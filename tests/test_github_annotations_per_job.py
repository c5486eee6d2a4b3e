"""GitHub shows 50 annotations per job, summed over its steps: past the job's room,
``engine.report.job_annotations`` counts the rest in one annotation and keeps the
decision, the last command."""

from __future__ import annotations

import subprocess
import sys

from referee.engine.report.job_annotations import MAX_PER_JOB, level_of, within_job

COMMANDS = ([f"::error title=e{n}::failed {n}" for n in range(9)] + ["::error title=left::2 more"]
            + [f"::warning title=w{n}::w" for n in range(5)] + ["::notice title=referee context::ctx",
                                                                "::error title=referee FAIL::FAIL"])


def _annotations(lines: list[str]) -> list[str]:
    return [line for line in lines if level_of(line)]


def test_with_room_every_command_is_printed():
    assert within_job(COMMANDS, MAX_PER_JOB - len(COMMANDS)) == COMMANDS


def test_past_the_room_the_rest_is_counted_and_the_decision_kept():
    out = within_job(COMMANDS, 40)  # room for 10 of 17
    assert len(_annotations(out)) == 10
    assert out[:8] == COMMANDS[:8] and out[-1] == COMMANDS[-1]
    assert out[8].startswith("::error title=referee annotations left out::8 more annotations not shown")


def test_the_count_takes_the_level_of_the_first_left_out():
    out = within_job(COMMANDS, 36)  # room for 14: the first warning left out is the 13th command
    assert out[12].startswith("::warning title=referee annotations left out::4 more")


def test_with_no_room_for_a_count_the_log_says_so_in_a_plain_line():
    assert within_job(COMMANDS, 49) == [
        "referee: 16 annotations not shown: GitHub shows 50 per job", COMMANDS[-1]]
    assert within_job(COMMANDS, 50) == ["referee: 17 annotations not shown: GitHub shows 50 per job"]
    assert within_job(COMMANDS, 70) == ["referee: 17 annotations not shown: GitHub shows 50 per job"]


def test_other_lines_pass_through():
    lines = ["::group::x", "plain", *COMMANDS, "::endgroup::"]
    out = within_job(lines, 45)
    assert out[:2] == lines[:2] and out[-1] == "::endgroup::" and len(_annotations(out)) == 5


def _filter(tmp_path, text: str, count: str | None) -> tuple[str, str]:
    file = tmp_path / "referee-annotations"
    if count is not None:
        file.write_text(count, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee.engine.report.job_annotations", str(file)],
                          input=text, capture_output=True, text=True, check=True)
    return done.stdout, file.read_text(encoding="utf-8")


def test_the_filter_adds_what_it_printed_to_the_job_count(tmp_path):
    out, count = _filter(tmp_path, "\n".join(COMMANDS) + "\n", None)
    assert out.splitlines() == COMMANDS and count == f"{len(COMMANDS)}\n"
    out, count = _filter(tmp_path, "\n".join(COMMANDS) + "\n", "45\n")
    assert len(_annotations(out.splitlines())) == 5 and count == "50\n"


def test_a_count_file_that_holds_no_count_leaves_no_room(tmp_path):
    # Unknown is not empty: a job whose count cannot be read may be full already.
    out, count = _filter(tmp_path, "\n".join(COMMANDS) + "\n", "garbage")
    assert not _annotations(out.splitlines()) and "17 annotations not shown" in out and count == "50\n"
