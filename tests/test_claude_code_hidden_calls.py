"""A Claude Code session that holds a call referee does not read never lets a check
over the run's calls pass: each session below holds a Bash call in a place the reader
skips, and ``no calls to "Bash"`` is an ERROR on it, never a PASS. Every session also
holds a Read call the reader reads, so the run has a record of calls, and ends as a
finished session does, with the agent's last words (``DONE``), unless a test is about
how a session's end is read: one that ends with the agent at work leaves the calls
unknown whatever it holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.cli import main

HEAD = ['{"type":"user","sessionId":"S1","uuid":"u0","message":{"role":"user","content":"do it"}}',
        '{"type":"assistant","sessionId":"S1","uuid":"a0","message":{"id":"m0","role":"assistant","content":'
        '[{"type":"tool_use","id":"t_read","name":"Read","input":{}}]}}',
        '{"type":"user","sessionId":"S1","uuid":"r0","message":{"role":"user","content":'
        '[{"type":"tool_result","tool_use_id":"t_read","content":"ok"}]}}']
BASH = '{"type":"tool_use","id":"t_b","name":"Bash","input":{"command":"rm -rf /"}}'
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: count(calls to "Read") == 1\n'


def _assistant(content: str, message: str = "m1") -> str:
    return ('{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"%s","role":"assistant",'
            '"content":%s}}' % (message, content))


HIDDEN = {
    "content-an-object": [_assistant(BASH)],
    "block-as-json-text": [_assistant(json.dumps([BASH]))],
    "block-in-a-list": [_assistant("[[" + BASH + "]]")],
    "block-type-capitalised": [_assistant('[{"type":"Tool_use","id":"t_b","name":"Bash","input":{}}]')],
    "block-of-an-unknown-type": [_assistant('[{"type":"computer_tool_use","id":"t_b","name":"Bash","input":{}}]')],
    "line-a-list": ["[" + _assistant("[" + BASH + "]") + "]"],
    "system-record": ['{"type":"system","sessionId":"S1","message":{"role":"assistant","content":[%s]}}' % BASH],
    "user-record": ['{"type":"user","sessionId":"S1","uuid":"x","message":{"role":"assistant","content":[%s]}}'
                    % BASH],
    "summary-record": ['{"type":"summary","summary":"s","message":{"content":[%s]}}' % BASH],
    "task-cut-off": [_assistant('[{"type":"tool_use","id":"t_task","name":"Task","input":{"prompt":"sub"}}]')],
    "record-of-another-type": ['{"type":"event","sessionId":"S1","data":{"type":"Tool_use","name":"Bash","input":{}}}'],
    "message-as-json-text": ['{"type":"assistant","sessionId":"S1","uuid":"a1","message":%s}'
                             % json.dumps('{"content":[{"type":"tool\\u005fuse","name":"Bash","input":{}}]}')],
    "text-block-an-object": [_assistant('[{"type":"text","text":' + BASH + "}]")],
    # a Task that failed, whose progress shows its subagent's call, and no transcript of it
    "failed-task-with-progress": [
        _assistant('[{"type":"tool_use","id":"t_task","name":"Task","input":{"prompt":"sub"}}]'),
        '{"type":"progress","sessionId":"S1","parentToolUseID":"t_task","data":{"type":"agent_progress",'
        '"message":{"type":"assistant","message":{"role":"assistant","content":[%s]}}}}' % BASH,
        '{"type":"user","sessionId":"S1","uuid":"r1","message":{"role":"user","content":[{"type":"tool_result",'
        '"tool_use_id":"t_task","content":"[Request interrupted by user for tool use]","is_error":true}]}}'],
    "citation-holds-a-call": [_assistant('[{"type":"text","text":"hi","citations":[' + BASH + "]}]")],
    "message-tool-calls": ['{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","role":'
                           '"assistant","content":[{"type":"text","text":"hi"}],"tool_calls":[{"id":"b",'
                           '"function":{"name":"Bash","arguments":"{}"}}]}}'],
    "record-member-beside": ['{"type":"assistant","sessionId":"S1","uuid":"a1","extra":%s,"message":{"id":"m1",'
                             '"role":"assistant","content":[{"type":"text","text":"hi"}]}}' % BASH],
    "unreadable-function-call": ['{"type":"event","sessionId":"S1","data":{"type":"function_call","name":"Bash",'
                                 '"arguments":"{}"},}'],
    # a message whose stop reason says it ended in a call no line holds (claude-code-log's sidechain_integrated.jsonl)
    "stop-reason-tool-use-with-no-call": ['{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1",'
                                          '"role":"assistant","stop_reason":"tool_use","content":[{"type":"text",'
                                          '"text":"Now I will run it"}]}}'],
    "progress-member-beside-its-data": ['{"type":"progress","sessionId":"S1","toolUse":%s,"data":{"type":'
                                        '"hook_progress","hookEvent":"PostToolUse"}}' % BASH],
    "progress-of-no-task": ['{"type":"progress","sessionId":"S1","data":{"message":{"type":"assistant",'
                            '"message":{"role":"assistant","content":[%s]}}}}' % BASH],
}
# Calls a reader counted once: two blocks with no id, one id given to two calls.
TWICE = {
    "no-ids": [_assistant('[{"type":"tool_use","name":"Grep","input":{}},{"type":"tool_use","name":"Bash","input":{}}]')],
    "one-line-alike": [_assistant('[{"type":"tool_use","name":"Bash","input":{}},{"type":"tool_use","name":"Bash",'
                                  '"input":{}}]')],
    "one-id-two-tools": [_assistant('[{"type":"tool_use","id":"t_x","name":"Grep","input":{}}]'),
                         _assistant('[{"type":"tool_use","id":"t_x","name":"Bash","input":{}}]')],
}


DONE = ('{"type":"assistant","sessionId":"S1","uuid":"a_done","message":{"id":"m_done","role":"assistant",'
        '"stop_reason":"end_turn","content":[{"type":"text","text":"Finished."}]}}')


def _grade(tmp_path: Path, lines: list[str], rules: str = RULES, ended: bool = True) -> list[list[str]]:
    """The outcomes of ``rules`` on the session of ``lines``, ended with ``DONE`` unless
    ``ended`` is False (the session ends where ``lines`` do)."""
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join(lines + ([DONE] if ended else [])) + "\n", encoding="utf-8")
    return [[item["outcome"] for item in result.expectations]
            for result in referee.grade(rules, source, as_eval="1")]


@pytest.mark.parametrize("lines", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_call_the_reader_skips_makes_the_checks_over_calls_errors(tmp_path: Path, lines: list[str]):
    assert _grade(tmp_path, HEAD + lines) == [["error", "error"]]


@pytest.mark.parametrize("lines", TWICE.values(), ids=TWICE.keys())
def test_two_calls_of_one_message_are_two_calls(tmp_path: Path, lines: list[str]):
    assert _grade(tmp_path, HEAD + lines, RULES + "expect 3: count(calls) == 3\n") == [["fail", "pass", "pass"]]


def test_words_of_a_message_that_ended_in_a_call_no_line_holds_are_no_known_reply(tmp_path: Path):
    # The real session cut after "Excellent research! ..." (stop_reason tool_use): what the
    # agent said after that call is not here, so a check on the response is an error; with
    # the call on the message's next line, the session ends with the agent at work: its
    # words are narration, never the reply, and the reply is past the cut, unknown too.
    said = ('{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","role":"assistant",'
            '"stop_reason":"tool_use","content":[%s]}}')
    text = said % '{"type":"text","text":"Excellent research!"}'
    rules = 'eval 1\nexpect 1: not response contains "LGTM"\nexpect 2: response contains "Excellent"\n'
    assert _grade(tmp_path, HEAD + [text], rules, ended=False) == [["error", "error"]]
    assert _grade(tmp_path, HEAD + [text, said % BASH], rules, ended=False) == [["error", "error"]]
    # its words said, the agent went on: they are no reply of a finished session either
    assert _grade(tmp_path, HEAD + [text, said % BASH, _answer("ok")], rules) == [["pass", "fail"]]


def test_a_block_repeated_on_another_line_of_a_split_message_is_one_call(tmp_path: Path):
    assert _grade(tmp_path, HEAD + [_assistant("[" + BASH + "]")] * 2,
                  'eval 1\nexpect 1: exactly 1 calls to "Bash"\n') == [["pass"]]


def test_a_line_of_a_subagent_file_that_is_no_record_is_said(tmp_path: Path):
    task = ('{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","role":"assistant","content":'
            '[{"type":"tool_use","id":"t_task","name":"Task","input":{"prompt":"sub do"}}]}}')
    done = ('{"type":"user","sessionId":"S1","uuid":"r1","toolUseResult":{"agentId":"ag1"},"message":{"role":"user",'
            '"content":[{"type":"tool_result","tool_use_id":"t_task","content":"done"}]}}')
    (tmp_path / "agent-ag1.jsonl").write_text(
        '{"type":"user","sessionId":"S1","agentId":"ag1","isSidechain":true,"uuid":"s0","message":{"role":"user",'
        '"content":"sub do"}}\n[' + _assistant("[" + BASH + "]", "sm1") + "]\n", encoding="utf-8")
    assert _grade(tmp_path, HEAD + [task, done]) == [["error", "error"]]


def test_an_error_flag_that_is_no_boolean_leaves_the_status_unknown(tmp_path: Path):
    answer = ('{"type":"user","sessionId":"S1","uuid":"r1","message":{"role":"user","content":'
              '[{"type":"tool_result","tool_use_id":"t_b","content":"boom","is_error":"true"}]}}')
    rules = 'eval 1\nexpect 1: count(calls with status error) == 0\nexpect 2: count(calls) == 2\n'
    assert _grade(tmp_path, HEAD + [_assistant("[" + BASH + "]"), answer], rules) == [["error", "pass"]]


def test_an_error_flag_that_is_no_boolean_leaves_a_server_run_call_unknown_too(tmp_path: Path):
    """An MCP tool a server ran within the message (mcp_tool_use, answered by an
    mcp_tool_result block) flags its failure with is_error as a tool_result does."""
    ran = ('[{"type":"mcp_tool_use","id":"s1","name":"deploy","server_name":"ops","input":{}},{"type":"mcp_tool_result",'
           '"tool_use_id":"s1","is_error":%s,"content":[{"type":"text","text":"boom"}]},{"type":"text","text":"done"}]')
    rules = 'eval 1\nexpect 1: count(calls with status error) == 0\nexpect 2: count(calls) == 2\n'
    assert _grade(tmp_path, HEAD + [_assistant(ran % '"true"')], rules) == [["error", "pass"]]
    assert _grade(tmp_path, HEAD + [_assistant(ran % "true")], rules) == [["fail", "pass"]]
    assert _grade(tmp_path, HEAD + [_assistant(ran % "false")], rules) == [["pass", "pass"]]


@pytest.mark.parametrize("content, status", [("files found", "pass"), ("<tool_use_error>no such file</tool_use_error>",
                                                                      "fail")])
def test_an_error_flag_that_is_null_is_no_flag(tmp_path: Path, content: str, status: str):
    # claude-code-log's sidechain_integrated.jsonl writes every field its records lack as null: "is_error": null
    answer = ('{"type":"user","sessionId":"S1","uuid":"r1","message":{"role":"user","content":'
              '[{"type":"tool_result","tool_use_id":"t_b","content":"%s","is_error":null}]}}' % content)
    rules = 'eval 1\nexpect 1: count(calls with status error) == 0\n'
    assert _grade(tmp_path, HEAD + [_assistant("[" + BASH + "]"), answer], rules) == [[status]]


def test_a_resumed_session_is_found_past_its_opening_records(tmp_path: Path):
    """A session that opens with summaries is a session (auto-detection), and its
    subagent files are matched by the id its later records give."""
    opening = ['{"type":"summary","summary":"s","leafUuid":"x"}'] * 60
    assert _grade(tmp_path, opening + HEAD) == [["pass", "pass"]]
    (tmp_path / "agent-ag1.jsonl").write_text(
        '{"type":"user","sessionId":"S1","agentId":"ag1","isSidechain":true,"uuid":"s0","message":{"role":"user",'
        '"content":"sub do"}}\n' + _assistant("[" + BASH + "]", "sm1") + "\n", encoding="utf-8")
    assert _grade(tmp_path, opening + HEAD) == [["error", "error"]]  # a subagent no Task call started


_TASK = ('{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","role":"assistant","content":'
         '[{"type":"tool_use","id":"t_task","name":"Task","input":{"prompt":"sub do"}}]}}')
_DONE_BY_X = ('{"type":"user","sessionId":"S1","uuid":"r1","toolUseResult":{"agentId":"X"},"message":{"role":"user",'
              '"content":[{"type":"tool_result","tool_use_id":"t_task","content":"done"}]}}')


def _agent_file(path: Path, agent: str, content: str) -> None:
    """A subagent's transcript: its prompt, ``content`` and its last words (a transcript
    that ends at a call leaves the subagent at work: ``test_claude_code_subagent_at_work``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    words = ('{"type":"assistant","sessionId":"S1","agentId":"%s","isSidechain":true,"uuid":"s2-%s","message":'
             '{"id":"sm2-%s","role":"assistant","content":[{"type":"text","text":"sub done"}]}}'
             % (agent, path.parent.name, path.parent.name))
    path.write_text('{"type":"user","sessionId":"S1","agentId":"%s","isSidechain":true,"uuid":"s0","message":'
                    '{"role":"user","content":"sub do"}}\n' % agent + _assistant(content, "sm1") + "\n" + words + "\n",
                    encoding="utf-8")


def test_a_task_whose_result_names_a_missing_subagent_takes_no_other_by_its_prompt(tmp_path: Path):
    _agent_file(tmp_path / "agent-Y.jsonl", "Y", '[{"type":"tool_use","id":"y","name":"Grep","input":{}}]')
    assert _grade(tmp_path, HEAD + [_TASK, _DONE_BY_X]) == [["error", "error"]]


def test_two_subagent_files_of_one_name_are_both_read(tmp_path: Path, capsys):
    """A file given on the command line does not hide the one of the same name beside
    the session: both are read (the Bash call of the one beside is seen)."""
    _agent_file(tmp_path / "agent-X.jsonl", "X", "[" + BASH + "]")
    _agent_file(tmp_path / "other" / "agent-X.jsonl", "X", '[{"type":"tool_use","id":"y","name":"Grep","input":{}}]')
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join(HEAD + [_TASK, _DONE_BY_X, DONE]) + "\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    for given in ([source], [source, tmp_path / "other" / "agent-X.jsonl"]):
        main(["grade", *map(str, given), "--rules", str(rules), "--as-eval", "1", "--json"])
        (run,) = json.loads(capsys.readouterr().out)["runs"]
        assert [item["outcome"] for item in run["expectations"]] == ["fail", "pass"]


def test_a_second_different_answer_to_a_call_leaves_its_status_unknown(tmp_path: Path):
    answer = ('{"type":"user","sessionId":"S1","uuid":"r%s","message":{"role":"user","content":'
              '[{"type":"tool_result","tool_use_id":"t_b","content":"%s"%s}]}}')
    rules = 'eval 1\nexpect 1: no calls to "Bash" with status error\nexpect 2: count(calls) == 2\n'
    lines = HEAD + [_assistant("[" + BASH + "]"), answer % (1, "ok", ""), answer % (2, "boom", ',"is_error":true')]
    assert _grade(tmp_path, lines, rules) == [["error", "pass"]]
    repeated = HEAD + [_assistant("[" + BASH + "]"), answer % (1, "ok", ""), answer % (2, "ok", "")]
    assert _grade(tmp_path, repeated, rules) == [["pass", "pass"]]  # the same answer again changes nothing


def test_the_response_is_the_whole_last_message_over_the_lines_it_is_split_over(tmp_path: Path):
    first = ('{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m9","role":"assistant","content":'
             '[{"type":"text","text":"PART-A"}],"stop_reason":null}}')
    second = ('{"type":"assistant","sessionId":"S1","uuid":"a2","message":{"id":"m9","role":"assistant","content":'
              '[{"type":"text","text":"PART-A"},{"type":"text","text":"PART-B"}],"stop_reason":"end_turn"}}')
    rules = 'eval 1\nexpect 1: response contains "PART-A"\nexpect 2: response contains "PART-B"\n'
    assert _grade(tmp_path, HEAD + [first, second], rules, ended=False) == [["pass", "pass"]]


def _answer(content: str, flag: str = "", call: str = "t_b") -> str:
    return ('{"type":"user","sessionId":"S1","uuid":"r1","message":{"role":"user","content":[{"type":"tool_result",'
            '"tool_use_id":"%s","content":%s%s}]}}' % (call, json.dumps(content), flag))


@pytest.mark.parametrize(("flag", "outcomes"), [("", ["pass", "fail"]), (',"is_error":true', ["pass", "fail"]),
                                                (',"is_error":false', ["error", "error"])])
def test_a_result_wrapped_as_a_tool_use_error_is_an_error(tmp_path: Path, flag: str, outcomes: list[str]):
    """Claude Code wraps a tool's failure in <tool_use_error>; with no flag beside it the
    call failed all the same, and a flag saying false contradicts it (status unknown)."""
    rules = 'eval 1\nexpect 1: count(calls to "Bash" with status error) == 1\nexpect 2: no calls with status error\n'
    lines = HEAD + [_assistant("[" + BASH + "]"), _answer("<tool_use_error>Error: No such tool available: Bash"
                                                         "</tool_use_error>", flag)]
    assert _grade(tmp_path, lines, rules) == [outcomes]


def test_a_result_that_only_mentions_a_tool_use_error_is_a_success(tmp_path: Path):
    rules = 'eval 1\nexpect 1: no calls with status error\n'
    lines = HEAD + [_assistant("[" + BASH + "]"), _answer("grep found: <tool_use_error> in log.txt")]
    assert _grade(tmp_path, lines, rules) == [["pass"]]


_SAYS = '{"type":"text","text":"Let me run the tests now."}'
_CUT_OFF = 'eval 1\nexpect 1: response contains "Let me run"\nexpect 2: response contains "done"\n'
_NO_EDIT = 'expect 3: no calls to "Edit"\n'


@pytest.mark.parametrize("lines", [
    [_assistant("[" + _SAYS + "," + BASH + "]"), _answer("ok")],  # narration and the call in one line
    [_assistant("[" + _SAYS + "]"), _assistant("[" + _SAYS + "," + BASH + "]"), _answer("ok")],  # split message
    [_assistant("[" + _SAYS + "]"), _assistant("[" + BASH + "]", "m2"), _answer("ok")],  # a call after the text
], ids=["one-line", "split-message", "call-after"])
def test_a_session_that_ends_with_the_agent_at_work_has_no_known_reply_nor_known_calls(tmp_path: Path,
                                                                                       lines: list[str]):
    """A session cut off (or stopped: a timeout, a turn limit) after a call has no
    known reply: the text said with the call, or before it, is narration, never the
    response, and the reply, if any, lies past the end of the log; so do the calls
    made after it, so ``no calls to "Edit"`` is an ERROR, never a pass."""
    assert _grade(tmp_path, HEAD + lines, _CUT_OFF + _NO_EDIT, ended=False) == [["error", "error", "error"]]
    reply = _assistant('[{"type":"text","text":"All done."}]', "m3")
    assert _grade(tmp_path, HEAD + lines + [reply], _CUT_OFF + _NO_EDIT, ended=False) == [["fail", "pass", "pass"]]


def test_a_reply_after_a_server_run_search_in_one_message_is_the_response(tmp_path: Path):
    """A call a server ran within the message (web search) does not end the turn."""
    search = ('{"type":"server_tool_use","id":"s1","name":"web_search","input":{}},{"type":"web_search_tool_result",'
              '"tool_use_id":"s1","content":[]},{"type":"text","text":"All done."}')
    assert _grade(tmp_path, HEAD + [_assistant("[" + search + "]")], _CUT_OFF, ended=False) == [["fail", "pass"]]


def test_a_subagent_transcript_short_of_the_calls_its_progress_shows_leaves_the_calls_unknown(tmp_path: Path):
    """The subagent's file was cut short: its progress in the session shows a Bash call
    the file does not hold, so no check over the run's calls can pass."""
    _agent_file(tmp_path / "agent-X.jsonl", "X", '[{"type":"tool_use","id":"y","name":"Grep","input":{}}]')
    progress = ('{"type":"progress","sessionId":"S1","parentToolUseID":"t_task","data":{"type":"agent_progress",'
                '"agentId":"X","message":{"type":"assistant","message":{"role":"assistant","content":[%s]}}}}')
    shown = [progress % '{"type":"tool_use","id":"y","name":"Grep","input":{}}', progress % BASH]
    assert _grade(tmp_path, HEAD + [_TASK] + shown + [_DONE_BY_X]) == [["error", "error"]]
    assert _grade(tmp_path, HEAD + [_TASK] + shown[:1] + [_DONE_BY_X]) == [["pass", "pass"]]


_TOLD = _assistant('[{"type":"text","text":"Working on it."}]', "m5")
_CUT = '{"type":"assistant","sessionId":"S1","uuid":"a9","message":{"id":"m9","role":"assistant","content":[{"ty'


@pytest.mark.parametrize("lines", [HEAD + [_TOLD, _CUT], HEAD + [_CUT]], ids=["after-a-reply", "no-reply"])
def test_a_session_cut_while_writing_its_last_words_has_no_known_response(tmp_path: Path, lines: list[str]):
    """The last line was cut short while being written (no line end): it may hold the
    agent's last words, so neither the words before it nor none are the response."""
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join(lines), encoding="utf-8")  # the cut line has no line end
    rules = 'eval 1\nexpect 1: not response contains "secret"\nexpect 2: response contains "Working"\n'
    outcomes = [[item["outcome"] for item in result.expectations] for result in referee.grade(rules, source, as_eval="1")]
    assert outcomes == [["error", "error"]]


def test_a_line_not_read_before_the_last_words_leaves_the_response_as_it_is(tmp_path: Path):
    rules = 'eval 1\nexpect 1: not response contains "secret"\nexpect 2: response contains "Working"\n'
    assert _grade(tmp_path, HEAD + ["{not json", _TOLD], rules, ended=False) == [["pass", "pass"]]
