"""Real runs (``fixtures/real``, each with its SOURCE.md) cut short, as a copy cut or a
run killed while its log was written leaves them: no negative check the whole run
fails may pass on what is left. Each such check is built from the run itself: ``no
calls to "T"`` for each tool it calls, ``count(calls) <= N-1`` for its N calls, ``not
response contains "W"`` for the first and last words of its response (and, for a run
folder, checks on its metrics.json). On a cut, each must be an ERROR, or a FAIL where
what is left still shows the failure: a call read is a call made, but the words read
before a cut are never known to be the reply, nor a JSON file cut to hold its counts,
so a check on the file cut is an ERROR. A cut that holds no run at all is refused
(ValueError), never graded.

Where each file is cut (a deterministic sample, a few seconds in all):

- every source an importer reads, inside a record: the middle of the first and of the
  last record of each kind, and one byte before the end of the last record (its
  closing bracket lost); and inside a UTF-8 sequence;
- a source whose end is marked, also right after such records: stream-json (a
  ``result`` record ends each turn) and a JSON document (its closing bracket); but
  not right after a ``result`` record: a stream of several turns (its prompts given on
  its input, as the Agent SDK gives them) cut there holds whole turns, and nothing in
  it tells it from a run that ended after them;
- not a Claude Code session log, nor a subagent's ``agent-*.jsonl`` file, cut exactly
  between two lines: nothing marks where a session ends, so such a cut cannot be told
  from a session that ended there. But a session log cut between two lines while its
  agent works (its last step a call, or its thinking alone after a request), and so cut
  after a compaction Claude Code made mid-turn, is: the agent was at work (a test of its
  own, at every such line). Nor Markdown (an executor log, a delivered answer)
  cut anywhere but inside a UTF-8 sequence: Markdown marks no end, and a log cut after
  a word reads as a log that ends there;
- the files of a run folder: ``metrics.json`` cut anywhere (JSON marks its end); a
  response cut inside a UTF-8 sequence; and the views an import wrote
  (``transcript.md``, ``response.md``, ``metrics.json``) cut anywhere, to nothing too:
  the source map records what the import wrote.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import read_sources
from referee.engine.run.importers.jsondoc import message_array

REAL = Path(__file__).resolve().parent / "fixtures" / "real"
WORD = re.compile(r"[A-Za-z]{4,}")


@dataclass(frozen=True)
class Source:
    """A real source file; ``graded`` the file graded when it is cut (a subagent's file
    is read with its session), ``marked`` whether the format marks its end."""

    path: str
    marked: bool
    graded: str | None = None


SESSION, MARKED = False, True
SOURCES = (
    Source("claude-code/coverage-test-fix/transcript.jsonl", SESSION),
    Source("claude-code/hello-world-script/transcript.jsonl", SESSION),
    Source("claude-code/python-to-rust-port/transcript.jsonl", SESSION),
    Source("claude-code/fasthooks-samples/sample_main_transcript.jsonl", SESSION),
    Source("claude-code/fasthooks-samples/sample-transcript.jsonl", SESSION),
    Source("claude-code/fasthooks-samples/agent-af1ff21.jsonl", SESSION, "sample_main_transcript.jsonl"),
    Source("claude-code/mcp-thinking-api-error/real-claude-logs.jsonl", SESSION),
    Source("claude-code/permission-dialog-edit-refused/c2fc3a3f-66d5-4c87-9f78-1a31dd719471.jsonl", SESSION),
    Source("claude-code/permission-dialog-bash-refused/adfc5dd1-7ead-4bf4-8be5-810ab3437d8b.jsonl", SESSION),
    Source("claude-code/ask-user-question-answered/038eda5e-b5fd-435b-bcc4-982f95f54f09.jsonl", SESSION),
    Source("claude-code/stop-hook-progress-records/d266fdf5-b6a3-46aa-8627-920959a0109a.jsonl", SESSION),
    # its calls are unknown whole (a subagent in the background), but the Agent call read fails
    # 'no calls to "Agent"' whole: a cut may FAIL it too, never pass it
    Source("claude-code/hook-harness-probe/agente-pai.jsonl", SESSION),
    Source("claude-code/sidechain-integrated/sidechain_integrated.jsonl", SESSION),
    Source("claude-code/stream-json-diagnostic/claude-stream-json-simple.jsonl", MARKED),
    Source("claude-code/stream-async-agent/claude_stream_subagent_multi_result.jsonl", MARKED),
    Source("claude-code/stream-parallel-calls/claude_stream_real_capture.jsonl", MARKED),
    Source("claude-code/stream-api-retry/claude_stream_overloaded_retries.jsonl", MARKED),
    Source("claude-code/stream-reads-its-own-log/claude-stream-json-log.log", MARKED),
    Source("claude-code/stream-compaction/claude_compaction_2.1.285.jsonl", MARKED),
    Source("claude-code/stream-compaction/claude_autocompact_2.1.285.jsonl", MARKED),
    Source("claude-code/stream-permission-refused/disallowed_write.json", MARKED),
    Source("openai/autogen-fireworks-stock-chart/nvda-stock-chart.json", MARKED),
    Source("openai/inspect-ai-browser/browser-aisi-work.json", MARKED),
    Source("openai/langgraph-weather/weather_sf_and_nyc.json", MARKED),
    Source("openai/mini-swe-agent-github-issue/github_issue.traj.json", MARKED),
    Source("openai/mini-swe-agent-2-tool-calls/astropy__astropy-12907.traj.json", MARKED),
    Source("openai/nemo-gym-weather/simple-agent-weather.json", MARKED),
    Source("openai/cookbook-custom-tool-call/strawberry-circle-area.json", MARKED),
    Source("openai/swarm-js-refund/eg-run.json", MARKED),
    Source("openai/swe-agent-test-repo/sweagenttestrepo-1c2844.history.json", MARKED),
    Source("openai/tau-bench-retail/grok-3-retail-task-0.json", MARKED),
    Source("openai/tau2-bench-retail-return/retail-task-13.json", MARKED),
    Source("openai/tau2-bench-telecom-user-device/telecom-mobile-data.json", MARKED),
    # runs whose calls are unknown whole, but whose calls read fail checks whole (see agente-pai)
    Source("openai/ellmer-logged-requests/third-request.json", MARKED),
    Source("openai/toolbench-seo-api-retried/seo-api-iphone-14.json", MARKED),
    # an executor log, read as a source (referee import skill-creator-log): Markdown
    Source("human-narrative-workspace/e1-with/transcript.md", SESSION),
)
# Sources no negative check can be tried on: the whole file fails none (each is an
# ERROR already: its calls, its response and its harness text are unknown), or it
# holds no run.
UNTRIED = {
    "claude-code/hook-harness-probe/agente-pai/subagents/agent-a37464c2ec09cda59.jsonl": "read with agente-pai.jsonl",
    "claude-code/compact-command-prompt-suggestions/8aa54c1d-5030-4491-be42-e0c416424b8a.jsonl":
        "it holds no call, and its reply (3 + 3 = 6) no word to check",
    "claude-code/compact-command-prompt-suggestions/8aa54c1d-5030-4491-be42-e0c416424b8a/subagents/"
    "agent-aprompt_suggestion-029c25.jsonl": "read with its session (its prompt, interrupted, holds no call)",
    "claude-code/compact-command-prompt-suggestions/8aa54c1d-5030-4491-be42-e0c416424b8a/subagents/"
    "agent-aprompt_suggestion-e6d768.jsonl": "read with its session (its prompt, interrupted, holds no call)",
    "claude-code/hook-harness-probe/prompt-submit.jsonl": "it holds no call and no reply",
    "claude-code/clear-command-two-sessions/fd129add-ce1a-4256-a00b-4173def02b54.jsonl":
        "it holds no call, and its reply (3 + 3 = 6) no word to check",
    "claude-code/clear-command-two-sessions/b8b14e62-252c-439c-88ad-18098b56d6c1.jsonl":
        "it holds no run (the session /clear started: no request, nothing of the agent)",
    "claude-code/permission-dialog-edit-refused/c2fc3a3f-66d5-4c87-9f78-1a31dd719471/subagents/"
    "agent-aprompt_suggestion-dcd338.jsonl": "read with its session (its prompt, interrupted, holds no call)",
    "claude-code/stream-compaction/claude_compact_empty_2.1.285.jsonl": "it holds no call and no reply",
    "openai/nemo-gym-docs-qa-cut-short/deep-agents-version.json": "its calls and response are unknown whole",
    "openai/ellmer-logged-requests/first-request.json":
        "its calls and response are unknown whole (a logged request, its completion not beside it)",
    "openai/smolagents-tool-calling-math/tool-calling-math-tan-a.json": "its calls and response are unknown whole",
    "openai/swe-agent-humanevalfix/humanevalfix-python-0.history.json": "its calls and response are unknown whole",
    "openai/tau-bench-crashed-task/tool-calling-deepseek-v3-0.0_range_0-1_user-gpt-4o-human_0612073827.json":
        "its task crashed: it holds no run",
}


def _calls(conversation):
    for call in conversation.calls:
        yield call
        if call.subagent is not None:
            yield from _calls(call.subagent)


def negative_checks(path: Path) -> list[str]:
    """The negative checks built from the run at ``path`` (read whole), before grading."""
    read = read_sources("auto", [path])
    if not read.found:
        return []
    conversation = read.found[0][2]
    calls = list(_calls(conversation))
    checks = [f"no calls to {json.dumps(tool)}" for tool in sorted({call.tool for call in calls})]
    checks += [f"count(calls) <= {len(calls) - 1}"] if calls else []
    words = WORD.findall("\n".join(text.text for text in conversation.response))
    checks += [f"not response contains {json.dumps(word)}" for word in dict.fromkeys(words[:1] + words[-1:])]
    return checks


def rules(checks: list[str], eval_id: str = "1") -> str:
    return f"eval {json.dumps(eval_id)}\n" + "".join(f"expect {n}: {check}\n" for n, check in enumerate(checks, 1))


def outcomes(program, where: Path, **options) -> list[str] | None:
    """The outcomes of each check, in order; None when the input holds no run (refused)."""
    try:
        results = referee.grade(program, where, **options)
    except ValueError:
        return None
    (result,) = results
    return [item["outcome"] for item in result.expectations]


@cache
def failed_whole(path: str) -> tuple[str, ...]:
    """The negative checks the whole source fails (graded where it lies)."""
    source = REAL / path
    checks = negative_checks(source)
    if not checks:
        return ()
    graded = outcomes(referee.compile(rules(checks)), source, as_eval="1")
    return tuple(check for check, outcome in zip(checks, graded) if outcome == "fail")


# --- where to cut ------------------------------------------------------------------


def records(data: bytes) -> list[tuple[int, int]]:
    """``(start, end)`` of each record: each JSON line of a JSON-lines file, each message
    of a document (inside each conversation of a list of conversations)."""
    document = message_array(data)
    if document is None:
        return [(m.start(), m.end()) for m in re.finditer(rb"[^\n]+", data) if m.group().strip()]
    found = []
    for element in document.elements:
        inner = message_array(data[element.start:element.end])
        if inner is not None and inner.base:  # a conversation holding its messages (tau-bench's traj)
            found += [(element.start + e.start, element.start + e.end) for e in inner.elements]
        else:
            found.append((element.start, element.end))
    return found


def kind(text: bytes) -> tuple:
    """What kind of record ``text`` is: its type, subtype and role, the kinds of the
    blocks it holds, whether it makes calls."""
    value = json.loads(text)
    if not isinstance(value, dict):
        return (type(value).__name__,)
    message = value.get("message") if isinstance(value.get("message"), dict) else value
    content = message.get("content")
    blocks = tuple(sorted({b.get("type", "") for b in content if isinstance(b, dict)})) \
        if isinstance(content, list) else (type(content).__name__,)
    return (value.get("type"), value.get("subtype"), message.get("role"), blocks, "tool_calls" in message,
            value.get("isSidechain"), value.get("parent_tool_use_id") is not None)


def sampled(data: bytes) -> list[tuple[int, int]]:
    """The first and the last record of each kind, and the last record, in file order."""
    found = records(data)
    first: dict[tuple, tuple[int, int]] = {}
    last: dict[tuple, tuple[int, int]] = {}
    for record in found:
        key = kind(data[record[0]:record[1]])
        first.setdefault(key, record)
        last[key] = record
    return sorted(set(first.values()) | set(last.values()) | set(found[-1:]))


def inside(data: bytes) -> list[int]:
    """Offsets inside records: the middle of each record sampled, and one byte before
    the end of the last (its closing bracket lost)."""
    chosen = sampled(data)
    return sorted({(start + end) // 2 for start, end in chosen} | {chosen[-1][1] - 1})


def after(data: bytes) -> list[int]:
    """Offsets right after each record sampled but the last (which ends the file), and
    after the line end that follows it, if any."""
    offsets = set()
    for start, end in sampled(data)[:-1]:
        if kind(data[start:end])[0] == "result":
            continue  # the end of a turn: what is left is a run of fewer turns, whole
        offsets.add(end)
        if data[end:end + 1] == b"\n":
            offsets.add(end + 1)
    return sorted(offsets)


def in_utf8(data: bytes) -> list[int]:
    """Offsets inside a UTF-8 sequence: at the first, a middle and the last of them."""
    inner = [at for at, byte in enumerate(data) if 0x80 <= byte < 0xC0 and data[at - 1] >= 0xC0]
    return sorted({inner[0], inner[len(inner) // 2], inner[-1]}) if inner else []


CUTS = {"inside a record": inside, "after a record": after, "inside a UTF-8 sequence": in_utf8}


def _cases() -> list:
    return [pytest.param(source, name, id=f"{source.path.split('/')[-2]}/{Path(source.path).stem}: {name}")
            for source in SOURCES for name in CUTS
            if (name != "after a record" or source.marked) and (name == "inside a UTF-8 sequence" or _json(source))]


def _json(source: Source) -> bool:
    """Whether the source is JSON (its records found by their brackets), not Markdown."""
    return source.path.endswith((".json", ".jsonl"))


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    """Each source's folder copied once (the files read beside it too); a cut is
    written over the copy of the source and put back after."""
    root = tmp_path_factory.mktemp("real")
    made: dict[str, Path] = {}

    def copy(path: str) -> Path:
        if path not in made:
            made[path] = root / str(len(made))
            shutil.copytree((REAL / path).parent, made[path])
        return made[path]

    return copy


@pytest.mark.parametrize("source, cut", _cases())
def test_a_source_cut_short_never_passes_a_check_the_whole_run_fails(copies, source: Source, cut: str):
    checks = list(failed_whole(source.graded and str(Path(source.path).with_name(source.graded)) or source.path))
    assert checks, "the whole run fails no negative check: nothing to try"
    folder = copies(source.path)
    target = folder / Path(source.path).name
    graded = folder / (source.graded or target.name)
    data = target.read_bytes()
    offsets = CUTS[cut](data)
    program = referee.compile(rules(checks))
    wrong = []
    try:
        for offset in offsets:
            target.write_bytes(data[:offset])
            found = outcomes(program, graded, as_eval="1")
            wrong += [(offset, check, outcome) for check, outcome in zip(checks, found or ())
                      if not allowed(check, outcome, source.graded is None)]
    finally:
        target.write_bytes(data)
    assert not wrong, wrong


def allowed(check: str, outcome: str, holds_reply: bool) -> bool:
    """Whether ``outcome`` of ``check`` may stand on a cut source. A call read is still
    read, so a check that no such call was made may FAIL; but the words read before a
    cut are never known to be the reply, so a check on the response of a file cut
    (``holds_reply``: not a subagent's file, read beside the session whole) is an ERROR."""
    return outcome == "error" or (outcome == "fail" and not (holds_reply and check.startswith("not response")))


def test_every_real_source_is_cut_or_said_why_not():
    # a workspace's own files (a grade, the eval's sentences, timing, a harness's
    # receipt of its commands or of the CLI's result) hold no conversation to cut
    workspace_files = ("grading.json", "eval_metadata.json", "evals.json", "timing.json", "execution.json",
                       "run_result.json")
    held = {str(path.relative_to(REAL)) for path in REAL.rglob("*.json*")
            if "outputs" not in path.parts and path.name not in workspace_files}
    held -= {"imports.yaml"}
    assert held == {source.path for source in SOURCES if _json(source)} | set(UNTRIED)
    for path in UNTRIED:
        assert not failed_whole(path), path


# --- the files of a run folder -------------------------------------------------------


def folder_checks(run_dir: Path, response: str | None = None) -> list[str]:
    """The negative checks built from a run folder read whole: its metrics.json's counts
    (calls per tool and in all), and the first and last words of its response (the file
    ``response`` names, else as the run reads it)."""
    from referee.engine.run.workspace import discover

    (run,) = discover(run_dir).runs
    checks = []
    metrics = json.loads((run_dir / "outputs" / "metrics.json").read_text(encoding="utf-8")) \
        if (run_dir / "outputs" / "metrics.json").is_file() else {}
    for tool, count in sorted((metrics.get("tool_calls") or {}).items()):
        if count:
            checks += [f"no calls to {json.dumps(tool)}", f"count(calls to {json.dumps(tool)}) <= {count - 1}",
                       f"jsonpath(metrics, {json.dumps(f'$.tool_calls[{json.dumps(tool)}]')}) == [0]"]
    if metrics.get("total_tool_calls"):
        total = metrics["total_tool_calls"]
        checks += [f"count(calls) <= {total - 1}", f"metrics.total_tool_calls <= {total - 1}"]
    said = (run_dir / response).read_text(encoding="utf-8") if response is not None \
        else run.response.text if run.response is not None else None
    words = WORD.findall(said or "")
    return checks + [f"not response contains {json.dumps(word)}" for word in dict.fromkeys(words[:1] + words[-1:])]


def graded_at(program, where: Path, run: str, **options) -> list[str]:
    """The outcomes of the run at ``run`` (relative to ``where``)."""
    results = {result.path: result for result in referee.grade(program, where, **options)}
    return [item["outcome"] for item in results[run].expectations]


RESPONSE, CALLS, METRICS = ("not response",), ("no calls", "count(calls"), ("metrics.", "jsonpath(metrics")


def wrong_when_cut(where: Path, run: str, eval_id: str, target: Path, offsets: list[int], reads: tuple[str, ...],
                   **options) -> list:
    """``(offset, check, outcome)`` of each check the whole run fails that, once
    ``target`` is cut at an offset, passes, or fails though it reads the file cut (it
    starts with one of ``reads``): what it read is not all there was, so it is an ERROR.
    The checks are built from the run folder read whole."""
    checks = folder_checks(where / run, options.get("response"))
    program = referee.compile(rules(checks, eval_id))
    whole = graded_at(program, where, run, **options)
    failing = [n for n, outcome in enumerate(whole) if outcome == "fail"]
    assert failing, "the whole run fails no negative check: nothing to try"
    data = target.read_bytes()
    wrong = []
    try:
        for offset in offsets:
            target.write_bytes(data[:offset])
            found = graded_at(program, where, run, **options)
            wrong += [(offset, checks[n], found[n]) for n in failing
                      if found[n] == "pass" or (found[n] == "fail" and checks[n].startswith(reads))]
    finally:
        target.write_bytes(data)
    return wrong


def json_cuts(data: bytes) -> list[int]:
    """Offsets inside a JSON document: every seventh byte, and its last byte lost."""
    return sorted(set(range(1, len(data), 7)) | {len(data.rstrip()) - 1})


@pytest.mark.parametrize("run", ["e1-with", "e2-without"])
def test_an_executor_log_and_its_metrics_cut_short_never_pass(tmp_path: Path, run: str):
    where = tmp_path / "ws"
    shutil.copytree(REAL / "human-narrative-workspace", where)
    log, metrics = where / run / "transcript.md", where / run / "outputs" / "metrics.json"
    assert not wrong_when_cut(where, run, run, log, in_utf8(log.read_bytes()), RESPONSE + CALLS)
    assert not wrong_when_cut(where, run, run, metrics, json_cuts(metrics.read_bytes()), METRICS)


DELIVERED = [("word-count-audit-workspace", "2", "iteration-7/eval-2/with_skill"),
             ("word-count-audit-workspace", "2", "iteration-7/eval-2/old_skill"),
             ("audit-skill-workspace", "0", "iteration-7/eval-0/with_skill"),
             ("audit-skill-workspace", "0", "iteration-7/eval-0/old_skill")]


@pytest.mark.parametrize("workspace, eval_id, run", DELIVERED, ids=[f"{w}/{r}" for w, _, r in DELIVERED])
def test_a_response_cut_inside_a_utf8_sequence_never_passes(tmp_path: Path, workspace: str, eval_id: str, run: str):
    where = tmp_path / "ws"
    shutil.copytree(REAL / workspace, where)
    report = where / run / "outputs" / "audit-report.md"
    offsets = in_utf8(report.read_bytes())
    assert offsets
    assert not wrong_when_cut(where, run, eval_id, report, offsets, RESPONSE, response="outputs/audit-report.md")
    report.rename(report.with_name("response.md"))  # the same answer where a harness writes it by default
    assert not wrong_when_cut(where, run, eval_id, report.with_name("response.md"), offsets, RESPONSE)


IMPORTED = [("claude-code", "claude-code/coverage-test-fix/transcript.jsonl"),
            ("claude-code", "claude-code/stream-json-diagnostic/claude-stream-json-simple.jsonl"),
            ("openai", "openai/swarm-js-refund/eg-run.json"),
            ("openai", "openai/tau2-bench-retail-return/retail-task-13.json"),
            ("skill-creator-log", "human-narrative-workspace/e1-with/transcript.md")]


@pytest.mark.parametrize("kind, source", IMPORTED, ids=[source for _, source in IMPORTED])
@pytest.mark.parametrize("view", ["outputs/transcript.md", "outputs/response.md", "outputs/metrics.json"])
def test_a_view_an_import_wrote_cut_short_never_passes(tmp_path: Path, kind: str, source: str, view: str):
    from referee.engine.run.importers import import_sources

    where = tmp_path / "ws"
    (written,) = import_sources(kind, [REAL / source], where, eval_id="1").written
    run = written.name
    target = where / run / view
    data = target.read_bytes()
    offsets = sorted({0, len(data) // 3, len(data) // 2, len(data.rstrip()) - 1} | set(in_utf8(data)))
    reads = {"outputs/transcript.md": CALLS, "outputs/response.md": RESPONSE, "outputs/metrics.json": METRICS}[view]
    assert not wrong_when_cut(where, run, "1", target, offsets, reads)


# --- a session log cut between two lines while the agent works ----------------------------------

# The compaction Claude Code writes of its own when the context runs out mid-turn, as a real
# session wrote it for /compact (its boundary and its summary): the agent carries on after it.
_COMPACTED = REAL / "claude-code" / "fasthooks-samples" / "sample_main_transcript.jsonl"


def compaction(last: dict) -> bytes:
    """The real compaction's two records, made automatic, in the session of ``last`` (the
    record the cut leaves last): its session, folder and chain."""
    boundary, summary = (json.loads(line) for line in _COMPACTED.read_bytes().splitlines()[48:50])
    boundary["compactMetadata"]["trigger"] = "auto"
    boundary["logicalParentUuid"] = last.get("uuid")
    for record in (boundary, summary):
        record.update({key: last[key] for key in ("sessionId", "cwd") if key in last})
    return b"".join(json.dumps(record).encode() + b"\n" for record in (boundary, summary))


def at_work(values: list) -> bool:
    """Whether a session's main agent is at work after the records ``values``, as the
    records themselves say: its last step (a text or a call; thinking is none) is a
    call, and no turn of the user (a message with words, neither meta nor a compaction's
    summary nor a tool's answer) came after it; or, after the user's last turn, it wrote
    thinking alone (Claude Code writes a message's thinking on a line of its own, before
    the words or the call that follow)."""
    thought = False  # an assistant record with no step after the user's last turn
    for value in reversed(values):
        if not isinstance(value, dict) or value.get("isSidechain") or not isinstance(value.get("message"), dict):
            continue
        content = value["message"].get("content")
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        kinds = [part.get("type") for part in parts if isinstance(part, dict)]
        steps = [kind for kind in kinds if kind in ("text", "tool_use")]
        if value.get("type") == "assistant" and steps:
            return steps[-1] == "tool_use"
        thought = thought or value.get("type") == "assistant"
        if value.get("type") == "user" and "text" in kinds and not (value.get("isMeta")
                                                                   or value.get("isCompactSummary")):
            return thought
    return False


SESSIONS = [source for source in SOURCES if source.path.startswith("claude-code/") and not source.marked
            and source.graded is None]


@pytest.mark.parametrize("then", ["", "a compaction"])
@pytest.mark.parametrize("source", SESSIONS, ids=[source.path.removeprefix("claude-code/") for source in SESSIONS])
def test_a_session_log_cut_between_lines_while_the_agent_works_never_passes(tmp_path: Path, source: Source,
                                                                            then: str):
    """Cut after each line where the records show the agent at work (its last step a
    call, or its thinking alone after a request), and there followed by a compaction
    Claude Code made on its own (the agent carries on after it): every check the whole
    run fails must not pass. A cut where the agent had finished a turn reads as a
    session that ended there: nothing marks a session log's end."""
    checks = list(failed_whole(source.path))
    assert checks, "the whole run fails no negative check: nothing to try"
    program = referee.compile(rules(checks))
    lines = (REAL / source.path).read_bytes().splitlines(keepends=True)
    values = [json.loads(line) for line in lines]
    cuts = [n for n in range(1, len(lines)) if at_work(values[:n])]
    assert cuts, "the records never show the agent at work"
    target = tmp_path / Path(source.path).name
    wrong = []
    for n in cuts:
        target.write_bytes(b"".join(lines[:n]) + (compaction(values[n - 1]) if then else b""))
        found = outcomes(program, target, as_eval="1")
        wrong += [(n, check, outcome) for check, outcome in zip(checks, found or ())
                  if not allowed(check, outcome, True)]
    assert not wrong, wrong
