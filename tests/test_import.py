"""``referee import``: the fixtures of every format graded end to end, evidence that
points into the original file, deterministic run folders, and bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from referee import dsl
from referee.engine.cli import main
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.report.build import in_sources
from referee.engine.run.escape import unescape_text
from referee.engine.run.importers.source_format import detect
from referee.engine.run.importers.source_map import load_source_map
from referee.engine.run.workspace import discover

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "import"
CASES = yaml.safe_load((FIXTURES / "cases.yaml").read_text(encoding="utf-8"))


def _import(fmt: str, sources: list[Path], out: Path, capsys=None) -> str:
    code = main(["import", fmt, *map(str, sources), "--out", str(out)])
    assert code == 0
    return capsys.readouterr().out if capsys is not None else ""


def _grade(workspace: Path, rules: Path) -> dict[str, dict]:
    code = main(["grade", str(workspace), "--rules", str(rules)])
    assert code in (0, 1)
    return {run.id.rel: json.loads((run.path / "grading.json").read_text(encoding="utf-8"))
            for run in discover(workspace).runs if (run.path / "grading.json").exists()}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_fixture_verdicts_and_problems(case: dict, tmp_path: Path, capsys):
    _import(case["format"], [FIXTURES / s for s in case["sources"]], tmp_path / "ws")
    reports = _grade(tmp_path / "ws", FIXTURES / case["rules"])
    capsys.readouterr()
    for name, want in case["runs"].items():
        report = reports[name]
        got = {item["key"].split("#")[1]: item["outcome"] for item in report["expectations"]}
        assert {k: got[k] for k in want["verdicts"]} == want["verdicts"], name
        for key, text in (want.get("message_contains") or {}).items():
            item = next(i for i in report["expectations"] if i["key"].endswith(f"#{key}"))
            assert text in item["evidence"], item["evidence"]
        codes = sorted({p.split("warning[")[1].split("]")[0] for p in report["problems"]})
        assert codes == sorted(want["problems"]), report["problems"]


# --- evidence names the original file and line, and that line holds the quote ----------------


def _leaves(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif value is not None and not isinstance(value, bool):
        yield value


def _holds(line: str, quote: str) -> bool:
    """The source line holds the quoted text, as written there (JSON-escaped, maybe twice):
    no quote is a label of the view (``Tool: X``, a note's heading)."""
    quote = unescape_text(quote.removesuffix("…").removesuffix("..."))
    try:
        value = json.loads(quote)
    except ValueError:
        value = quote
    leaves = [str(v) if not isinstance(v, str) else v for v in _leaves(value)] or [quote]
    # "<cwd>" stands for the working directory the source names: each piece around it must be there
    pieces = [piece for leaf in leaves for piece in leaf.split("<cwd>") if piece]
    for piece in pieces:
        once = json.dumps(piece, ensure_ascii=False)[1:-1]
        twice = json.dumps(once, ensure_ascii=False)[1:-1]
        if not any(form in line for form in (piece, once, twice)):
            return False
    return True


SOURCES = {
    "claude-code": ("claude-code/session.jsonl", "claude-code/session.rules"),
    "openai": ("openai/chat.json", "openai/chat.rules"),
    "skill-creator-log": ("skill-creator-log/outputs/transcript.md", "skill-creator-log/transcript.rules"),
}


@pytest.mark.parametrize("fmt", sorted(SOURCES))
def test_evidence_points_at_the_original_line_that_holds_the_quote(fmt: str, tmp_path: Path):
    source, rules = (FIXTURES / p for p in SOURCES[fmt])
    _import(fmt, [source], tmp_path / "ws")
    original = source.read_text(encoding="utf-8").split("\n")
    program = compile_rules([dsl.parse_rules(rules.read_text(encoding="utf-8"), rules.name)])
    checked = 0
    for run in discover(tmp_path / "ws").runs:
        compiled = program.for_run(run.id, run.metadata)
        if compiled is None:
            continue
        source_map, _ = load_source_map(run.path)
        for verdict in evaluate(compiled, run):
            for item in in_sources(verdict, source_map).evidence:
                if item.file == source.name and item.quote:
                    assert _holds(original[item.line - 1], item.quote), (item, original[item.line - 1])
                    checked += 1
                else:
                    assert item.file != "outputs/transcript.md" or item.line is None, item
    assert checked >= 3


def test_grading_json_names_the_source_file_and_line(tmp_path: Path):
    _import("claude-code", [FIXTURES / "claude-code/session.jsonl"], tmp_path / "ws")
    report = _grade(tmp_path / "ws", FIXTURES / "claude-code/session.rules")["session"]
    item = next(i for i in report["expectations"] if i["key"] == "session#1")
    assert [(e["file"], e["line"]) for e in item["evidence_location"]] == [("session.jsonl", 8), ("session.jsonl", 9)]
    assert "session.jsonl:8" in item["evidence"] and "transcript.md" not in item["evidence"]


# --- determinism ------------------------------------------------------------------------------


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_import_is_byte_identical_whatever_the_source_path(tmp_path: Path, monkeypatch):
    trees = []
    for place in ("a", "b/c/d"):
        folder = tmp_path / place
        shutil.copytree(FIXTURES, folder / "src")
        monkeypatch.chdir(folder)
        sources = ["src/claude-code/session.jsonl", str((folder / "src/openai/chat.json").resolve()),
                   "src/openai/batch.jsonl", "src/skill-creator-log/outputs/transcript.md"]
        _import("auto", sources, folder / "ws")
        trees.append(_tree(folder / "ws"))
    assert trees[0] == trees[1]
    text = b"".join(trees[0].values())
    assert b"/home/ana" not in text and str(tmp_path).encode() not in text
    assert b"<cwd>/fare-rules.md" in trees[0]["session/outputs/transcript.md"]


# --- escaping: nothing a source holds forms a heading or a fence -------------------------------


def test_agent_text_cannot_forge_a_call(tmp_path: Path):
    _import("claude-code", [FIXTURES / "claude-code/session.jsonl"], tmp_path / "ws")
    run = discover(tmp_path / "ws").runs[0]
    assert [c.tool for c in run.transcript.calls] == [
        "Read", "mcp__travel__searchFlights", "mcp__travel__searchFlights", "Task",
        "mcp__travel__bookReservation", "mcp__mail__send"]
    assert "\\## [tool_calls] Step 9: deploy" in run.transcript_file.text


# --- bad input: reported with file and line, the rest imported, no traceback -----------------


def _record(kind: str, content, uuid: str, **extra) -> dict:
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"id": extra.pop("mid", f"m-{uuid}"), "role": "assistant", "content": content}
    return {"type": kind, "sessionId": "s", "uuid": uuid, "cwd": "/w", "message": message, **extra}


def _tool_use(call_id: str, name: str = "t") -> list:
    return [{"type": "tool_use", "id": call_id, "name": name, "input": {"n": 1}}]


def _result(call_id: str, content="ok") -> list:
    return [{"type": "tool_result", "tool_use_id": call_id, "content": content}]


def test_bad_input_is_reported_with_file_and_line_and_the_rest_imported(tmp_path: Path, capsys):
    big = "x" * (20 * 1024 * 1024)
    lines = [
        json.dumps(_record("user", "do it", "u1")),                                  # 1
        "this is not JSON",                                                           # 2
        json.dumps({"type": "mystery", "sessionId": "s"}),                            # 3
        json.dumps(_record("assistant", _tool_use("a"), "u2")),                       # 4
        json.dumps(_record("user", _result("nobody"), "u3")),                         # 5
        json.dumps(_record("assistant", _tool_use("a", "again"), "u4")),              # 6
        json.dumps(_record("user", _result("a", big), "u5")),                         # 7
        json.dumps(_record("assistant", _tool_use("b", "caf\u00e9"), "u6"), ensure_ascii=False),  # 8
        json.dumps(_record("assistant", [{"type": "text", "text": "done"}], "u7")),   # 9
        '{"type": "user", "message": {"role": "us',                                   # 10, cut
    ]
    data = "\n".join(lines).encode("utf-8").replace("caf\u00e9".encode(), b"caf\xe9")
    source = tmp_path / "bad.jsonl"
    source.write_bytes(data)
    out = _import("claude-code", [source], tmp_path / "ws", capsys)
    for expected in ("bad.jsonl:2: warning[bad-json]", "bad.jsonl:3: warning[unknown-record]",
                     "bad.jsonl:5: warning[orphan-result]", "bad.jsonl:6: warning[duplicate-id]",
                     "bad.jsonl:7: warning[value-cut]", "bad.jsonl:8: warning[not-utf8]",
                     "bad.jsonl:10: warning[truncated]"):
        assert expected in out, out
    run = discover(tmp_path / "ws").runs[0]
    calls = run.transcript.calls
    assert [(c.tool, c.status) for c in calls] == [("t", "success"), ("again", "no_result"), ("caf\ufffd", "no_result")]
    assert (run.path / "outputs/response.md").read_text(encoding="utf-8") == "done\n"
    assert run.transcript_file.size < 2 * 1024 * 1024
    assert any(p.code == "truncated" and p.line == 10 for p in run.problems)


def test_ten_thousand_messages_import(tmp_path: Path, capsys):
    lines = [json.dumps(_record("user", "go", "u0"))]
    for i in range(5_000):
        lines.append(json.dumps(_record("assistant", _tool_use(f"c{i}"), f"a{i}")))
        lines.append(json.dumps(_record("user", _result(f"c{i}", str(i)), f"r{i}")))
    (tmp_path / "long.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = _import("auto", [tmp_path / "long.jsonl"], tmp_path / "ws", capsys)
    assert "5000 tool calls" in out
    metrics = json.loads((tmp_path / "ws/long/outputs/metrics.json").read_text(encoding="utf-8"))
    assert metrics["total_tool_calls"] == 5_000


def test_unknown_format_is_a_usage_error_not_a_traceback(tmp_path: Path, capsys):
    source = tmp_path / "notes.txt"
    source.write_text("just some words\n", encoding="utf-8")
    assert main(["import", "auto", str(source), "--out", str(tmp_path / "ws")]) == 2
    err = capsys.readouterr().err
    assert "not a format referee imports" in err and "Traceback" not in err


# --- warnings for runs that are not what they seem -------------------------------------------


def _run(tmp_path: Path, files: dict[str, str]):
    for rel, text in files.items():
        path = tmp_path / "eval-1" / "outputs" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return discover(tmp_path).runs[0].load()


def test_metrics_counting_calls_with_no_call_block_is_warned(tmp_path: Path):
    run = _run(tmp_path, {"transcript.md": "## [agent_notes] Step 1: x\nI called it.\n",
                          "metrics.json": '{"total_tool_calls": 3}'})
    assert [p.code for p in run.problems] == ["metrics-without-calls"]


_BOOKED = ("## [tool_calls] Step 1: search\nTool: search\nArgs: {}\nReturn: {}\nStatus: success\n\n"
           "## [agent_notes] Step 2: book\nBooking now.\n")


@pytest.mark.parametrize("metrics, outcomes", [
    ('{"total_tool_calls": 2}', ["error", "error"]),  # a transcript cut short after its first record
    ('{"tool_calls": {"search": 1, "book": 1}}', ["error", "error"]),
    ('{"total_tool_calls": 1}', ["pass", "pass"]),
    ('{"total_tool_calls": 0, "tool_calls": {}}', ["pass", "pass"]),
])
def test_calls_metrics_counts_and_the_transcript_lacks_are_unknown(tmp_path: Path, metrics: str, outcomes: list):
    """metrics.json counting more calls than the transcript holds shows calls nobody can
    check: 'no calls to "book"' passed on the record of the search alone."""
    run = _run(tmp_path, {"transcript.md": _BOOKED, "metrics.json": metrics})
    rules = 'eval 1\nexpect 1: no calls to "book"\nexpect 2: count(calls) == 1\n'
    compiled = compile_rules([dsl.parse_rules(rules, "r.rules")]).for_run(run.id, run.metadata)
    assert [verdict.outcome.value for verdict in evaluate(compiled, run)] == outcomes
    assert ("metrics-without-calls" in [p.code for p in run.problems]) == (outcomes[0] == "error")


def test_an_unimported_session_in_outputs_is_warned(tmp_path: Path):
    session = (FIXTURES / "claude-code/session.jsonl").read_text(encoding="utf-8")
    run = _run(tmp_path, {"session.jsonl": session, "response.md": "ok\n"})
    found = [p for p in run.problems if p.code == "unimported-transcript"]
    assert [p.path for p in found] == ["eval-1/outputs/session.jsonl"] and "claude-code" in found[0].message


def test_a_skill_creator_log_as_transcript_and_an_unknown_transcript_are_warned(tmp_path: Path):
    log = (FIXTURES / "skill-creator-log/outputs/transcript.md").read_text(encoding="utf-8")
    run = _run(tmp_path / "a", {"transcript.md": log})
    assert "skill-creator" in next(p.message for p in run.problems if p.code == "no-tool-record")
    run = _run(tmp_path / "b", {"transcript.md": "I did the thing.\n"})
    # with no response file, the answer may be in that text: the response cannot be used
    assert sorted(p.code for p in run.problems) == ["unreadable", "unrecognised-transcript"]
    untrusted = "## [tool_calls] Step 2: a\nTool: a\nStatus: success\n"  # out of place: not trusted
    run = _run(tmp_path / "c", {"transcript.md": untrusted})
    assert run.transcript.suspect_calls and "unrecognised-transcript" not in [p.code for p in run.problems]


def test_importing_a_skill_creator_log_says_what_grade_will_warn(tmp_path: Path, capsys):
    # in a child process: in this one, other tests have imported every module already
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "import", "skill-creator-log",
                           str(FIXTURES / "skill-creator-log/outputs/transcript.md"), "--out", str(tmp_path / "alone")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "warning: imported from a skill-creator log" in done.stdout, done.stderr
    out = _import("skill-creator-log", [FIXTURES / "skill-creator-log/outputs/transcript.md"], tmp_path / "ws", capsys)
    said = next(line.strip() for line in out.splitlines() if line.strip().startswith("warning:"))
    main(["grade", str(tmp_path / "ws"), "--rules", str(FIXTURES / "skill-creator-log/transcript.rules")])
    run = discover(tmp_path / "ws").runs[0]
    warned = [p.message for p in run.problems if p.code == "no-tool-record"]
    assert said == f"warning: {warned[0]}"


def test_detect_names_each_fixture_format():
    assert detect(FIXTURES / "claude-code/session.jsonl") == "claude-code"
    assert detect(FIXTURES / "openai/chat.json") == "openai"
    assert detect(FIXTURES / "openai/batch.jsonl") == "openai"
    assert detect(FIXTURES / "skill-creator-log/outputs/transcript.md") == "skill-creator-log"


def test_the_working_directory_becomes_a_placeholder_whatever_its_length(tmp_path: Path):
    trees = []
    for n, cwd in enumerate(("/a", "/very/long/home/dir")):
        records = [
            {"type": "user", "sessionId": "s", "uuid": "u", "cwd": cwd,
             "message": {"role": "user", "content": f"read {cwd}/x"}},
            {"type": "assistant", "sessionId": "s", "uuid": "v", "cwd": cwd,
             "message": {"id": "m", "role": "assistant",
                         "content": [{"type": "tool_use", "id": "c", "name": "Read",
                                      "input": {"p": f"{cwd}/x", "q": f"{cwd}-other"}}]}},
        ]
        folder = tmp_path / str(n)
        folder.mkdir()
        (folder / "s.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
        _import("claude-code", [folder / "s.jsonl"], folder / "ws")
        trees.append(_tree(folder / "ws"))
    transcript = trees[1]["s/outputs/transcript.md"].decode()
    assert '"p": "<cwd>/x"' in transcript and '"q": "/very/long/home/dir-other"' in transcript
    maps = [json.loads(tree["s/source_map.json"]) for tree in trees]
    assert maps[0]["lines"] == maps[1]["lines"]


def test_a_subagent_file_beside_its_session_is_nested_under_its_task_call(tmp_path: Path):
    _import("claude-code", [FIXTURES / "claude-code/agents/main.jsonl"], tmp_path / "ws")
    run_dir = tmp_path / "ws" / "main"
    source_map, _ = load_source_map(run_dir)
    assert source_map.sources == ("main.jsonl", "agent-b7e1.jsonl")
    nested = (run_dir / "subagents/step-1.md").read_text(encoding="utf-8")
    assert "Tool: Grep" in nested and "Tool: Glob" in nested
    assert source_map.where("subagents/step-1.md", nested.split("\n").index("Tool: Grep") + 1) == ("agent-b7e1.jsonl", 2)
    metrics = json.loads((run_dir / "outputs/metrics.json").read_text(encoding="utf-8"))
    assert metrics["tool_calls"] == {"Task": 1} and metrics["subagent_tool_calls"] == {"Glob": 1, "Grep": 1}


def test_the_readme_import_then_grade_lines_run(tmp_path: Path):
    """The README's three lines, run as written from a copy of the fixtures."""
    import re
    import subprocess
    import sys

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Importing Claude Code sessions", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 3 and commands[0].startswith("referee import ")
    shutil.copytree(FIXTURES, tmp_path / "tests" / "fixtures" / "import")
    for command in commands:
        args = command.split()[1:]
        done = subprocess.run([sys.executable, "-m", "referee.engine.cli", *args], cwd=tmp_path,
                              capture_output=True, text=True)
        assert done.returncode in (0, 1), done.stderr
    report = json.loads((tmp_path / "imported/session/grading.json").read_text(encoding="utf-8"))
    assert any(e["file"] == "session.jsonl" for item in report["expectations"] for e in item["evidence_location"])


def test_with_eval_the_conversations_are_the_runs_of_that_eval(tmp_path: Path, capsys):
    sources = [FIXTURES / "openai/batch.jsonl", FIXTURES / "openai/chat.json"]
    code = main(["import", "openai", *map(str, sources), "--out", str(tmp_path), "--eval", "1", "--config", "with_skill"])
    assert code == 0
    runs = discover(tmp_path).runs
    assert [(r.id.eval_id, r.id.configuration, r.id.run_number) for r in runs] == [
        ("1", "with_skill", 1), ("1", "with_skill", 2), ("1", "with_skill", 3)]
    assert [len(r.transcript.calls) for r in runs] == [1, 1, 4]


def test_a_transcript_too_large_to_grade_is_reported_at_import(tmp_path: Path, monkeypatch, capsys):
    from referee.engine.run.importers import writer

    monkeypatch.setattr(writer, "MAX_TEXT_BYTES", 200)
    out = _import("claude-code", [FIXTURES / "claude-code/session.jsonl"], tmp_path / "ws", capsys)
    assert "session.jsonl: warning[transcript-too-large]" in out


def test_token_usage_of_a_split_message_is_counted_once(tmp_path: Path):
    _import("claude-code", [FIXTURES / "claude-code/session.jsonl"], tmp_path / "ws")
    timing = json.loads((tmp_path / "ws/session/timing.json").read_text(encoding="utf-8"))
    # six main messages (two of them split over 2 and 3 lines) and two subagent messages
    assert timing["input_tokens"] == 120 + 300 + 500 + 700 + 800 + 900 + 80 + 90
    assert timing["output_tokens"] == 40 + 60 + 30 + 50 + 25 + 20 + 20 + 8
    keys = ["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]
    assert timing["total_tokens"] == sum(timing[k] for k in keys) and timing["total_tokens_counts"] == keys
    assert timing["duration_ms"] == 14000


def test_an_imported_view_changed_afterwards_is_reported(tmp_path: Path):
    _import("claude-code", [FIXTURES / "claude-code/session.jsonl"], tmp_path / "ws")
    transcript = tmp_path / "ws/session/outputs/transcript.md"
    assert not [p for p in discover(tmp_path / "ws").runs[0].load().problems if p.code == "view-changed"]
    transcript.write_text(transcript.read_text(encoding="utf-8") + "\n## [tool_calls] Step 7: deploy\n",
                          encoding="utf-8")
    found = [p for p in discover(tmp_path / "ws").runs[0].load().problems if p.code == "view-changed"]
    assert [p.path for p in found] == ["session/outputs/transcript.md"]


def test_a_lone_surrogate_in_the_source_is_written_as_its_escape(tmp_path: Path):
    messages = [{"role": "user", "content": "a\ud800b"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "t", "arguments": json.dumps({"s": "x\udfffy"})}}]},
                {"role": "tool", "tool_call_id": "c", "content": "ok"},
                {"role": "assistant", "content": "done \ud83d"}]
    source = tmp_path / "m.json"
    source.write_text(json.dumps(messages), encoding="utf-8")  # ASCII: the surrogates are \\u escapes
    _import("openai", [source], tmp_path / "ws")
    run = discover(tmp_path / "ws").runs[0]
    assert [c.tool for c in run.transcript.calls] == ["t"]
    assert (tmp_path / "ws/m/outputs/response.md").read_text(encoding="utf-8") == "done \\ud83d\n"
