"""What ``referee grade`` prints: nothing a reader needs may stay hidden in grading.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

LONG = "x" * 400
RULES = f"""
eval 1 "lookup"
expect "only soft deletes": all calls to "deleteThing" have .args.soft == true
expect "looks the order up": any calls to "getOrdr" have .args.id == "7"
expect "says the long word": response contains "{LONG}"
expect "says the order": response contains "order 7"
"""


@pytest.fixture
def ws(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for config in ("with_skill", "without_skill"):
        out = tmp_path / "ws" / "eval-1-lookup" / config / "run-1" / "outputs"
        out.mkdir(parents=True)
        reply = "Here is order 7.\n" if config == "with_skill" else "Done.\n"
        (out / "response.md").write_text(reply, encoding="utf-8")
        (out / "transcript.md").write_text(
            "## [tool_calls] Step 1: getOrder\nTool: getOrder\nArgs: {\"id\": \"7\"}\n"
            "Return: {\"ok\": true}\nStatus: success\n\n"
            "## [agent_notes] Step 2\nI called getOrdr with id 7.\n", encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def grade(*extra: str) -> int:
    return main(["grade", "ws", "--rules", "r.rules", *extra])


def block(out: str, head: str) -> str:
    """The lines printed under the assertion line ``head`` (its notes and evidence)."""
    rest = out.split(head + "\n", 1)[1].splitlines()
    return "\n".join(line for line in _until_next(rest))


def _until_next(lines):
    for line in lines:
        if not line.startswith("          "):
            return
        yield line


def test_a_misspelt_tool_name_gets_its_hint_under_the_failure(ws, capsys):
    assert grade("--check") == 1
    out = capsys.readouterr().out
    under = block(out, "      x 1#2 looks the order up")
    assert "hint: selects calls to getOrdr, which no run of this eval called" in under
    assert under.index("check the tool name") < under.index("claims getOrdr was called")


def test_a_vacuous_pass_is_shown_as_one(ws, capsys):
    grade("--check")
    out = capsys.readouterr().out
    assert "~ 1#1 only soft deletes" in out
    assert "passed only because there was nothing to examine" in block(out, "      ~ 1#1 only soft deletes")


def test_verbose_shows_passes_and_whole_evidence(ws, capsys):
    grade("--check")
    short = capsys.readouterr().out
    assert LONG not in short and "ok 1#4 says the order" not in short
    grade("--check", "--verbose")
    full = capsys.readouterr().out
    assert LONG in full and "ok 1#4 says the order" in full


def test_the_files_written_are_named_or_it_says_none_were(ws, capsys):
    grade("--check")
    assert capsys.readouterr().out.splitlines()[-1] == "nothing was written (--check)"
    grade()
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "wrote grading.json and ground_truth.json in 2 run folders under ws"
    grade("-v")
    out = capsys.readouterr().out
    assert "  wrote ws/eval-1-lookup/without_skill/run-1/grading.json" in out


def test_json_lists_every_assertion_and_a_schema_version(ws, capsys):
    grade("--check", "--json")
    document = json.loads(capsys.readouterr().out)
    assert document["schema_version"] == 2
    run = document["runs"][0]
    assert [e["key"] for e in run["expectations"]] == ["1#1", "1#2", "1#3", "1#4"]
    assert run["expectations"][3]["outcome"] == "pass"
    assert run["eval_feedback"]["suggestions"]


def test_colour_is_forced_or_refused(ws, capsys, monkeypatch):
    grade("--check")
    assert "\033[" not in capsys.readouterr().out
    grade("--check", "--color", "always")
    assert "\033[31m" in capsys.readouterr().out
    monkeypatch.setenv("FORCE_COLOR", "1")
    grade("--check")
    assert "\033[" in capsys.readouterr().out
    grade("--check", "--color", "never")
    assert "\033[" not in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "1")
    grade("--check")
    assert "\033[" not in capsys.readouterr().out


def test_selection_grades_one_configuration(ws, capsys):
    assert grade("--check", "--config", "with_skill") == 1
    out = capsys.readouterr().out
    assert "with_skill/run-1" in out and "without_skill" not in out
    assert grade("--check", "--eval", "nope") == 2
    assert "matches --eval nope" in capsys.readouterr().err


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip().startswith("referee ")


def test_a_runs_lines_from_the_parts_they_show_are_its_lines_from_the_whole_report():
    # The grade command reads (and makes inert) only RunReport.shown of each report;
    # whatever else the report holds, hostile text included, the lines are the same.
    from referee.engine.grade import RulesSource, grade_all, grader_info
    from referee.engine.report import terminal
    from referee.engine.report.inert import inert_data
    from referee.engine.report.run_report import RunReport
    from referee.engine.run.workspace import discover

    repo = Path(__file__).resolve().parents[1]
    rules = repo / "examples" / "booking-skill" / "booking.rules"
    source = RulesSource(((rules.name, rules.read_text(encoding="utf-8")),))
    graded = [g for g in grade_all(source.compile(), discover(repo / "examples" / "booking-skill-workspace").runs,
                                   source, grader_info()) if g]
    hostile = "\x1b[2K\rPASS \u202e 值"
    for g in graded:
        document = json.loads(g.grading)
        for item in document["expectations"]:
            item.update(text=item["text"] + hostile, evidence=hostile + item["evidence"])
        for tip in document["eval_feedback"]["suggestions"]:
            tip["reason"] += hostile
        for verbose in (False, True):
            for color in (False, True):
                whole = terminal.run_lines(g.brief, "", color, inert_data(document), verbose)
                shown = terminal.run_lines(g.brief, "", color, inert_data(RunReport(document).shown()), verbose)
                assert shown == whole and "\x1b[2K" not in "".join(shown)


def _warned(tmp_path: Path) -> None:
    """The without_skill run gets a warning: its metrics count calls its transcript lacks."""
    out = tmp_path / "ws" / "eval-1-lookup" / "without_skill" / "run-1" / "outputs"
    (out / "transcript.md").write_text("## [agent_notes] Step 1\nI looked it up.\n", encoding="utf-8")
    (out / "metrics.json").write_text(json.dumps({"total_tool_calls": 3}), encoding="utf-8")


def test_a_runs_warnings_stand_under_its_line_once(ws, capsys):
    _warned(ws)
    grade("--check", "--color", "never")
    out = capsys.readouterr().out
    runs = out.split("\n", 1)[1].split("FAIL  eval-1-lookup/without_skill/run-1")
    assert "warning:" not in out.split("\n", 1)[0] + runs[0]
    under = runs[1].splitlines()[1]
    assert under.startswith("      warning: ") and "metrics-without-calls" in under
    assert out.count("metrics-without-calls") == 1


def test_a_runs_warnings_are_in_its_json_entry(ws, capsys):
    _warned(ws)
    grade("--check", "--json")
    document = json.loads(capsys.readouterr().out)
    first, second = document["runs"]
    assert "warnings" not in first  # a run with none has no such member
    assert len(second["warnings"]) == 1 and "metrics-without-calls" in second["warnings"][0]
    assert list(second).index("warnings") == list(second).index("failed") + 1


def test_a_runs_uncounted_calls_are_found_once_for_its_calls_and_its_warnings(ws, capsys, monkeypatch):
    import referee.engine.run.uncounted as uncounted

    _warned(ws)
    asked = []
    monkeypatch.setattr(uncounted, "counted_calls", lambda value: asked.append(value) or 3)
    grade("--check", "--json")
    assert "metrics-without-calls" in capsys.readouterr().out
    assert len(asked) == 2  # one value per run, read by the calls and by the warnings alike


def test_an_evals_hints_stand_under_its_first_run_only(ws, capsys):
    grade("--check", "--color", "never")
    out = capsys.readouterr().out
    assert out.count("hint: selects calls to getOrdr") == 1
    assert out.index("hint: selects calls to getOrdr") < out.index("FAIL  eval-1-lookup/without_skill/run-1")
