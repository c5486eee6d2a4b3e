"""A subagent's transcript that ends with the subagent at work (its last step a call,
answered or not, and nothing after it that ends a turn) does not hold the rest of its
work: a call's answer goes back to the subagent, which carries on. Claude Code 2.x runs
an Agent call in the background by default, so a session copied while the subagent
works holds its transcript so far, and a transcript cut short ends so too; the answer to
such a call (``async_launched``) counts no calls. The calls made after the transcript's
last line are unknown: every check over the run's calls is an ERROR
(``calls-may-be-missing``), never a pass on the calls read. A subagent whose Task call
failed (the user interrupted it) stopped there, and one whose answer counts its calls
(``totalToolUseCount``), all of them held and answered, lacks only its last words: both
are read as they are. A subagent in a stream (its messages grouped under its Task call)
is not judged so: a stream leaves a subagent's words out."""

from __future__ import annotations

import json
from pathlib import Path

from openai_chat import checks_graded

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"
# A real Claude Code 2.1.293 session's Agent call, launched in the background, and its answer
LAUNCH = REAL / "hook-harness-probe" / "agente-pai.jsonl"
# A real session's work (five Bash calls, the last an error, three Edits), read here as
# the subagent's transcript
WORK = REAL / "coverage-test-fix" / "transcript.jsonl"
AGENT = "a37464c2ec09cda59"
# Negative checks the whole subagent's work fails
NEGATIVE = ['count(calls to "Bash") <= 1', 'no calls to "Edit"', "no calls with status error"]


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _main(answer: dict | None = None) -> list[dict]:
    """The real Agent call and its real answer (``answer`` in place of its
    toolUseResult, when given), after a prompt and before the main agent's reply."""
    call, _, told = _lines(LAUNCH)
    prompt = {"type": "user", "sessionId": told["sessionId"], "uuid": "p-0", "parentUuid": None,
              "cwd": told["cwd"], "message": {"role": "user", "content": "Start an agent on the briefing"}}
    call = {**call, "parentUuid": "p-0"}
    told = {**told, "toolUseResult": answer} if answer is not None else told
    reply = {"type": "assistant", "sessionId": told["sessionId"], "uuid": "r-0", "parentUuid": told["uuid"],
             "cwd": told["cwd"], "message": {"id": "m-r0", "role": "assistant", "model": "claude-haiku-5-5",
                                             "stop_reason": "end_turn",
                                             "content": [{"type": "text", "text": "The agent is at work."}]}}
    return [prompt, call, told, reply]


def _work() -> list[dict]:
    """The real work, as the subagent's transcript: each record a sidechain of the agent,
    in the session of its Agent call, its first request the call's prompt (as a
    subagent's transcript starts)."""
    call = _lines(LAUNCH)[0]
    records = [{**record, "isSidechain": True, "agentId": AGENT, "sessionId": call["sessionId"]}
               for record in _lines(WORK)]
    first = next(n for n, record in enumerate(records) if record.get("type") == "user")
    prompt = call["message"]["content"][0]["input"]["prompt"]
    records[first] = {**records[first], "message": {**records[first]["message"], "content": prompt}}
    return records


def _at_work(record: dict) -> bool:
    """Whether a transcript cut after ``record`` ends with the agent at work: the record
    is a call of the agent, or a call's answer."""
    content = record.get("message", {}).get("content")
    kinds = {part.get("type") for part in content if isinstance(part, dict)} if isinstance(content, list) else set()
    return "tool_use" in kinds or "tool_result" in kinds


def _session(folder: Path, main: list[dict], work: list[dict]) -> Path:
    source = folder / "s.jsonl"
    (folder / "s" / "subagents").mkdir(parents=True)
    source.write_text("".join(json.dumps(r) + "\n" for r in main), encoding="utf-8")
    (folder / "s" / "subagents" / f"agent-{AGENT}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in work),
                                                                     encoding="utf-8")
    return source


CUTS = [n for n, record in enumerate(_work(), start=1) if _at_work(record)]


def test_a_subagent_at_work_in_the_background_never_passes_a_check_its_work_fails(tmp_path: Path):
    # Before, the transcript cut after line 19 (the answer to the subagent's first Bash
    # call) passed all three: the subagent made four more Bash calls and three Edits
    # after the cut, the last Bash call an error.
    work = _work()
    assert len(CUTS) == 26 and 19 in CUTS
    for n in CUTS:
        source = _session(tmp_path / str(n), _main(), work[:n])
        outcomes, problems = checks_graded(source, NEGATIVE)
        # never a pass: a FAIL where the subagent's calls read show it (an Edit read)
        assert set(outcomes) <= {"error", "fail"}, (n, outcomes)
        edited = any('"name": "Edit"' in json.dumps(record) for record in work[:n])
        assert outcomes[1] == ("fail" if edited else "error"), (n, outcomes)
        assert any(p.startswith(f"agent-{AGENT}.jsonl:{n}: ") and "calls-may-be-missing" in p
                   and "subagent at work" in p for p in problems), (n, problems)


def test_the_whole_work_of_a_subagent_in_the_background_fails_the_checks(tmp_path: Path):
    outcomes, problems = checks_graded(_session(tmp_path, _main(), _work()), NEGATIVE)
    assert outcomes == ["fail"] * len(NEGATIVE)
    assert not any("subagent at work" in p for p in problems)


def test_a_subagent_whose_task_was_interrupted_stopped_at_its_call(tmp_path: Path):
    """The user interrupted the Task: its answer is an error, and the subagent stopped
    after the call it made then. Its calls read are all it made."""
    main = _main()
    main[2] = {**main[2], "toolUseResult": "Error: [Request interrupted by user for tool use]",
               "message": {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": main[1]["message"]["content"][0]["id"], "is_error": True,
                    "content": "[Request interrupted by user for tool use]"}]}}
    outcomes, problems = checks_graded(_session(tmp_path, main, _work()[:19]), ['count(calls to "Bash") <= 1'])
    assert outcomes == ["pass"]
    assert not any("subagent at work" in p for p in problems)


def test_a_subagent_whose_answer_counts_the_calls_it_holds_lacks_only_its_words(tmp_path: Path):
    """The Task's answer counts the subagent's calls, and its transcript, cut after the
    answer to its last call, holds them all: only its last words are not there."""
    work = _work()
    last = max(CUTS)
    calls = sum(isinstance(r["message"].get("content"), list) and any(
        isinstance(p, dict) and p.get("type") == "tool_use" for p in r["message"]["content"])
        for r in work[:last] if isinstance(r.get("message"), dict) and r.get("type") == "assistant")
    answer = {"status": "completed", "agentId": AGENT, "totalToolUseCount": calls, "content": []}
    outcomes, problems = checks_graded(_session(tmp_path, _main(answer), work[:last]), NEGATIVE)
    assert outcomes == ["fail"] * len(NEGATIVE)
    assert not any("subagent at work" in p for p in problems)


def test_a_subagent_that_took_its_prompt_with_thinking_alone_is_at_work(tmp_path: Path):
    """Its transcript ends at its thinking, which Claude Code writes before the words or
    the call the subagent goes on with: what it did next is not there. Before, its calls
    read (none) passed every check over them."""
    work = _work()
    first = next(n for n, record in enumerate(work) if record.get("type") == "user")
    thinking = {**work[first], "type": "assistant", "uuid": "k-1", "parentUuid": work[first].get("uuid"),
                "message": {"id": "m-k1", "role": "assistant", "model": "claude-haiku-5-5", "stop_reason": None,
                            "content": [{"type": "thinking", "thinking": "Run make first.", "signature": "x"}]}}
    outcomes, problems = checks_graded(_session(tmp_path, _main(), work[:first + 1] + [thinking]),
                                       ['no calls to "Bash"'])
    assert outcomes == ["error"]
    assert any(p.startswith(f"agent-{AGENT}.jsonl:{first + 2}: ") and "calls-may-be-missing" in p
               and "before its first words or call" in p for p in problems), problems
