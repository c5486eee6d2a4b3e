"""Claude Code logs around one hook's record, for the tests of what a hook did.

What a hook gave the agent: a stream (stream-json) around one hook_response record,
graded by rules that ask whether the agent was told "deploy" (``write_stream``,
``graded``). What a hook did to a call: one turn whose calls are answered before the
agent says "Done.", with the hook's record among them, as a stream (``call_stream``)
or as a session (``call_session``)."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: no harness where .text contains "deploy"\nexpect 2: response contains "Fixed"\n'
INIT = {"type": "system", "subtype": "init", "cwd": "/w", "session_id": "s", "tools": [], "model": "m"}
HEAD = [INIT, {"type": "user", "message": {"role": "user", "content": "fix it"}, "session_id": "s"}]
TAIL = [{"type": "assistant", "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                                          "content": [{"type": "text", "text": "Fixed."}]}, "session_id": "s"},
        {"type": "result", "subtype": "success", "is_error": False, "result": "Fixed.", "session_id": "s"}]
DONE = {"id": "m2", "role": "assistant", "stop_reason": "end_turn", "content": [{"type": "text", "text": "Done."}]}


def write_jsonl(source: Path, records: list[dict]) -> Path:
    """``records`` written to ``source``, one JSON line each."""
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return source


def write_stream(tmp_path: Path, response: dict) -> Path:
    """The stream with ``response`` between the user's turn and the agent's reply."""
    return write_jsonl(tmp_path / "stream.jsonl", [*HEAD, response, *TAIL])


def graded(tmp_path: Path, response: dict) -> tuple[list[str], list[str]]:
    """The outcomes of RULES on that stream, and its problems."""
    grading = referee.grade(RULES, write_stream(tmp_path, response), as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


# --- one turn of calls, with a hook's record among them ----------------------------------


def hook_response(printed: object, event: str, tool: str, exit_code: int = 0) -> dict:
    """The record a stream reports a hook of ``event`` for ``tool`` with (naming no call):
    it printed ``printed`` (a JSON answer, text as it is) and exited with ``exit_code``."""
    stdout = printed if isinstance(printed, str) else json.dumps(printed)
    return {"type": "system", "subtype": "hook_response", "hook_id": "h", "hook_name": f"{event}:{tool}",
            "hook_event": event, "output": stdout, "stdout": stdout, "stderr": "no" if exit_code == 2 else "",
            "exit_code": exit_code, "outcome": "success" if exit_code == 0 else "error", "uuid": "x1",
            "session_id": "s"}


def call_stream(tmp_path: Path, calls: list[dict], hook: dict, results: list[dict]) -> Path:
    """A stream of one turn: the user asks, the agent makes ``calls``, ``hook`` is
    reported, the calls are answered (``results``), and the agent says "Done."."""
    return write_jsonl(tmp_path / "stream.jsonl", [
        INIT, {"type": "user", "message": {"role": "user", "content": "list"}, "session_id": "s"},
        {"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": calls}, "session_id": "s"},
        hook,
        {"type": "user", "message": {"role": "user", "content": results}, "session_id": "s"},
        {"type": "assistant", "message": DONE, "session_id": "s"},
        {"type": "result", "subtype": "success", "is_error": False, "result": "Done.", "session_id": "s"}])


def session_record(kind: str, uuid: str, body: dict) -> dict:
    """A record of a session (Claude Code 2.x), after its first (``u1``)."""
    return {"type": kind, "uuid": uuid, "parentUuid": None if uuid == "u1" else "u1", "sessionId": "s",
            "isSidechain": False, "timestamp": "2026-06-07T05:00:00.000Z", **body}


def hook_success(printed: object, event: str, tool: str, call_id: str = "t1", exit_code: int = 0) -> dict:
    """The attachment a session keeps what a hook of ``event`` for the call ``call_id``
    of ``tool`` printed in (a JSON answer, else as it is, text or not)."""
    stdout = json.dumps(printed) if isinstance(printed, dict) else printed
    return session_record("attachment", "h1", {"attachment": {
        "type": "hook_success", "hookName": f"{event}:{tool}", "hookEvent": event, "toolUseID": call_id,
        "content": "", "stdout": stdout, "stderr": "", "exitCode": exit_code, "command": "hook.sh"}})


def call_session(tmp_path: Path, prompt: str, calls: list[dict], results: list[dict], hook: dict,
                 hook_at: int = 2) -> Path:
    """A session of one turn: the user asks ``prompt``, the agent makes ``calls``, they
    are answered (``results``), and the agent says "Done."; ``hook`` is the record at
    ``hook_at`` (2: right after the calls)."""
    records = [session_record("user", "u1", {"message": {"role": "user", "content": prompt}}),
               session_record("assistant", "a1", {"message": {"id": "m1", "role": "assistant", "content": calls}}),
               session_record("user", "u2", {"message": {"role": "user", "content": results}}),
               session_record("assistant", "a2", {"message": DONE})]
    records.insert(hook_at, hook)
    return write_jsonl(tmp_path / "session.jsonl", records)
