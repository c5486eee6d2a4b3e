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


# --- imported from bytes that are not UTF-8 ---------------------------------------------------

NAME_CHECK = 'eval 1\nexpect 1: no calls where .args.path == "résumé.md"\nexpect 2: count(calls) == 2\n'
_ARGS = {"path": "résumé.md"}


def _imported_outcomes(tmp_path: Path, name: str, data: bytes, rules: str = NAME_CHECK) -> list[list[str]]:
    source = tmp_path / name
    source.write_bytes(data)
    return [[item["outcome"] for item in result.expectations] for result in referee.grade(rules, source, as_eval="1")]


def _chat() -> list[dict]:
    import json

    call = {"id": "c1", "type": "function", "function": {"name": "Write", "arguments": json.dumps(_ARGS, ensure_ascii=False)}}
    other = {"id": "c2", "type": "function", "function": {"name": "Read", "arguments": "{}"}}
    return [{"role": "user", "content": "write it"}, {"role": "assistant", "content": None, "tool_calls": [call, other]},
            {"role": "tool", "tool_call_id": "c1", "content": "ok"}, {"role": "tool", "tool_call_id": "c2", "content": "ok"},
            {"role": "assistant", "content": "Wrote résumé.md"}]


def _latin1(text: str) -> bytes:
    """A harness's log written in Latin-1 (cp1252 on Windows): its accents are bytes
    that are not UTF-8, read with replacement characters."""
    return text.encode("latin-1")


def test_a_call_read_from_bytes_that_are_not_utf8_is_unsure(tmp_path: Path):
    # "résumé.md" read as "r\ufffdsum\ufffd.md": the check that no call wrote it passed.
    import json

    document = json.dumps(_chat(), ensure_ascii=False, indent=2)
    assert _imported_outcomes(tmp_path, "chat.json", document.encode("utf-8")) == [["fail", "pass"]]
    assert _imported_outcomes(tmp_path, "chat.json", _latin1(document)) == [["error", "pass"]]
    lines = "\n".join(json.dumps(m, ensure_ascii=False) for m in _chat()) + "\n"
    assert _imported_outcomes(tmp_path, "chat.jsonl", _latin1(lines)) == [["error", "pass"]]
    results = json.dumps([{"traj": _chat(), "reward": 1}], ensure_ascii=False, indent=1)
    assert _imported_outcomes(tmp_path, "results.json", _latin1(results)) == [["error", "pass"]]


def test_only_the_conversation_of_the_line_that_is_not_utf8_is_unsure(tmp_path: Path):
    import json

    plain = json.dumps({"messages": [{"role": "assistant", "tool_calls": [
        {"id": "x", "function": {"name": "Read", "arguments": "{}"}},
        {"id": "y", "function": {"name": "Read", "arguments": "{}"}}]}]})
    lossy = json.dumps({"messages": _chat()}, ensure_ascii=False)
    data = plain.encode() + b"\n" + _latin1(lossy) + b"\n"
    assert _imported_outcomes(tmp_path, "chats.jsonl", data) == [["pass", "pass"], ["error", "pass"]]


def test_a_claude_code_record_that_is_not_utf8_leaves_its_call_unsure(tmp_path: Path):
    import json

    records = [{"type": "user", "sessionId": "s", "uuid": "u", "message": {"role": "user", "content": "write it"}},
               {"type": "assistant", "sessionId": "s", "uuid": "a", "message": {"id": "m", "role": "assistant", "content": [
                   {"type": "tool_use", "id": "t1", "name": "Write", "input": _ARGS},
                   {"type": "tool_use", "id": "t2", "name": "Read", "input": {}}]}},
               {"type": "user", "sessionId": "s", "uuid": "r", "message": {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
                   {"type": "tool_result", "tool_use_id": "t2", "content": "ok"}]}},
               # the agent's last words: a session that ends at a call's answer leaves the calls unknown
               {"type": "assistant", "sessionId": "s", "uuid": "d", "message": {
                   "id": "d", "role": "assistant", "stop_reason": "end_turn", "content": [{"type": "text", "text": "Done."}]}}]
    text = "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n"
    assert _imported_outcomes(tmp_path, "session.jsonl", text.encode("utf-8")) == [["fail", "pass"]]
    assert _imported_outcomes(tmp_path, "session.jsonl", _latin1(text)) == [["error", "pass"]]


def test_a_response_imported_from_bytes_that_are_not_utf8_cannot_be_used(tmp_path: Path, capsys):
    # The executor log of test_an_executor_log_not_utf8_gives_no_vacuous_pass_on_its_answer,
    # imported: its ## Final Result, the response, was written clean and the negative
    # check on it passed.
    from referee.engine.cli import main

    log = tmp_path / "log" / "transcript.md"
    log.parent.mkdir()
    log.write_bytes(LOG.encode("latin-1"))
    assert main(["import", "skill-creator-log", str(log), "--out", str(tmp_path / "ws"), "--eval", "1"]) == 0
    rules = 'eval 1\nexpect 1: not response contains "café"\nexpect 2: response contains "est"\n'
    (result,) = referee.grade(rules, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert "not UTF-8" in result.expectations[0]["evidence"]
    chat = _chat()
    import json

    source = tmp_path / "chat.json"
    source.write_bytes(_latin1(json.dumps(chat, ensure_ascii=False)))
    (result,) = referee.grade('eval 1\nexpect 1: not response contains "résumé"\n', source, as_eval="1")
    assert result.expectations[0]["outcome"] == "error"


def test_a_link_among_the_outputs_is_listed_and_a_linked_folder_leaves_the_list_unknown(tmp_path: Path):
    # The .env linked into outputs/ (a path outside the run) was left out of the list
    # of outputs, so 'no outputs where . == ".env"' passed while the link was there;
    # a linked folder is not walked, so what it holds is not in the list either.
    outside = tmp_path / "secret.env"
    outside.write_text("KEY=1")
    run = _run(tmp_path / "ws", {"outputs/transcript.md": RECORD.encode(), "outputs/response.md": b"done"})
    os.symlink(outside, run / "outputs" / ".env")
    check = 'no outputs where . == ".env"'
    assert _outcomes(run, check)[check][0] == "fail"
    other = _run(tmp_path / "ws2", {"outputs/transcript.md": RECORD.encode(), "outputs/response.md": b"done"})
    (other / "kept").mkdir()
    (other / "kept" / ".env").write_text("KEY=1")
    os.symlink(other / "kept", other / "outputs" / "kept")
    outcome, evidence = _outcomes(other, 'no outputs where . ends with ".env"')['no outputs where . ends with ".env"']
    assert outcome == "error" and "outputs/kept is a link to a folder" in evidence, evidence
