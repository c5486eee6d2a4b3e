"""Judge requests as a provider batch and back: ``--llm-batch-export`` writes them in the
documented shapes of both wire formats, keyed by the cassette key and the same in
every shard; ``--llm-batch-import`` checks every result line and fills the cassette,
and the grade replays it. No test touches the network: the "provider" is a function."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from llm_server import _wire, reading_judge
from referee.engine.cli import main
from referee.llm_adapter.cassette import load, request_key
from referee.llm_adapter.backends import ChatRequest
from sharded import RULE_ARGS, files, fresh

MODEL = {"openai": "gpt-4o-mini", "anthropic": "claude-sonnet-4-5"}

# The documented shapes, restated as data. A value is a type, a set of allowed
# values, a regex a string must match in full, or a nested shape; "?" marks an
# optional key. OpenAI: the Batch API's input file (one request per line) and
# output file; Anthropic: a Message Batches request and a results line.
OPENAI_REQUEST = {"custom_id": str, "method": {"POST"}, "url": {"/v1/chat/completions"},
                  "body": {"model": str, "messages": [{"role": {"system", "user", "assistant"}, "content": str}],
                           "temperature?": (int, float), "seed?": int, "max_tokens?": int}}
ANTHROPIC_REQUEST = {"custom_id": re.compile(r"[a-zA-Z0-9_-]{1,64}"),
                     "params": {"model": str, "max_tokens": int, "system?": str, "temperature?": (int, float),
                                "messages": [{"role": {"user", "assistant"}, "content": str}]}}
OPENAI_RESULT = {"id": "batch_req_123", "custom_id": "request-2", "response": {
    "status_code": 200, "request_id": "req_123", "body": {
        "id": "chatcmpl-123", "object": "chat.completion", "created": 1711652795, "model": "gpt-4o-mini-2024-07-18",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello."}, "logprobs": None,
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 22, "completion_tokens": 2, "total_tokens": 24}, "system_fingerprint": "fp_123"}},
    "error": None}
OPENAI_FAILED = {"id": "batch_req_456", "custom_id": "request-3", "response": None, "error": {
    "code": "batch_expired", "message": "This request could not be executed before the completion window expired."}}
ANTHROPIC_RESULT = {"custom_id": "my-second-request", "result": {"type": "succeeded", "message": {
    "id": "msg_014VwiXbi91y3JMjcpyGBHX5", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "Hello again!"}], "stop_reason": "end_turn", "stop_sequence": None,
    "usage": {"input_tokens": 11, "output_tokens": 36}}}}
ANTHROPIC_FAILED = {"custom_id": "my-third-request", "result": {"type": "errored", "error": {
    "type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: Field required"}}}}


def conforms(value, shape, where="") -> list[str]:
    """Where ``value`` departs from ``shape`` (empty: it conforms)."""
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        wanted = {k.rstrip("?"): k.endswith("?") for k in shape}
        found = [f"{where}.{k}: unknown" for k in value if k not in wanted]
        found += [f"{where}.{k}: missing" for k, optional in wanted.items() if not optional and k not in value]
        for key, inner in shape.items():
            if key.rstrip("?") in value:
                found += conforms(value[key.rstrip("?")], inner, f"{where}.{key.rstrip('?')}")
        return found
    if isinstance(shape, list):
        return [p for n, item in enumerate(value) for p in conforms(item, shape[0], f"{where}[{n}]")] \
            if isinstance(value, list) and value else [f"{where}: not a non-empty list"]
    if isinstance(shape, set):
        return [] if value in shape else [f"{where}: {value!r} not in {shape}"]
    if isinstance(shape, re.Pattern):
        return [] if isinstance(value, str) and shape.fullmatch(value) else [f"{where}: {value!r} does not match"]
    return [] if isinstance(value, shape) and not isinstance(value, bool) else [f"{where}: {value!r} is not {shape}"]


def export(workspace: Path, kind: str, target: Path, *extra: str) -> int:
    return main(["grade", str(workspace), *RULE_ARGS, "--llm", f"{kind}:{MODEL[kind]}",
                 "--llm-batch-export", str(target), *extra])


def provider(requests: Path, kind: str, target: Path) -> None:
    """What the provider's batch would answer: the scripted judge for each request."""
    lines = []
    for line in requests.read_text(encoding="utf-8").splitlines():
        request = json.loads(line)
        if kind == "openai":
            body = request["body"]
            lines.append({"id": "batch_req_1", "custom_id": request["custom_id"], "response": {
                "status_code": 200, "request_id": "req_1",
                "body": _wire("/v1/chat/completions", body, reading_judge(body))}, "error": None})
        else:
            body = request["params"]
            lines.append({"custom_id": request["custom_id"], "result": {
                "type": "succeeded", "message": _wire("/v1/messages", body, reading_judge(body))}})
    target.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def import_(workspace: Path, kind: str, cassette: Path, *results: Path) -> int:
    return main(["grade", str(workspace), *RULE_ARGS, "--llm", f"replay:{cassette}", "--llm-backend",
                 f"{kind}:{MODEL[kind]}", "--llm-batch-import", *map(str, results)])


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_the_export_is_the_documented_batch_keyed_by_the_cassette_key(kind, tmp_path, capsys):
    ws = fresh(tmp_path)
    requests = tmp_path / "requests.jsonl"
    assert export(ws, kind, requests) == 0  # no key, no network: nothing is sent
    assert files(ws) == {}  # and no report is written
    lines = requests.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6  # one run, one request: its semantic assertions together
    shape = OPENAI_REQUEST if kind == "openai" else ANTHROPIC_REQUEST
    keys = []
    for line in lines:
        request = json.loads(line)
        assert conforms(request, shape) == []
        body = request["body"] if kind == "openai" else request["params"]
        turns = [(m["role"], m["content"]) for m in body["messages"] if m["role"] != "system"]
        system = body["messages"][0]["content"] if kind == "openai" else body["system"]
        params = {k: v for k, v in body.items() if k not in ("model", "messages", "system")}
        assert request["custom_id"] == request_key(body["model"], params, ChatRequest(system, tuple(turns)))
        assert line == json.dumps(request, ensure_ascii=False, separators=(",", ":"))  # canonical
        keys.append(request["custom_id"])
    assert keys == sorted(set(keys))
    assert f"wrote 6 judge requests to {requests.as_posix()}" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_imported_results_fill_the_cassette_and_grading_replays_it(kind, tmp_path, capsys):
    ws = fresh(tmp_path)
    requests, results, cassette = tmp_path / "requests.jsonl", tmp_path / "results.jsonl", tmp_path / "c.jsonl"
    export(ws, kind, requests)
    provider(requests, kind, results)
    assert import_(ws, kind, cassette, results) == 1  # graded: the example fails some assertions
    imported = files(ws)
    meta, entries = load(cassette)
    assert (meta["backend"], meta["model"]) == (kind, MODEL[kind]) and len(entries) == 6
    graded = json.loads(next(v for k, v in imported.items() if k.endswith("grading.json")))
    assert graded["grader"]["llm"]["replayed"] is True
    assert not any("not graded:" in e["evidence"] for e in graded["expectations"])
    again = tmp_path / "again"
    shutil.copytree(fresh(tmp_path / "b"), again)
    main(["grade", str(again), *RULE_ARGS, "--llm", f"replay:{cassette}"])
    assert files(again) == imported  # a later replay writes the very same bytes
    capsys.readouterr()
    assert export(fresh(tmp_path / "c"), kind, requests, "--llm-backend", f"{kind}:{MODEL[kind]}") == 0
    assert main(["grade", str(fresh(tmp_path / "d")), *RULE_ARGS, "--llm", f"auto:{cassette}", "--llm-backend",
                 f"{kind}:{MODEL[kind]}", "--llm-batch-export", str(requests)]) == 0
    assert requests.read_text(encoding="utf-8") == ""  # the cassette answers them all: nothing to send


def test_the_batch_gives_the_verdicts_a_live_judge_gives(tmp_path, capsys):
    from llm_server import ScriptedServer

    live = fresh(tmp_path / "live")
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(live), *RULE_ARGS, "--llm", "openai:gpt-4o-mini", "--llm-base-url", server.url + "/v1"])
    batch = fresh(tmp_path / "batch")
    requests, results, cassette = tmp_path / "r.jsonl", tmp_path / "res.jsonl", tmp_path / "c.jsonl"
    export(batch, "openai", requests)
    provider(requests, "openai", results)
    import_(batch, "openai", cassette, results)

    def verdicts(workspace):
        return {k: [(e["key"], e["outcome"], e["evidence"]) for e in json.loads(v)["expectations"]]
                for k, v in files(workspace, ("grading.json",)).items()}

    assert verdicts(batch) == verdicts(live)


def test_shards_export_the_same_line_for_the_same_request(tmp_path, capsys):
    ws = fresh(tmp_path)
    # Two runs with the same files ask the same request; with 3 shards, run-1 falls in
    # shard 1 and run-3 in shard 2.
    run = ws / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-1"
    shutil.copytree(run, run.parent / "run-3")
    whole = tmp_path / "whole.jsonl"
    export(ws, "anthropic", whole)
    lines: list[str] = []
    for index in (1, 2, 3):
        part = tmp_path / f"part-{index}.jsonl"
        assert export(ws, "anthropic", part, "--shard", f"{index}/3") == 0
        lines += part.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7 and len(set(lines)) == 6  # the two runs' request: one line, twice
    assert sorted(set(lines)) == whole.read_text(encoding="utf-8").splitlines()  # LC_ALL=C sort -u


def _results(tmp_path: Path, kind: str, *values: dict | str) -> Path:
    path = tmp_path / "results.jsonl"
    path.write_text("".join((v if isinstance(v, str) else json.dumps(v)) + "\n" for v in values), encoding="utf-8")
    return path


KEY = "a" * 64


def _keyed(value: dict, key: str = KEY) -> dict:
    return {**value, "custom_id": key}


@pytest.mark.parametrize("kind, good, failed", [
    ("openai", OPENAI_RESULT, OPENAI_FAILED), ("anthropic", ANTHROPIC_RESULT, ANTHROPIC_FAILED)])
def test_the_documented_result_lines_are_read(kind, good, failed, tmp_path, capsys):
    results = _results(tmp_path, kind, _keyed(good), _keyed(failed, "b" * 64))
    cassette = tmp_path / "c.jsonl"
    import_(fresh(tmp_path), kind, cassette, results)
    _, entries = load(cassette)
    text = good["response"]["body"]["choices"][0]["message"]["content"] if kind == "openai" else "Hello again!"
    assert [(e["key"], e["reply"], e["seconds"]) for e in entries.values()] == [(KEY, text, 0.0)]
    err = capsys.readouterr().err
    assert "imported 1 replies" in err and f"no reply: {'b' * 12}" in err


@pytest.mark.parametrize("kind, lines, message", [
    ("openai", [_keyed(OPENAI_RESULT), "not json"], "results.jsonl:2: not a JSON line"),
    ("openai", ["{}"], "results.jsonl:1: not a batch result"),
    ("openai", [_keyed(OPENAI_RESULT, "request-2")], "custom_id 'request-2' is not a request key referee exported"),
    ("openai", [_keyed(ANTHROPIC_RESULT)], "not an OpenAI batch result"),
    ("anthropic", [_keyed(OPENAI_RESULT)], "not an Anthropic batch result"),
    ("anthropic", [_keyed(ANTHROPIC_RESULT), _keyed({"custom_id": "", "result": {
        "type": "succeeded", "message": {"content": [{"type": "text", "text": "other"}]}}})],
     "was answered at"),
])
def test_a_bad_result_file_is_refused_naming_its_line(kind, lines, message, tmp_path, capsys):
    ws = fresh(tmp_path)
    results = _results(tmp_path, kind, *lines)
    assert import_(ws, kind, tmp_path / "c.jsonl", results) == 2
    assert message in capsys.readouterr().err
    assert files(ws) == {} and not (tmp_path / "c.jsonl").exists()


def test_a_result_file_that_is_not_utf8_is_refused_naming_its_line(tmp_path, capsys):
    ws = fresh(tmp_path)
    results = _results(tmp_path, "openai", _keyed(OPENAI_RESULT))
    results.write_bytes(results.read_bytes() + b'{"custom_id": "\xff"}\n')
    assert import_(ws, "openai", tmp_path / "c.jsonl", results) == 2
    assert "results.jsonl:2: not UTF-8" in capsys.readouterr().err
    assert files(ws) == {} and not (tmp_path / "c.jsonl").exists()


def test_batch_flags_that_cannot_work_are_usage_errors(tmp_path, capsys):
    ws = fresh(tmp_path)
    assert main(["grade", str(ws), *RULE_ARGS, "--llm-batch-export", "x.jsonl"]) == 2
    assert "need --llm" in capsys.readouterr().err
    assert main(["grade", str(ws), *RULE_ARGS, "--llm", "openai:m", "--llm-batch-import", "r.jsonl"]) == 2
    assert "give --llm replay:PATH --llm-backend openai:m" in capsys.readouterr().err
    assert main(["grade", str(ws), *RULE_ARGS, "--llm", "replay:c.jsonl", "--llm-batch-import", "r.jsonl"]) == 2
    assert "needs --llm-backend" in capsys.readouterr().err
    assert main(["grade", str(ws), *RULE_ARGS, "--llm", "auto:c.jsonl", "--llm-backend", "openai:m",
                 "--llm-batch-export", "x", "--llm-batch-import", "r"]) == 2
    assert "not both" in capsys.readouterr().err
    assert files(ws) == {}
