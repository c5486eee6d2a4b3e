"""Hostile servers, hostile replies and hostile cassettes against the LLM path.

Every case here gives the verdict or the error a correct grader must give: a
redirect never carries the key nor leaves the origin, a slow loris meets the
whole-request deadline, a quote that proves nothing is no quote, the API key is
never written or printed, and a cassette is validated before anything is replayed
from it. Servers are ``tests/llm_server.py`` on loopback. Nothing here asserts on
wall time: a slow-loris case sets a small deadline and asserts on the ERROR that
names it.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pytest
from llm_server import Answer, Delay, Drip, small_run, ScriptedServer, Status, asked_ids, verdicts

from referee.engine.cli import main
from referee.engine.judging import SemanticItem
from referee.engine.verdict import Outcome
from referee.llm_adapter import make_judge, transport
from referee.llm_adapter import cassette as cassette_module
from referee.llm_adapter.cassette import FORMAT, entry_digest, load
from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate
from referee.llm_adapter.redact import MASK, Redactor, variable_problem
from referee.llm_adapter.substance import trivial

REPO = Path(__file__).resolve().parents[1]
KEY = "sk-proj-Zq3vN8xL0pT5yR2wK7mB4cH9dF6gJ1sA"
KEY_VAR = "REFEREE_HOSTILE_KEY"

TRANSCRIPT = """\
## [tool_calls] Step 1: travel_searchFlights
Tool: travel_searchFlights
Args: {"origin":"ZRH","destination":"LIS"}
Return: {"flights":[{"id":"LX2084","price":"168.00"}]}
Status: success

## [agent_notes] Step 1: picked the cheapest
I booked LX2084, the cheapest flight, and the traveller will be thrilled.

## [tool_calls] Step 2: travel_bookReservation
Tool: travel_bookReservation
Args: {"flightId":"LX2084"}
Return: {"bookingRef":"BK-7Q2"}
Status: success
"""
RESPONSE = "Booked LX2084 for you.\nTotal: 168.00 EUR\nThe request was invalid at first.\n"
ITEMS = (SemanticItem("1#1", "The response confirms the booking", "confirms"),
         SemanticItem("1#2", "The total is stated", "total"))
GOOD = verdicts(("Confirmed.", [("response", "Booked LX2084 for you.")], "PASS"),
                ("Stated.", [("response", "Total: 168.00 EUR")], "PASS"))


def run() -> small_run:
    return small_run({"transcript.md": TRANSCRIPT, "response.md": RESPONSE})


def judge(server: ScriptedServer, *, key: bool = False, kind: str = "openai", **options):
    options.setdefault("timeout", 5.0)
    if key:
        options["api_key_env"] = KEY_VAR
    return make_judge(f"{kind}:hostile", base_url=server.url, **options)


@pytest.fixture(autouse=True)
def the_key(monkeypatch):
    monkeypatch.setenv(KEY_VAR, KEY)
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def assert_errors(result, *needles: str) -> None:
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.ERROR, verdict.message
        for needle in needles:
            assert needle in verdict.message, verdict.message


def everything_said(result) -> str:
    """Every text of a judge result, as it would reach grading.json."""
    parts = []
    for verdict in result.verdicts.values():
        parts += [verdict.message, *verdict.details, *(e.quote for e in verdict.evidence)]
    parts += [c.claim + c.evidence for c in result.claims] + list(result.feedback)
    return "\n".join(parts)


# --------------------------------------------------------------------------- redirects

@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("with_key", [True, False])
def test_a_redirect_to_another_origin_is_never_followed(code, with_key):
    with ScriptedServer(default=GOOD) as elsewhere:
        target = elsewhere.url + "/v1/chat/completions"
        with ScriptedServer(Status(code, {"Location": target})) as server:
            result = judge(server, key=with_key).grade(run(), ITEMS)
    assert elsewhere.requests == []  # not contacted at all, so the key went nowhere
    assert_errors(result, f"HTTP {code}", target, "not followed")
    assert ("never carries the API key" if with_key else "leaves the origin") in \
        result.verdicts["1#1"].message


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_with_the_key_is_not_followed_even_on_the_same_origin(code):
    with ScriptedServer(default=GOOD) as server:
        server.script.append(Status(code, {"Location": "/moved/chat/completions"}))
        result = judge(server, key=True).grade(run(), ITEMS)
    assert len(server.requests) == 1
    assert_errors(result, f"HTTP {code}", server.url + "/moved/chat/completions",
                  "never carries the API key")


@pytest.mark.parametrize("code", [307, 308])
def test_a_keyless_same_origin_307_or_308_is_followed_with_its_body(code):
    with ScriptedServer(Status(code, {"Location": "/moved/chat/completions"}), GOOD) as server:
        result = judge(server).grade(run(), ITEMS)
    assert [r["path"] for r in server.requests] == ["/chat/completions", "/moved/chat/completions"]
    assert server.requests[1]["body"] == server.requests[0]["body"]
    assert all(v.passed for v in result.verdicts.values())


@pytest.mark.parametrize("code", [301, 302, 303])
def test_a_keyless_same_origin_redirect_that_would_drop_the_body_is_refused(code):
    with ScriptedServer(Status(code, {"Location": "/moved"}), GOOD) as server:
        result = judge(server).grade(run(), ITEMS)
    assert len(server.requests) == 1
    assert_errors(result, f"HTTP {code}", "/moved", "turn the POST into a GET")


def test_a_redirect_loop_ends():
    hops = [Status(307, {"Location": f"/hop-{n % 2}"}) for n in range(10)]
    with ScriptedServer(*hops) as server:
        result = judge(server, attempts=1).grade(run(), ITEMS)
    assert len(server.requests) == transport.MAX_REDIRECTS + 1
    assert_errors(result, "redirected more than")


@pytest.mark.parametrize("location, message", [("", "with no Location"),
                                                ("/chat/completions", "the address it was sent to")])
def test_a_redirect_to_nowhere_or_to_itself_is_not_followed(location, message):
    with ScriptedServer(Status(307, {"Location": location} if location else {})) as server:
        result = judge(server, attempts=1).grade(run(), ITEMS)
    assert len(server.requests) == 1
    assert_errors(result, "HTTP 307", message)


def test_a_redirect_shows_no_password_of_its_target():
    with ScriptedServer(Status(302, {"Location": "http://user:hunter2secret@127.0.0.1:9/x?token=abc"})) \
            as server:
        result = judge(server).grade(run(), ITEMS)
    said = everything_said(result)
    assert "HTTP 302" in said and "hunter2secret" not in said and "token=abc" not in said


# --------------------------------------------------------------------------- slow loris

@pytest.mark.parametrize("head", [True, False], ids=["headers", "body"])
def test_a_slow_loris_meets_the_whole_request_deadline(kind_of_wire, head):
    # One byte every 50 ms: no single read ever waits long, so only a deadline for
    # the whole request can end it. Without one the reply would arrive, and pass.
    with ScriptedServer(Drip(0.05, GOOD, head=head)) as server:
        result = judge(server, kind=kind_of_wire, timeout=0.5, attempts=1).grade(run(), ITEMS)
    assert_errors(result, "timed out after 0.5 s", "--llm-timeout", "whole request")


def test_the_deadline_covers_each_attempt_and_the_retries_are_counted():
    with ScriptedServer(Drip(0.05, GOOD), Drip(0.05, GOOD)) as server:
        result = judge(server, timeout=0.4, attempts=2)
        result.backend.transport.sleep = lambda seconds: None
        graded = result.grade(run(), ITEMS)
    assert_errors(graded, "timed out after 0.4 s", "2 attempts")


@pytest.fixture(params=["openai", "anthropic"])
def kind_of_wire(request) -> str:
    return request.param


def test_a_reply_over_the_size_limit_is_refused(monkeypatch):
    monkeypatch.setattr(transport, "MAX_REPLY_BYTES", 200)
    with ScriptedServer(GOOD) as server:
        result = judge(server).grade(run(), ITEMS)
    assert_errors(result, "over the limit of 200 bytes")


@pytest.mark.parametrize("timeout", [float("nan"), float("inf"), 0.0, -1.0])
def test_a_deadline_must_be_a_positive_number(timeout):
    with pytest.raises(ValueError, match="--llm-timeout must be a positive number"):
        make_judge("openai:m", base_url="http://127.0.0.1:9", timeout=timeout)


# --------------------------------------------------------------------------- hostile replies

HOSTILE_WIRE = {
    "usage-is-a-list": {"choices": [{"message": {"content": GOOD}}], "usage": [1, 2]},
    "content-is-a-number": {"choices": [{"message": {"content": 5}}]},
    "no-choices": {"id": "x"},
    "choices-is-a-string": {"choices": "PASS"},
    "anthropic-text-is-a-number": {"content": [{"type": "text", "text": 7}]},
}


@pytest.mark.parametrize("name", sorted(HOSTILE_WIRE))
def test_a_reply_of_the_wrong_shape_is_an_error_not_a_crash(name, kind_of_wire):
    body = json.dumps(HOSTILE_WIRE[name])
    with ScriptedServer(default=Status(200, body=body)) as server:
        result = judge(server, kind=kind_of_wire).grade(run(), ITEMS)
    for verdict in result.verdicts.values():
        assert verdict.outcome in (Outcome.ERROR, Outcome.PASS), verdict.message
        assert "internal error" not in verdict.message
        if verdict.outcome is Outcome.PASS:  # only the one that carried a good reply
            assert name == "usage-is-a-list" and kind_of_wire == "openai"


@pytest.mark.parametrize("body", [
    "[" * 100_000 + "]" * 100_000,  # nested too deeply for the JSON parser
    '{"n": ' + "9" * 5000 + "}",  # more digits than Python converts
    "not json at all",
    "[1, 2, 3]",
    '{"choices": [{"message": {"content": NaN}}]}',
])
def test_a_body_that_is_no_usable_json_is_an_error(body):
    with ScriptedServer(default=Status(200, body=body)) as server:
        result = judge(server, attempts=1).grade(run(), ITEMS)
    assert_errors(result, "grader answered HTTP 200")


@pytest.mark.parametrize("reply", [
    '{"assertions": ' + "[" * 50_000 + "]" * 50_000 + "}",
    '{"assertions": [{"id": "A1", "reasoning": "r", "verdict": "PASS", "n": ' + "9" * 5000 + "}]}",
    '{"assertions": 5}',
    '{"assertions": [{"id": "A1", "reasoning": "r", "verdict": "PASS", "evidence": "everything"}]}',
])
def test_a_reply_text_of_the_wrong_shape_is_malformed(reply):
    with ScriptedServer(default=reply) as server:
        result = judge(server).grade(run(), ITEMS)
    assert_errors(result, "unusable after 2 attempts")


# --------------------------------------------------------------------------- quotes

TRIVIAL_QUOTES = [
    ("response", "o"), ("response", "the"), ("tool_calls", "Tool:"), ("tool_calls", "Status: success"),
    ("tool_calls", "## [tool_calls] Step 2: travel_bookReservation"),
    ("tool_calls", "[tool_calls] Step 2: travel_bookReservation"), ("response", "168.00"),
    ("tool_calls", "Args: {"), ("response", "for you."),
]


@pytest.mark.parametrize("source, quote", TRIVIAL_QUOTES)
def test_a_quote_that_proves_nothing_is_no_quote(source, quote):
    reply = verdicts(("Shown.", [(source, quote)], "PASS"), ("Shown.", [(source, quote)], "PASS"))
    with ScriptedServer(reply) as server:
        result = judge(server).grade(run(), ITEMS)
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.FAIL and "proves nothing" in verdict.message
        assert verdict.evidence == ()


def test_agent_notes_plus_a_trivial_response_quote_stay_notes_only():
    notes = ("agent_notes", "I booked LX2084, the cheapest flight")
    reply = verdicts(("Notes and reply.", [notes, ("response", "the")], "PASS"),
                     ("Notes and reply.", [notes, ("response", "Booked")], "PASS"))
    with ScriptedServer(reply) as server:
        result = judge(server).grade(run(), ITEMS)
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.FAIL and verdict.notes_only, verdict.message


@pytest.mark.parametrize("quote", [
    "Total 16800 EUR",  # the decimal point dropped: another number
    "Total 168 00 EUR", "Total: 168,00 EUR",  # another separator between the digits
    "68.00 EUR The request was invalid",  # the start of the number cut off
    "Total: 168 EUR",  # its decimals cut off
    "request was valid",  # a word's start cut off: "invalid"
    "Booked LX208 for you",  # a changed identifier
])
def test_a_quote_that_changes_a_number_or_a_word_is_not_found(quote):
    reply = verdicts(("Shown.", [("response", quote)], "PASS"), ("Shown.", [("response", quote)], "PASS"))
    with ScriptedServer(reply) as server:
        result = judge(server).grade(run(), ITEMS)
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.FAIL and "is not in response" in verdict.message


@pytest.mark.parametrize("quote", ["Total 168.00 EUR", "“Total:” 168.00 EUR", "LX2084",
                                   "Booked LX2084 ... Total: 168.00 EUR"])
def test_quotes_that_are_there_still_verify(quote):
    reply = verdicts(("Shown.", [("response", quote)], "PASS"), ("Shown.", [("response", quote)], "PASS"))
    with ScriptedServer(reply) as server:
        result = judge(server).grade(run(), ITEMS)
    assert all(v.passed for v in result.verdicts.values()), result.verdicts


def test_a_claim_resting_on_a_trivial_quote_is_not_verified():
    reply = json.loads(GOOD)
    reply["claims"] = [{"claim": "It worked", "type": "process", "verified": True,
                        "evidence": [{"source": "tool_calls", "quote": "Status: success"}]}]
    with ScriptedServer(json.dumps(reply)) as server:
        result = judge(server).grade(run(), ITEMS)
    assert [c.verified for c in result.claims] == [False]


def test_a_quote_found_only_in_a_heading_is_no_quote():
    segment = Segment("tool_calls", "outputs/transcript.md", 1,
                      "## [tool_calls] Step 1: the booking was confirmed\nTool: book\nStatus: success"
                      "\n### Booking reference BK-7Q2 issued\nReturn: done")
    assert locate("the booking was confirmed", (segment,)).heading
    assert locate("Booking reference BK-7Q2 issued", (segment,)).heading
    assert not locate("Tool: book", (segment,)).heading
    spanning = locate("Status: success\n### Booking reference BK-7Q2 issued\nReturn: done", (segment,))
    assert spanning.heading  # a quote that runs across a heading line proves nothing either


@pytest.mark.parametrize("quote, expected", [
    ("o", True), ("the", True), ("Tool:", True), ("Status: success", True), ("168.00", True),
    ("## Summary of the booking", True), ("Your draft is saved.", False), ("LX2084", False),
    ("Have a good trip!", False), ("金额：168.00 元", False), ("已保存", True),
])
def test_the_substance_rule(quote, expected):
    assert trivial(quote) is expected


# --------------------------------------------------------------------------- the API key

def echo_key(body: dict, headers: dict) -> str:
    """A server that puts what it was sent in its reply: reasoning, a quote, a claim."""
    sent = headers.get("authorization") or headers.get("x-api-key") or ""
    entries = [(f"You sent {sent}.", [("response", "Booked LX2084 for you.")], "FAIL"),
               (f"Key {sent[7:40]} noted.", [("response", f"Total: {sent}")], "PASS")]
    return verdicts(*(entries[n % 2] for n in range(len(asked_ids(body)))),
                    claims=[{"claim": f"the key is {sent}", "type": "factual", "verified": False,
                             "evidence": []}])


def echo_key_in_error(body: dict, headers: dict) -> Status:
    sent = headers.get("authorization") or headers.get("x-api-key") or ""
    return Status(401, body=json.dumps({"error": f"Incorrect API key provided: {sent}"}))


@pytest.mark.parametrize("echo", [echo_key, echo_key_in_error], ids=["reply", "error-body"])
def test_an_echoed_key_is_redacted_from_the_result(echo, kind_of_wire):
    with ScriptedServer(Answer(echo), Answer(echo)) as server:
        result = judge(server, key=True, kind=kind_of_wire).grade(run(), ITEMS)
    said = everything_said(result)
    assert KEY not in said and KEY[:20] not in said and KEY[-20:] not in said
    assert MASK in said


def test_an_echoed_key_is_not_recorded_in_a_cassette(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with ScriptedServer(default=Answer(echo_key)) as server:
        make_judge(f"record:{cassette}", inner="openai:m", base_url=server.url,
                   api_key_env=KEY_VAR).grade(run(), ITEMS)
    text = cassette.read_text(encoding="utf-8")
    assert KEY not in text and KEY[:20] not in text and MASK in text


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", workspace)
    return workspace


def _grade_args(workspace: Path, *extra: str) -> list[str]:
    return ["grade", str(workspace), "--rules", str(REPO / "examples/booking-skill/booking.rules"),
            "--evals", str(REPO / "examples/booking-skill/evals/evals.json"), *extra]


@pytest.mark.parametrize("echo", [echo_key, echo_key_in_error], ids=["reply", "error-body"])
def test_an_echoed_key_reaches_no_report_and_no_terminal(tmp_path, capsys, echo):
    workspace = _workspace(tmp_path)
    with ScriptedServer(default=Answer(echo)) as server:
        code = main(_grade_args(workspace, "--force", "--llm", "openai:m", "--llm-base-url",
                                server.url, "--llm-api-key-env", KEY_VAR, "--llm-timeout", "5"))
        printed = capsys.readouterr()
        assert main(_grade_args(workspace, "--check", "--json", "--llm", "openai:m",
                                "--llm-base-url", server.url, "--llm-api-key-env", KEY_VAR)) in (0, 1)
        as_json = capsys.readouterr()
    assert code in (0, 1)
    assert server.requests and all(r["headers"]["authorization"] == f"Bearer {KEY}"
                                   for r in server.requests)  # it was sent, and echoed
    written = [p.read_text(encoding="utf-8") for p in workspace.rglob("*.json")]
    assert len(written) >= 12
    for text in written + [printed.out, printed.err, as_json.out, as_json.err]:
        assert KEY not in text and KEY[:20] not in text
    assert any(MASK in text for text in written)


def test_the_key_itself_given_as_the_variable_name_is_refused_unprinted(tmp_path, capsys):
    code = main(_grade_args(_workspace(tmp_path), "--check", "--llm", "openai:m",
                            "--llm-api-key-env", KEY))
    printed = capsys.readouterr()
    assert code == 2
    assert "looks like an API key itself" in printed.err
    assert KEY not in printed.err + printed.out and KEY[:12] not in printed.err


@pytest.mark.parametrize("value", [KEY, "sk-ant-api03-abc", "gsk_9f8e7d6c5b4a39281706f5e4d3c2b1a0",
                                   "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "my key"])
def test_values_that_are_no_variable_name_are_told_apart(value):
    problem = variable_problem(value)
    assert problem is not None and value not in problem


@pytest.mark.parametrize("name", ["OPENAI_API_KEY", "MY_GRADER_KEY_2", "vllm_key", KEY_VAR])
def test_variable_names_are_accepted(name):
    assert variable_problem(name) is None


def test_a_value_equal_to_a_variable_s_value_is_not_a_name(monkeypatch):
    monkeypatch.setenv("SOME_SECRET", "PlainLookingValue")
    assert variable_problem("PlainLookingValue") is not None


def test_the_key_goes_only_where_it_is_meant_to(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with ScriptedServer(GOOD, GOOD) as server:
        judge(server).grade(run(), ITEMS)  # OPENAI_API_KEY is the provider's, not this server's
        judge(server, key=True).grade(run(), ITEMS)  # named: sent
    assert "authorization" not in server.requests[0]["headers"]
    assert server.requests[1]["headers"]["authorization"] == f"Bearer {KEY}"


def test_a_named_variable_must_hold_a_key(monkeypatch):
    monkeypatch.delenv(KEY_VAR)
    with pytest.raises(ValueError, match=f"{KEY_VAR}, which is not set"):
        make_judge("openai:m", base_url="http://127.0.0.1:9/v1", api_key_env=KEY_VAR)


def test_a_key_never_travels_over_plain_http_to_another_machine():
    with pytest.raises(ValueError, match="plain http") as caught:
        make_judge("openai:m", base_url="http://grader.example.com/v1", api_key_env=KEY_VAR)
    assert KEY not in str(caught.value)


def test_the_redactor_masks_pieces_of_the_key():
    redact = Redactor()
    redact.add(KEY)
    text = f"a {KEY} b {KEY[:18]} c {KEY[5:30]}x d sk-proj- e"
    masked = redact(text)
    assert KEY[:16] not in masked and KEY[5:21] not in masked
    assert masked.startswith("a " + MASK) and masked.endswith("d sk-proj- e")


# --------------------------------------------------------------------------- cassettes

def _meta(version: int = 2) -> str:
    return json.dumps({"format": FORMAT, "version": version, "backend": "openai", "model": "m",
                       "params": {"temperature": 0}, "judge": "test"})


def _entry(key: str = "a" * 64, **fields) -> dict:
    entry = {"key": key, "about": "x", "reply": "{}", "input_tokens": 1, "output_tokens": 1,
             "seconds": 0.5, **fields}
    return {**entry, "digest": entry_digest(entry)}


def _write(tmp_path: Path, *lines: object) -> Path:
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n",
                    encoding="utf-8")
    return path


def test_a_repeated_request_key_is_an_error_naming_both_lines(tmp_path):
    path = _write(tmp_path, _meta(), _entry(reply="first"), _entry(reply="second"))
    with pytest.raises(ValueError, match=r"c\.jsonl:3: key a{12}\.\.\. was already recorded at line 2"):
        load(path)


def test_a_repeated_field_is_an_error(tmp_path):
    good = json.dumps(_entry())
    path = _write(tmp_path, _meta(), good[:-1] + ', "reply": "PASS"}')
    with pytest.raises(ValueError, match=r":2: the field 'reply' appears twice"):
        load(path)


@pytest.mark.parametrize("fields, message", [
    ({"reply": 5}, "reply must be a string, not the number 5"),
    ({"input_tokens": "5"}, "input_tokens must be a whole number"),
    ({"input_tokens": True}, "input_tokens must be a whole number, 0 or more, not a boolean"),
    ({"seconds": -1}, "seconds must be a number of seconds"),
    ({"about": None}, "about must be a string, not null"),
    ({"verdict": "PASS"}, "unknown field 'verdict'"),
    ({"key": "not-a-hash"}, "key must be 64 lowercase hex digits"),
])
def test_a_field_of_the_wrong_type_names_the_file_and_the_entry(tmp_path, fields, message):
    path = _write(tmp_path, _meta(), _entry(**fields))
    with pytest.raises(ValueError) as caught:
        load(path)
    assert f"{path}:2:" in str(caught.value) and message in str(caught.value)


@pytest.mark.parametrize("line, message", [
    ("[1, 2]", "an entry must be a JSON object, not a list"),
    ('{"key": "%s"}' % ("a" * 64), "has no 'reply'"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"key": NaN}', "not usable JSON"),
])
def test_a_malformed_entry_names_its_line(tmp_path, line, message):
    path = _write(tmp_path, _meta(), line)
    with pytest.raises(ValueError, match=":2: .*" + message.replace("'", ".")):
        load(path)


@pytest.mark.parametrize("meta, message", [
    ({"format": FORMAT, "version": 99}, "version 99 is not one this referee reads"),
    ({"format": FORMAT, "version": 2, "params": [1]}, "params must be an object"),
    ({"format": FORMAT, "version": 2, "params": {"seed": [1]}}, "params.seed must be"),
    ({"format": "other"}, "not referee cassette metadata"),
])
def test_bad_metadata_is_refused(tmp_path, meta, message):
    with pytest.raises(ValueError, match=message):
        load(_write(tmp_path, meta))


def test_an_edited_entry_is_reported(tmp_path):
    edited = {**_entry(reply='{"assertions": []}'), "reply": '{"assertions": ["PASS"]}'}
    path = _write(tmp_path, _meta(), _entry(key="b" * 64), edited)
    with pytest.raises(ValueError, match=r":3: entry a{12}\.\.\. does not match its digest"):
        load(path)


def test_a_version_2_entry_needs_its_digest(tmp_path):
    entry = _entry()
    del entry["digest"]
    with pytest.raises(ValueError, match="has no 'digest'"):
        load(_write(tmp_path, _meta(), entry))


def test_a_version_1_cassette_is_still_read_and_gets_digests_when_recorded_into(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with ScriptedServer(default=GOOD) as server:
        make_judge(f"record:{cassette}", inner="openai:m", base_url=server.url).grade(run(), ITEMS)
        meta, entries = load(cassette)
        old = [json.dumps({**meta, "version": 1}, sort_keys=True)]
        old += [json.dumps({k: v for k, v in e.items() if k != "digest"}, sort_keys=True)
                for e in entries.values()]
        cassette.write_text("\n".join(old) + "\n", encoding="utf-8")
        replayed = make_judge(f"replay:{cassette}").grade(run(), ITEMS)
        assert all(v.passed for v in replayed.verdicts.values())
        make_judge(f"record:{cassette}", inner="openai:m", base_url=server.url).grade(
            small_run({"response.md": "Other.\n"}), ITEMS)
    meta, entries = load(cassette)
    assert meta["version"] == 2 and len(entries) == 2
    assert all("digest" in e for e in entries.values())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_cassette_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "judge.cassette.jsonl"
    os.mkfifo(fifo)
    outcome: list[object] = []

    def attempt() -> None:
        try:
            make_judge(f"replay:{fifo}")
        except ValueError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(60)  # a safety net for CI only: a correct referee refuses at once
    if worker.is_alive():  # unblock the reader so the test run can end
        with open(fifo, "w"):
            pass
        pytest.fail("reading a FIFO cassette blocked")
    assert len(outcome) == 1 and "not a regular file" in str(outcome[0])


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_as_cassette_is_refused(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    with pytest.raises(ValueError, match="not a regular file"):
        make_judge(f"replay:{device}")


def test_a_directory_as_cassette_is_refused(tmp_path):
    with pytest.raises(ValueError, match="not a regular file"):
        make_judge(f"replay:{tmp_path}")


def test_an_oversized_cassette_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(cassette_module, "MAX_BYTES", 100)
    with pytest.raises(ValueError, match="over the limit of 100 bytes"):
        load(_write(tmp_path, _meta(), _entry()))


def test_a_cassette_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_bytes(_meta().encode() + b'\n{"key": "\xff"}\n')
    with pytest.raises(ValueError, match=r"c\.jsonl:2: not UTF-8"):
        load(path)


def test_a_bad_cassette_is_a_usage_error_on_the_command_line(tmp_path, capsys):
    path = _write(tmp_path, _meta(), _entry(input_tokens="lots"))
    code = main(_grade_args(_workspace(tmp_path), "--check", "--llm", f"replay:{path}"))
    err = capsys.readouterr().err
    assert code == 2
    assert f"{path}:2:" in err and "input_tokens must be a whole number" in err
    assert "internal error" not in err


def test_a_replayed_cassette_can_not_smuggle_a_pass(tmp_path):
    # A hand-made cassette (digest recomputed) replays like any other: its PASS must
    # still rest on quotes that check out against the run.
    reply = verdicts(("Trust me.", [("response", "the")], "PASS"),
                     ("Trust me.", [("response", "Total 16800 EUR")], "PASS"))
    with ScriptedServer(reply) as server:
        cassette = tmp_path / "c.jsonl"
        make_judge(f"record:{cassette}", inner="openai:m", base_url=server.url).grade(run(), ITEMS)
    result = make_judge(f"replay:{cassette}").grade(run(), ITEMS)
    assert [v.outcome for v in result.verdicts.values()] == [Outcome.FAIL, Outcome.FAIL]


def test_a_delay_longer_than_the_deadline_is_still_a_timeout():
    with ScriptedServer(Delay(2.0, GOOD)) as server:
        result = judge(server, timeout=0.3, attempts=1).grade(run(), ITEMS)
    assert_errors(result, "timed out after 0.3 s")


def test_the_deadline_cuts_a_tls_handshake_that_stalls():
    # A server that accepts and never answers the TLS hello: without the plain socket
    # registered as soon as it connects, only the 60 s socket timeout would end it.
    import http.client
    import socket

    with socket.create_server(("127.0.0.1", 0)) as server:
        watch = transport._Watch()
        connection = transport._watched(http.client.HTTPSConnection, watch)(
            "127.0.0.1", server.getsockname()[1], timeout=60)
        timer = threading.Timer(0.2, watch.expire)
        timer.start()
        try:
            with pytest.raises(OSError) as raised:
                connection.connect()
        finally:
            timer.cancel()
            connection.close()
            watch.close()
    assert watch.expired and not isinstance(raised.value, TimeoutError)


def test_the_deadline_cuts_a_connection_that_waits():
    import http.client
    import socket

    with socket.create_server(("127.0.0.1", 0)) as server:
        watch = transport._Watch()
        connection = transport._watched(http.client.HTTPConnection, watch)(
            "127.0.0.1", server.getsockname()[1], timeout=60)
        connection.connect()
        try:
            watch.expire()
            assert connection.sock.recv(1) == b""  # at once: the connection is shut down
        finally:
            connection.close()
            watch.close()
