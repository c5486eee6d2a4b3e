"""Inputs where the LLM grader's verdict was wrong or cited elsewhere, or where a shard,
merge record, benchmark or cassette file that could not be read ended as an internal
error instead of an error naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_server import verdicts
from sharded import RULE_ARGS, fresh, sharded

from referee.engine.cli import main
from referee.engine.grade import RulesSource, grade_all, grader_info
from referee.engine.judging import SemanticItem
from referee.engine.run.memory import memory_run
from referee.llm_adapter import cassette
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.judge import LLMJudge
from referee.llm_adapter.quotes import locate

TRANSCRIPT = """\
## Eval Prompt

Book the cheapest direct flight from ZRH to LIS.

## [tool_calls] Step 1: search
Tool: travel_searchFlights
Args: {"origin":"ZRH","destination":"LIS"}
Return: {"flights":[{"id":"LX2084","price":189}]}
Status: success
"""


class Scripted:
    """A backend that gives one reply to every request, as a replayed cassette does."""

    name = "scripted"
    model = "m"

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.asked = 0

    def params(self) -> dict:
        return {}

    def complete(self, request, about: str = "") -> Completion:
        self.asked += 1
        return Completion(self.reply, replayed=True)

    def cancel(self) -> None:
        pass


def graded_with(judge, rules: str, files: dict) -> dict:
    source = RulesSource((("r.rules", rules),))
    [result] = grade_all(source.compile(), [memory_run(files)], source, grader_info(), judge=judge)
    return json.loads(result.report.grading_text())


def test_grader_pass_on_a_response_referee_could_not_read_is_an_error():
    # A response.md with one byte that is not UTF-8 (a Latin-1 "é" pasted by a tool, a
    # truncated multi-byte character): referee keeps a lossy copy for display only, and
    # `not response contains "..."` on it is an ERROR. The grader was shown that lossy copy
    # and said the negative sentence holds, quoting the readable first line: that PASS
    # rested on text referee itself did not read, and must not stand either.
    response = "Your flight LX2084 is booked.\n".encode() + b"Ref \xe9 internal id 7F3A-99\n"
    backend = Scripted(verdicts(("No internal id is shown.", [("response", "Your flight LX2084 is booked.")],
                                 "PASS")))
    report = graded_with(LLMJudge(backend), 'eval 1\nexpect "The response shows no internal ids"\n',
                         {"outputs/transcript.md": TRANSCRIPT, "outputs/response.md": response})
    [item] = report["expectations"]
    assert item["outcome"] == "error", item
    assert "outputs/response.md" in item["evidence"] and "not UTF-8" in item["evidence"]


EXECUTOR_LOG = """\
# Executor log

## Eval Prompt

Summarise the quarterly report.

## Steps

### Step 1: read the report
**Tool**: Read
Read outputs/report.md.

## Final Result

Revenue grew by twelve percent in the quarter.
Costs fell in every region.

## Issues

None.
"""


def test_grader_quote_in_an_executor_logs_final_result_points_at_its_line():
    # A skill-creator executor log with no response.md: its "## Final Result" section is
    # the response. The grader quotes the section's second line (line 16 of the log);
    # the evidence must say transcript.md:16, not line 2 of the file (the section's
    # second line counted as if it began the file), where the log's title stands.
    backend = Scripted(verdicts(("Costs are covered.", [("response", "Costs fell in every region.")], "PASS")))
    run = memory_run({"outputs/transcript.md": EXECUTOR_LOG})
    result = LLMJudge(backend).grade(run, [SemanticItem("1#1", "Mentions costs", "Mentions costs")])
    [evidence] = result.verdicts["1#1"].evidence
    assert (evidence.file, evidence.line) == ("outputs/transcript.md", 16)
    assert EXECUTOR_LOG.split("\n")[evidence.line - 1] == "Costs fell in every region."


def test_a_damaged_shard_manifest_or_merge_record_is_an_error_naming_it(tmp_path, capsys):
    # Shard files come back as CI artifacts and can come back damaged: a manifest whose
    # shard number is a run of 5,000 digits (past what Python turns into an int), a
    # shard-merge.json nested 100,000 levels deep. Each must be refused by name, never
    # end as "internal error".
    ws = sharded(tmp_path, 2)
    manifest = ws / "shard-2-of-2.json"
    good = manifest.read_text(encoding="utf-8")
    manifest.write_text(good.replace('"shard": 2,', '"shard": ' + "9" * 5000 + ","), encoding="utf-8")
    capsys.readouterr()
    assert main(["merge", str(ws), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert "shard-2-of-2.json" in err and "internal error" not in err
    manifest.write_text(good, encoding="utf-8")
    assert main(["merge", str(ws), *RULE_ARGS]) in (0, 1)
    (ws / "shard-merge.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    capsys.readouterr()
    assert main(["aggregate", str(ws), "--check"]) == 2
    err = capsys.readouterr().err
    assert "not merged" in err and "internal error" not in err


def test_a_benchmark_json_nested_too_deep_is_an_error_naming_it(tmp_path, capsys):
    # benchmark.json is read back by `report` (shown beside the runs), `diff` and
    # `aggregate --against` (a blessed baseline kept in a repository). One damaged or
    # hostile file nested 100,000 levels deep must be named and refused, never end as "internal error".
    ws = fresh(tmp_path)
    assert main(["grade", str(ws), *RULE_ARGS]) == 1
    benchmark = ws / "benchmark.json"
    benchmark.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    capsys.readouterr()
    assert main(["report", str(ws), "--format", "markdown", "-o", str(tmp_path / "r.md")]) == 2
    assert "benchmark.json: cannot read (nested too deeply)" in capsys.readouterr().err
    assert main(["diff", str(benchmark), str(benchmark)]) == 2
    err = capsys.readouterr().err
    assert "benchmark.json: not valid JSON" in err and "internal error" not in err
    assert main(["aggregate", str(ws), "--check", "--against", str(benchmark)]) == 2
    err = capsys.readouterr().err
    assert "benchmark.json: not valid JSON" in err and "internal error" not in err


def test_a_quote_that_drops_or_adds_a_minus_sign_is_not_found():
    # The response says the balance is negative; the grader, asked whether the refund
    # leaves a positive balance, says PASS quoting the line without its minus sign (or,
    # the other way round, adds one). Loose matching took the sign for punctuation, a
    # separator, and found the quote: one changed sign is a fabricated number, as one
    # changed digit is.
    response = Segment("response", "outputs/response.md", 1,
                       "Your account balance: -500.00 EUR after the refund.\nOslo: 12 degrees today.\n")
    assert locate("account balance: 500.00 EUR", (response,)) is None
    assert locate("Oslo: -12 degrees today", (response,)) is None
    # the sign as written is found, and a hyphen inside a word or a date stays a separator
    assert locate("account balance: -500.00 EUR", (response,)).loose is False
    assert locate("balance -500.00 EUR", (response,)).loose
    dated = Segment("response", "outputs/response.md", 1, "Flight LX-2084 leaves on 2026-05-14.")
    assert locate("Flight LX 2084 leaves on 2026-05-14", (dated,)).loose


def test_a_cassette_entry_holding_a_lone_surrogate_is_refused_naming_file_and_line(tmp_path):
    # A cassette written or edited by another tool: Python's json.dumps writes a reply
    # holding a lone surrogate (an API's "\ud800") as that escape. referee records such a
    # reply as its backslash escape, so only a foreign file holds one; loading it must say
    # which file and line, where it raised "'utf-8' codec can't encode character" alone.
    example = (Path(__file__).parent.parent / "examples" / "booking-skill" / "judge.cassette.jsonl")
    meta, first = example.read_text(encoding="utf-8").split("\n")[:2]
    entry = json.loads(first)
    entry["reply"] = entry["reply"][:40] + "\ud800"
    path = tmp_path / "c.jsonl"
    path.write_text(meta + "\n" + json.dumps(entry) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{path}:2: .*reply.*lone surrogate"):
        cassette.load(path)
