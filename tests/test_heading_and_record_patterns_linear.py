"""Two patterns that read a run's files as they come took time growing with the square
of what an agent wrote: an executor log's heading line of "# " over and over before a
last word (its title read as the shortest text before trailing blanks and "#", tried
from every place), and the blank lines before a transcript record's Tool line (taken
by either of two runs of blank lines, every split tried when no Tool line followed).
Written so each is read once, they give the titles and records they gave before."""

from __future__ import annotations

import random
import re
from pathlib import Path

import referee
from referee.engine.run import executor_log, usual_record


def test_a_heading_line_of_many_hashes_is_read(tmp_path: Path):
    # 40,000 "# " before "!": before, about a minute and a half on one line
    log = ("# Executor log\n\n## Eval Prompt\n\nCount the words.\n\n### Step 1: count\n**Tool**: Bash\n\n"
           + "# " * 40_000 + "!\n\n## Final Result\n\n12 words.\n")
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "transcript.md").write_text(log, encoding="utf-8")
    (result,) = referee.grade('eval 1\nexpect 1: response contains "12 words"\n', tmp_path)
    assert [item["outcome"] for item in result.expectations] == ["pass"]


def test_heading_titles_are_those_read_before():
    old = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
    rng = random.Random(3)
    for _ in range(20_000):
        line = "".join(rng.choice(["#", " ", "\t", "a", "C#", "!", "##"]) for _ in range(rng.randint(0, 10)))
        before = old.match(line)
        now = executor_log.heading(line)
        assert (None if before is None else (before.group(1), before.group(2))) == now, line


def test_many_blank_lines_with_no_tool_line_are_read(tmp_path: Path):
    # 20,000 blank lines of a space after a record heading, then no Tool line: before,
    # some twenty seconds for that one record
    transcript = "## Eval Prompt\n\nList.\n\n## [tool_calls] Step 1: ls\n" + " \n" * 20_000 + "Args: {}\n"
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(transcript, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("Listed.\n", encoding="utf-8")
    (result,) = referee.grade('eval 1\nexpect 1: response contains "Listed"\n', tmp_path)
    assert [item["outcome"] for item in result.expectations] == ["pass"]


def test_records_read_are_those_read_before():
    old = re.compile(usual_record._PLAIN_RECORD.pattern.replace(r"(?:[ \t]*\n)*+", r"(?:[ \t]*\n)*"))
    pieces = [" \n", "\n", "\t\n", "<!-- x -->\n", "Tool: ls\n", "Args: {}\n", "Return: ok\n", "Status: success",
              "Status: error\n", "text\n"]
    rng = random.Random(5)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 9)))
        before, now = old.match(text), usual_record._PLAIN_RECORD.match(text)
        assert (None if before is None else before.groupdict()) == (None if now is None else now.groupdict()), text
