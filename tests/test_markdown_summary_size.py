"""The Markdown summary is posted as a pull-request comment, and GitHub refuses a
comment over 65,536 characters: the summary always fits, however long the
evidence, and says how many failures it leaves out (the HTML report lists them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from referee.engine.cli import main

GITHUB_COMMENT_LIMIT = 65_536


def _graded(tmp_path: Path, runs: int, assertions: int, calls: int, argument: int) -> Path:
    workspace = tmp_path / "ws"
    for number in range(1, runs + 1):
        outputs = workspace / "eval-1-a" / "with_skill" / f"run-{number}" / "outputs"
        outputs.mkdir(parents=True)
        records = "".join(f"## [tool_calls] Step {step}: search\nTool: search\n"
                          f"Args: {json.dumps({'q': 'x' * argument + str(step)})}\nReturn: {{}}\nStatus: success\n\n"
                          for step in range(1, calls + 1))
        (outputs / "transcript.md").write_text(records, encoding="utf-8")
        (outputs / "response.md").write_text("done\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "a"\n' + "".join(f'expect "asks for cats {n}": any calls to "search" have '
                                            f'.args.q == "cats{n}"\n' for n in range(assertions)),
                     encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules)]) == 1
    return workspace


def test_failures_with_long_evidence_fit_in_a_comment(tmp_path: Path, capsys):
    # Input: 3 runs, each failing 20 assertions whose evidence cites 29 calls with an
    # argument of 50,000 characters. The summary listed 40 failures in 576,549
    # characters, which GitHub refuses as a comment.
    workspace = _graded(tmp_path, runs=3, assertions=20, calls=29, argument=50_000)
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 1
    text = capsys.readouterr().out
    assert len(text) <= GITHUB_COMMENT_LIMIT
    assert "### Failures (60)" in text
    shown = text.count("<details><summary><b>FAIL</b>")
    assert 0 < shown < 60
    assert f"... and {60 - shown} more failures (see the HTML report)." in text
    assert text.count("```text") == text.count("\n```\n") + text.count("\n````\n")  # every block closed


def test_one_failure_with_long_evidence_is_cut_and_says_so(tmp_path: Path, capsys):
    # Input: one run failing one assertion whose evidence cites 200 calls: its block
    # alone held every cited line.
    workspace = _graded(tmp_path, runs=1, assertions=1, calls=200, argument=2_000)
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 1
    text = capsys.readouterr().out
    assert len(text) <= GITHUB_COMMENT_LIMIT
    assert text.count("<details><summary><b>FAIL</b>") == 1
    assert re.search(r"\(cut at [0-9,]+ characters: the HTML report and the JUnit file hold more\)", text)


def test_many_problems_and_long_names_fit_in_a_comment(tmp_path: Path, capsys):
    # Input: a graded run beside 400 runs with no grading.json (a problem each), in an
    # eval whose name (eval_metadata.json) is 100,000 characters, with a hint.
    workspace = _graded(tmp_path, runs=1, assertions=1, calls=1, argument=10)
    for number in range(1, 401):
        outputs = workspace / "eval-1-a" / "without_skill" / f"run-{number}" / "outputs"
        outputs.mkdir(parents=True)
    (workspace / "eval-1-a" / "eval_metadata.json").write_text(
        json.dumps({"eval_id": 1, "eval_name": "<" * 100_000}), encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + 'expect "a file": exists file "nope.csv"\n', encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(rules), "--config", "with_skill"])
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 1
    text = capsys.readouterr().out
    assert len(text) <= GITHUB_COMMENT_LIMIT
    assert "... and 380 more problems (see the HTML report)." in text
    assert "<details><summary><b>FAIL</b> 1#1 asks for cats 0" in text


def test_a_release_reason_listing_every_eval_fits_in_a_comment(tmp_path: Path, capsys):
    # Input: 160 evals with one run per configuration, the configurations named with 245
    # and 248 characters; aggregate's "runs" reason lists each eval and configuration
    # short of runs (about 83,000 characters). The summary wrote the reason whole: 87,384
    # characters, a comment GitHub refuses.
    workspace, rules = tmp_path / "ws", []
    for number in range(1, 161):
        for config, text in (("with_" + "a" * 240, "done"), ("without_" + "a" * 240, "nope")):
            outputs = workspace / f"eval-{number}-x" / config / "run-1" / "outputs"
            outputs.mkdir(parents=True)
            (outputs / "response.md").write_text(text + "\n", encoding="utf-8")
        rules.append(f'eval {number}\nexpect "says done": response contains "done"\n')
    (tmp_path / "r.rules").write_text("\n".join(rules), encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules")])
    main(["aggregate", str(workspace)])
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 3
    text = capsys.readouterr().out
    assert len(text) <= GITHUB_COMMENT_LIMIT
    reason = next(line for line in text.split("\n") if line.startswith("- conditional runs: "))
    assert len(reason) <= 320 and reason.endswith("…")
