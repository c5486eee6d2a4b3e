"""The judge against a real HTTP server on loopback, in both wire formats."""

from __future__ import annotations

import json

import pytest
from llm_server import Delay, small_run, ScriptedServer, Status, verdicts

from referee.engine.judging import SemanticItem
from referee.engine.verdict import Outcome
from referee.llm_adapter import make_judge

TRANSCRIPT = """\
## Eval Prompt

Save a draft for the 168 yuan taxi invoice.

## [tool_calls] Step 1: getInvoiceInfo
Tool: expense-mcp_getInvoiceInfo
Args: {"fileId":"inv-42"}
Return: {"code":"200","body":{"amount":"168.00"}}
Status: success

## [agent_notes] Step 1: read the invoice
The invoice says 168.00 and I am sure the draft was saved twice.

## [tool_calls] Step 2: saveExpenseDoc
Tool: expense-mcp_saveExpenseDoc
Args: {"docStatus":"10","fdApplyMoney":"168.00"}
Return: {"code":"200","body":"a1b2c3d4"}
Status: success
"""

RESPONSE = "Your draft is saved.\n\nAmount: 168.00 yuan\nOpen it here: https://oa.example.com/view?fdId=a1b2c3d4\n"

ITEMS = (
    SemanticItem("1#1", "The response is friendly", "The response is friendly"),
    SemanticItem("1#2", "The draft amount matches the invoice", "compare amounts"),
)

GOOD = verdicts(
    ("The reply is short and polite.", [("response", "Your draft is saved.")], "PASS"),
    ("Both tool calls carry 168.00.", [("tool_calls", '"fdApplyMoney":"168.00"')], "PASS"),
)


def run() -> small_run:
    return small_run({"transcript.md": TRANSCRIPT, "response.md": RESPONSE})


@pytest.fixture(params=["openai", "anthropic"])
def kind(request) -> str:
    return request.param


def judge_for(kind: str, server: ScriptedServer, **options):
    """A judge for the loopback server; it sends a key only when the test names the
    variable (``api_key_env="REFEREE_TEST_KEY"``), as a local server gets none otherwise."""
    options.setdefault("timeout", 5.0)
    return make_judge(f"{kind}:test-model", base_url=server.url, **options)


def test_success_in_one_batched_request(kind, monkeypatch):
    monkeypatch.setenv("REFEREE_TEST_KEY", "sk-test")
    with ScriptedServer(GOOD) as server:
        result = judge_for(kind, server, api_key_env="REFEREE_TEST_KEY").grade(run(), ITEMS)
    assert [v.outcome for v in result.verdicts.values()] == [Outcome.PASS, Outcome.PASS]
    assert len(server.requests) == 1
    evidence = result.verdicts["1#2"].evidence[0]
    assert (evidence.source, evidence.file, evidence.line, evidence.step) == (
        "tool_calls", "outputs/transcript.md", 16, 2)
    assert result.verdicts["1#1"].evidence[0].file == "outputs/response.md"
    assert result.usage.requests == 1 and result.usage.input_tokens > 0
    assert result.usage.backend == kind and result.usage.model == "test-model"
    assert not result.usage.replayed


def test_wire_details(kind, monkeypatch):
    monkeypatch.setenv("REFEREE_TEST_KEY", "sk-test")
    with ScriptedServer(GOOD) as server:
        judge_for(kind, server, seed=7, api_key_env="REFEREE_TEST_KEY").grade(run(), ITEMS)
    sent = server.requests[0]
    assert sent["body"]["temperature"] == 0
    if kind == "openai":
        assert sent["path"] == "/chat/completions"
        assert sent["headers"]["authorization"] == "Bearer sk-test"
        assert sent["body"]["seed"] == 7
        assert sent["body"]["messages"][0]["role"] == "system"
    else:
        assert sent["path"] == "/v1/messages"
        assert sent["headers"]["x-api-key"] == "sk-test"
        assert sent["headers"]["anthropic-version"]
        assert "seed" not in sent["body"] and sent["body"]["system"]


def test_no_key_is_fine_for_a_local_server(monkeypatch):
    monkeypatch.delenv("REFEREE_TEST_KEY", raising=False)
    with ScriptedServer(GOOD) as server:
        result = judge_for("openai", server).grade(run(), ITEMS)
    assert "authorization" not in server.requests[0]["headers"]
    assert result.verdicts["1#1"].passed


def test_the_provider_key_is_not_sent_to_another_server(kind, monkeypatch):
    # OPENAI_API_KEY / ANTHROPIC_API_KEY in the environment is for the provider: a
    # --llm-base-url of another server gets it only when --llm-api-key-env names it.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-provider-key-0123456789abcdef")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-provider-key-0123456789abcdef")
    with ScriptedServer(GOOD) as server:
        judge_for(kind, server).grade(run(), ITEMS)
    headers = server.requests[0]["headers"]
    assert "authorization" not in headers and "x-api-key" not in headers


def test_public_endpoint_without_key_is_refused(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        make_judge("openai:gpt-4o-mini")


def test_one_request_per_assertion_when_asked(kind):
    single = verdicts(("Polite.", [("response", "Your draft is saved.")], "PASS"))
    with ScriptedServer(single, single) as server:
        result = judge_for(kind, server, batch=False).grade(run(), ITEMS)
    assert len(server.requests) == 2
    assert all(v.passed for v in result.verdicts.values())


def test_malformed_then_success(kind):
    with ScriptedServer("Sure! Everything passes.", GOOD) as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    assert all(v.passed for v in result.verdicts.values())
    assert len(server.requests) == 2
    retry = server.requests[1]["body"]["messages"]
    assert retry[-2]["role"] == "assistant" and retry[-2]["content"] == "Sure! Everything passes."
    assert "could not be used" in retry[-1]["content"]
    assert result.usage.requests == 2


def test_malformed_twice_is_an_error_never_a_pass(kind):
    with ScriptedServer("not json", '{"assertions": []}') as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.ERROR
        assert "unusable after 2 attempts" in verdict.message
    assert len(server.requests) == 2


def test_fabricated_quote_turns_pass_into_fail(kind):
    reply = verdicts(
        ("Friendly.", [("response", "Thank you so much, dear colleague!")], "PASS"),
        ("Amounts agree.", [("tool_calls", '"fdApplyMoney":"186.00"')], "PASS"),
    )
    with ScriptedServer(reply) as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.FAIL
        assert "not in" in verdict.message and "needs evidence that exists" in verdict.message


def test_quote_from_the_wrong_source_is_not_found(kind):
    reply = verdicts(
        ("Friendly.", [("tool_calls", "Your draft is saved.")], "PASS"),
        ("Amounts agree.", [("response", "Amount: 168.00 yuan")], "PASS"),
    )
    with ScriptedServer(reply) as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    assert result.verdicts["1#1"].outcome is Outcome.FAIL
    assert result.verdicts["1#2"].passed
    assert result.verdicts["1#2"].evidence[0].line == 3


def test_agent_notes_only_pass_is_a_fail(kind):
    reply = verdicts(
        ("The notes say so.", [("agent_notes", "I am sure the draft was saved twice")], "PASS"),
        ("Amounts agree.", [("tool_calls", '"fdApplyMoney":"168.00"')], "PASS"),
    )
    with ScriptedServer(reply) as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    verdict = result.verdicts["1#1"]
    assert verdict.outcome is Outcome.FAIL and verdict.notes_only
    assert "agent notes or harness text alone" in verdict.message
    assert verdict.evidence[0].source == "agent_notes" and verdict.evidence[0].line == 12


def test_pass_without_any_quote_is_a_fail(kind):
    reply = verdicts(("Trust me.", [], "PASS"), ("Trust me.", [], "FAIL"))
    with ScriptedServer(reply) as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    assert result.verdicts["1#1"].message == "grader said PASS without quoting any evidence"
    assert result.verdicts["1#2"].outcome is Outcome.FAIL


def test_429_then_success_honours_retry_after(kind):
    waited: list[float] = []
    with ScriptedServer(Status(429, {"retry-after": "7"}), GOOD) as server:
        judge = judge_for(kind, server)
        judge.backend.transport.sleep = waited.append
        result = judge.grade(run(), ITEMS)
    assert waited == [7.0]
    assert all(v.passed for v in result.verdicts.values())
    assert len(server.requests) == 2


def test_server_errors_retry_with_backoff_then_give_up(kind):
    waited: list[float] = []
    with ScriptedServer(Status(503), Status(500), Status(502)) as server:
        judge = judge_for(kind, server)
        judge.backend.transport.sleep = waited.append
        result = judge.grade(run(), ITEMS)
    assert waited == [1.0, 2.0]
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.ERROR and "HTTP 502" in verdict.message


def test_client_errors_are_not_retried(kind):
    with ScriptedServer(Status(401, body='{"error": "bad key"}')) as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    assert len(server.requests) == 1
    assert "HTTP 401" in result.verdicts["1#1"].message
    assert result.verdicts["1#1"].outcome is Outcome.ERROR


def test_timeout_is_an_error_verdict(kind):
    with ScriptedServer(Delay(2.0, GOOD), Delay(2.0, GOOD)) as server:
        judge = judge_for(kind, server, timeout=0.2, attempts=2)
        judge.backend.transport.sleep = lambda seconds: None
        result = judge.grade(run(), ITEMS)
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.ERROR
        assert "timed out after 0.2 s" in verdict.message and "2 attempts" in verdict.message


def test_cancel_stops_retrying(kind):
    with ScriptedServer(Status(503), GOOD) as server:
        judge = judge_for(kind, server)
        judge.cancel()
        from referee.llm_adapter.transport import Cancelled

        with pytest.raises(Cancelled):
            judge.grade(run(), ITEMS)
    assert server.requests == []


def test_reply_missing_an_assertion_is_retried(kind):
    partial = verdicts(("Polite.", [("response", "Your draft is saved.")], "PASS"))
    with ScriptedServer(partial, GOOD) as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    assert "A1, A2" in server.requests[1]["body"]["messages"][-1]["content"]
    assert all(v.passed for v in result.verdicts.values())


def test_claims_and_feedback_are_checked(kind):
    reply = json.loads(GOOD)
    reply["claims"] = [
        {"claim": "The amount is 168.00", "type": "factual", "verified": True,
         "evidence": [{"source": "tool_calls", "quote": '"amount":"168.00"'}]},
        {"claim": "Saved twice", "type": "process", "verified": True,
         "evidence": [{"source": "agent_notes", "quote": "saved twice"}]},
    ]
    reply["eval_feedback"] = {"suggestions": [{"assertion": "A1", "reason": "too vague"}],
                              "overall": ""}
    with ScriptedServer(json.dumps(reply)) as server:
        result = judge_for(kind, server).grade(run(), ITEMS)
    assert [c.verified for c in result.claims] == [True, False]
    assert result.claims[0].evidence.endswith("(step 1, outputs/transcript.md:8)")
    assert result.feedback == ("The response is friendly: too vague",)


def test_no_items_means_no_request(kind):
    with ScriptedServer() as server:
        result = judge_for(kind, server).grade(run(), ())
    assert result.verdicts == {} and server.requests == []


def test_cost_is_reported_only_with_a_price(kind):
    with ScriptedServer(GOOD, GOOD) as server:
        plain = judge_for(kind, server).grade(run(), ITEMS)
        priced = judge_for(kind, server, price=(1.0, 2.0)).grade(run(), ITEMS)
    assert plain.usage.cost_usd is None
    expected = (priced.usage.input_tokens * 1.0 + priced.usage.output_tokens * 2.0) / 1e6
    assert priced.usage.cost_usd == pytest.approx(expected)
