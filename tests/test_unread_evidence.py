"""Runs laid out on disk whose evidence could not be read exactly: a negative check
on them is an ERROR, never a pass (docs/threat-model.md, "Evidence that cannot be
read fails closed")."""

from __future__ import annotations

import os
from pathlib import Path

import referee

RECORD = """## Eval Prompt

Summarise the files.

## [tool_calls] Step 1: bash
Tool: Bash
Args: {"command": "ls"}
Return: {"ok": true}
Status: success
"""

LOG = """# Eval Execution Transcript

## Eval Prompt
Write a short note about the cafe.

## Execution
### Step 1: look
**Tool**: Bash
**Result**: ok

## Final Result
Le caf\xe9 est ferm\xe9.

## Issues
none
"""


def _run(root: Path, files: dict[str, bytes]) -> Path:
    run = root / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    for rel, data in files.items():
        (run / rel).write_bytes(data)
    return run


def _outcomes(run: Path, *checks: str) -> dict[str, tuple[str, str]]:
    rules = "eval 1\n" + "".join(f"expect {n}: {check}\n" for n, check in enumerate(checks, 1))
    (result,) = referee.grade(rules, run)
    return {item["check"]: (item["outcome"], item["evidence"]) for item in result.expectations}


def test_metrics_json_that_is_not_utf8_is_an_error_never_a_pass(tmp_path):
    # A harness on Windows writes metrics.json in cp1252: a created file's name with
    # an accent is one byte that is not UTF-8. Read with replacement characters,
    # "résumé.pdf" was not in the list, so the negative check passed, while the
    # same file read as `file "metrics.json" as json` was an ERROR.
    metrics = b'{"tool_calls": {"Bash": 1}, "files_created": ["r\xe9sum\xe9.pdf"], "errors_encountered": 0}'
    run = _run(tmp_path, {"outputs/transcript.md": RECORD.encode(), "outputs/response.md": b"done",
                          "outputs/metrics.json": metrics, "timing.json": b'{"total_tokens": 10, "by": "Jos\xe9"}'})
    got = _outcomes(run, 'not ("résumé.pdf" in metrics.files_created)', "metrics.errors_encountered == 0",
                    "timing.total_tokens < 5000")
    for check, (outcome, evidence) in got.items():
        assert outcome == "error", (check, evidence)
        assert "cannot be used" in evidence and "not UTF-8" in evidence, evidence


def test_an_executor_log_not_utf8_gives_no_vacuous_pass_on_its_answer(tmp_path):
    # A skill-creator executor log graded as it lies, written in Latin-1 (an accented
    # word in its answer): its ## Final Result is the response, but the log could not
    # be read exactly, so the response was taken as missing and a negative check on
    # it passed "vacuously". The log imported reads the same words.
    run = _run(tmp_path, {"outputs/transcript.md": LOG.encode("latin-1")})
    got = _outcomes(run, 'not response contains "café"', "response is empty")
    for check, (outcome, evidence) in got.items():
        assert outcome == "error", (check, evidence)
        assert "outputs/transcript.md cannot be used" in evidence and "not UTF-8" in evidence, evidence


def test_an_output_that_cannot_be_read_does_not_read_as_absent(tmp_path):
    # The agent was told to leave no .env in outputs/ and linked it there instead of
    # copying it (ln -s ../../.env outputs/.env, a path outside the run), or left a
    # link to a file it removed, or a folder of that name: each is there, but was
    # not followed, so "does not exist" made the negative check pass.
    outside = tmp_path / "secret.env"
    outside.write_text("KEY=1")
    run = _run(tmp_path / "ws", {"outputs/transcript.md": RECORD.encode(), "outputs/response.md": b"done"})
    os.symlink(outside, run / "outputs" / ".env")
    os.symlink(run / "outputs" / "gone.txt", run / "outputs" / "draft.txt")
    (run / "outputs" / "node_modules").mkdir()
    got = _outcomes(run, 'not exists file ".env"', 'not exists file "draft.txt"', 'not exists file "node_modules"',
                    'not exists file "absent.txt"', 'exists file "response.md"')
    for name in (".env", "draft.txt", "node_modules"):
        outcome, evidence = got[f'not exists file "{name}"']
        assert outcome == "error" and f"file {name} cannot be used" in evidence, (name, evidence)
    assert got['not exists file "absent.txt"'][0] == "pass"
    assert got['exists file "response.md"'][0] == "pass"


def test_an_executor_log_quoting_a_record_heading_is_still_a_log(tmp_path):
    # An executor log graded as it lies, whose agent quotes the dual-section format
    # its skill asks for in a code block (a record heading among the quoted lines).
    # That quoted record, untrusted, made the log read as a record of one call: its
    # **Tool**: Bash line is a claim, yet 'no calls to "Bash"' passed, and its
    # ## Final Result was not taken for the response.
    log = LOG.replace("**Result**: ok\n", "**Result**: SKILL.md logs each call as:\n\n```markdown\n"
                      "## [tool_calls] Step 1: getInvoiceInfo\nTool: expense-mcp_getInvoiceInfo\n```\n")
    run = _run(tmp_path, {"outputs/transcript.md": log.encode("utf-8")})
    got = _outcomes(run, 'no calls to "Bash"', 'count(calls to "Bash") == 0', 'response contains "est fermé"')
    for check in ('no calls to "Bash"', 'count(calls to "Bash") == 0'):
        outcome, evidence = got[check]
        assert outcome == "error" and "skill-creator executor log" in evidence, (check, evidence)
    assert got['response contains "est fermé"'][0] == "pass"


def test_a_delivered_response_that_cannot_be_read_imports_nothing(tmp_path, capsys):
    # The harness linked its answer into outputs/ (a path outside the run) instead of
    # copying it. Graded as it lies, a check on the response is an ERROR; imported,
    # the log's own ## Final Result stood in for it, so 'not response contains' passed.
    from referee.engine.cli import main

    outside = tmp_path / "answer.md"
    outside.write_text("ERROR: nothing was booked\n", encoding="utf-8")
    run = _run(tmp_path / "ws", {"outputs/transcript.md": LOG.encode("utf-8")})
    os.symlink(outside, run / "outputs" / "response.md")
    assert main(["import", "skill-creator-log", str(run / "outputs" / "transcript.md"), "--out",
                 str(tmp_path / "out")]) != 0
    said = capsys.readouterr().err
    assert "response.md is there but cannot be read" in said and "nothing imported" in said
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("response.md"))


def test_a_named_response_that_is_missing_leaves_an_import_with_no_response(tmp_path):
    # --response names the file the harness delivers; this run did not deliver it.
    # Graded as it lies, the run has no response; imported, the agent's last words
    # stood in for it.
    import json

    records = [{"type": "user", "sessionId": "s", "uuid": "u", "message": {"role": "user", "content": "go"}},
               {"type": "assistant", "sessionId": "s", "uuid": "a", "message": {"id": "m", "role": "assistant",
                "content": [{"type": "text", "text": "Booked: see result.md."}]}}]
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    rules = 'eval 1\nexpect 1: response contains "Booked"\n'
    (result,) = referee.grade(rules, source, as_eval="1", response="outputs/result.md")
    assert result.expectations[0]["outcome"] == "fail"
    assert "no-response" in result.grading_json
