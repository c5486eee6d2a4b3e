"""The response, wherever the harness put it (engine/run/reading.py): a file the harness
names (--response, evals.json's response_file), outputs/response.md, or the whole
``## Final Result`` section of an executor log; the same whether the log is graded as
it lies or imported first."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.cli import main
from referee.engine.run.workspace import discover, load_run

LOG = """# Eval Execution Transcript

## Eval Prompt
Check the run tasks for run-1

## Execution

### Step 1: Run the script
**Action**: Ran it.
**Tool**: Bash `bash get.sh run-1`
**Result**: Success.

## Final Result

### Run Task Results for `run-1`

**Total tasks**: 1 | Passed: 0 | Failed: 1

---

| Task Name | Status |
|-----------|--------|
| Cloudability | failed |

- stage: post_plan
- enforcement: advisory

```
## Issues inside a fence is text
```

## Issues
- None
"""
RULES = """eval 0
expect "table": response contains "| Cloudability | failed |"
expect "own heading": response contains "### Run Task Results"
expect "rule and list": response contains "---\\n\\n| Task Name" and response contains "- enforcement: advisory"
expect "fence kept": response contains "## Issues inside a fence"
expect "issues left out": not response contains "- None"
expect "no rm": not response contains "rm -rf"
expect "no bash": no calls to "Bash"
"""
WANT = ["pass", "pass", "pass", "pass", "pass", "pass", "error"]


def _log_run(root: Path, where: str = "transcript.md") -> Path:
    run = root / "eval-0" / "with_skill"
    (run / "outputs").mkdir(parents=True)
    (run / where).write_text(LOG, encoding="utf-8")
    return run


def _outcomes(results) -> list[str]:
    return [e["outcome"] for e in results[0].expectations]


def test_an_executor_log_graded_as_it_lies_answers_with_its_whole_final_result(tmp_path):
    run = _log_run(tmp_path)
    results = referee.grade(RULES, tmp_path)
    assert _outcomes(results) == WANT
    table = results[0].expectations[0]
    assert table["evidence_location"][0]["file"] == "transcript.md"
    assert table["evidence_location"][0]["line"] == LOG.split("\n").index("| Cloudability | failed |") + 1
    assert "calls cannot be checked" in results[0].expectations[-1]["evidence"]
    assert load_run(run).response.section == "## Final Result"


def test_the_imported_log_gives_the_same_verdicts(tmp_path):
    run = _log_run(tmp_path / "as-it-lies", "outputs/transcript.md")
    assert main(["import", "skill-creator-log", str(run / "outputs" / "transcript.md"),
                 "--out", str(tmp_path / "imported"), "--eval", "0", "--config", "with_skill"]) == 0
    imported = tmp_path / "imported" / "eval-0" / "with_skill" / "run-1"
    response = (imported / "outputs" / "response.md").read_text(encoding="utf-8")
    assert response.startswith("### Run Task Results") and "- None" not in response
    assert _outcomes(referee.grade(RULES, imported)) == _outcomes(referee.grade(RULES, run)) == WANT


def test_show_says_which_section_it_took(tmp_path, capsys):
    run = _log_run(tmp_path)
    assert main(["show", str(run)]) == 0
    lines = LOG.split("\n")
    first, last = lines.index("### Run Task Results for `run-1`") + 1, lines.index("## Issues") - 1
    assert f'bytes, the "## Final Result" section of transcript.md (lines {first}-{last})' in capsys.readouterr().out


def test_a_named_response_file_is_the_response(tmp_path, capsys):
    run = tmp_path / "eval-1" / "with_skill"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "result.md").write_text("# Rewritten\n\nThe plain version.\n", encoding="utf-8")
    (run / "outputs" / "response.md").write_text("I rewrote it; see result.md.\n", encoding="utf-8")
    rules = 'eval 1\nexpect "delivered": response contains "plain version"\n'
    assert _outcomes(referee.grade(rules, tmp_path)) == ["fail"]
    (result,) = referee.grade(rules, tmp_path, response="outputs/result.md")
    assert result.expectations[0]["outcome"] == "pass"
    assert "result.md contains" in result.expectations[0]["evidence"]
    assert main(["show", str(run), "--response", "outputs/result.md"]) == 0
    assert "response: 32 bytes, outputs/result.md (named by --response)" in capsys.readouterr().out
    path = tmp_path / "r.rules"
    path.write_text(rules, encoding="utf-8")
    assert main(["grade", str(tmp_path), "--rules", str(path), "--response", "outputs/result.md", "--check"]) == 0


def test_a_named_response_file_that_is_missing_fails_and_is_warned(tmp_path):
    run = tmp_path / "eval-1" / "with_skill"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "notes.md").write_text("summary\n", encoding="utf-8")
    (result,) = referee.grade('eval 1\nexpect "x": response contains "summary"\n', tmp_path, response="outputs/result.md")
    assert result.expectations[0]["outcome"] == "fail"
    assert "outputs/result.md (--response) is missing or empty" in result.expectations[0]["evidence"]
    found = discover(tmp_path, referee_responses("outputs/result.md")).runs[0].load()
    assert [p.code for p in found.problems] == ["no-response"]
    # The run holds outputs/response.md: it may be the answer this run gave, so the
    # response is unknown; taken as missing, 'not response contains' passed on it.
    (run / "outputs" / "response.md").write_text("summary\n", encoding="utf-8")
    (result,) = referee.grade('eval 1\nexpect "x": not (response contains "summary")\n', tmp_path,
                              response="outputs/result.md")
    assert result.expectations[0]["outcome"] == "error"
    assert "named by --response is missing or empty in this run, which has outputs/response.md" in \
        result.expectations[0]["evidence"]
    escape = discover(tmp_path, referee_responses("../x.md")).runs[0].load()
    # named, but leaving the run folder: not read, so unknown (never missing)
    assert escape.response.unreadable is not None and [p.code for p in escape.problems] == ["bad-response"]


def referee_responses(path: str):
    from referee.engine.run.reading import ResponseFiles

    return ResponseFiles(path)


def test_evals_json_names_the_response_file_of_an_eval(tmp_path):
    for eval_id in (1, 2):
        outputs = tmp_path / f"eval-{eval_id}" / "with_skill" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "result.md").write_text("delivered\n", encoding="utf-8")
        (outputs / "response.md").write_text("summary\n", encoding="utf-8")
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"evals": [
        {"id": 1, "prompt": "p", "expectations": ["says delivered"], "response_file": "outputs/result.md"},
        {"id": 2, "prompt": "p", "expectations": ["says delivered"]}]}), encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect 1: response contains "delivered"\neval 2\nexpect 1: response contains "delivered"\n',
                     encoding="utf-8")
    results = referee.grade(rules.read_text(encoding="utf-8"), tmp_path, evals=evals)
    assert [r.expectations[0]["outcome"] for r in results] == ["pass", "fail"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"evals": [{"id": 1, "prompt": "p", "expectations": [], "response_file": 3}]}', encoding="utf-8")
    assert main(["grade", str(tmp_path), "--rules", str(rules), "--evals", str(bad), "--check"]) == 2


def test_an_import_takes_the_delivered_file_over_the_log(tmp_path, capsys):
    run = _log_run(tmp_path / "src", "outputs/transcript.md")
    (run / "outputs" / "result.md").write_text("The delivered report.\nSecond line.\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["import", "skill-creator-log", str(run / "outputs" / "transcript.md"), "--out", str(out),
                 "--response", "outputs/result.md"]) == 0
    written = out / "transcript"
    assert (written / "outputs" / "response.md").read_text(encoding="utf-8") == "The delivered report.\nSecond line.\n"
    (result,) = referee.grade('eval "transcript"\nexpect "x": response contains "Second line"\n', written)
    assert result.expectations[0]["outcome"] == "pass"
    assert "result.md:2" in result.expectations[0]["evidence"]  # cited in the delivered file itself


def test_show_takes_the_response_file_evals_json_names(tmp_path, capsys):
    run = tmp_path / "eval-1" / "with_skill"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "result.md").write_text("delivered\n", encoding="utf-8")
    (run / "outputs" / "response.md").write_text("a summary\n", encoding="utf-8")
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"evals": [{"id": 1, "prompt": "p", "expectations": ["x"],
                                            "response_file": "outputs/result.md"}]}), encoding="utf-8")
    assert main(["show", str(tmp_path), "--evals", str(evals)]) == 0
    assert "outputs/result.md (named by response_file in evals.json)" in capsys.readouterr().out
    assert main(["show", str(tmp_path)]) == 0
    assert "outputs/response.md" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('{"evals": [{"id": 1, "prompt": "p", "expectations": [], "response_file": 3}]}', encoding="utf-8")
    assert main(["show", str(tmp_path), "--evals", str(bad)]) == 2
    assert "bad.json:" in capsys.readouterr().err
    assert main(["show", str(tmp_path), "--evals", str(tmp_path / "none.json")]) == 2
    assert "evals file not found" in capsys.readouterr().err
    assert main(["show", str(tmp_path), "--evals", str(tmp_path / "eval-1")]) == 2
    assert "evals file is not a regular file" in capsys.readouterr().err


def test_a_log_with_two_final_results_answers_with_the_last():
    from referee.engine.run.executor_log import final_result
    log = "# Log\n\n## Final Result\n\ndraft answer\n\n## Final Result\n\nthe real final answer\n"
    found = final_result(log)
    assert found is not None and found.text == "the real final answer"
