"""A Windows working directory names one folder however a call spells it (in any case,
with either slash): each spelling becomes ``<cwd>``, so a check on ``<cwd>\\secrets``
sees every write there."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.writer import render_run

CWD = "D:\\Work\\Proj"


def _session(tmp_path: Path, paths: list[str], cwd: str = CWD) -> Path:
    records = [{"type": "user", "sessionId": "s", "uuid": "u", "cwd": cwd, "message": {"role": "user", "content": "go"}}]
    for n, path in enumerate(paths):
        use = {"type": "tool_use", "id": f"c{n}", "name": "Write", "input": {"file_path": path, "content": "x"}}
        records += [{"type": "assistant", "sessionId": "s", "uuid": f"a{n}", "cwd": cwd,
                     "message": {"id": f"m{n}", "role": "assistant", "content": [use]}},
                    {"type": "user", "sessionId": "s", "uuid": f"r{n}", "cwd": cwd,
                     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"c{n}",
                                                              "content": f"wrote {path}"}]}}]
    # ended as a finished session is, with the agent's last words (else its calls are unknown)
    records.append({"type": "assistant", "sessionId": "s", "uuid": "done", "cwd": cwd, "message": {
        "id": "m-done", "role": "assistant", "stop_reason": "end_turn", "content": [{"type": "text", "text": "Done."}]}})
    source = tmp_path / "s.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return source


def test_every_spelling_of_a_windows_cwd_is_cwd(tmp_path: Path):
    paths = ["D:\\Work\\Proj\\a.py", "d:\\work\\proj\\b.py", "D:/Work/Proj/c.py", "d:/WORK/proj/d.py"]
    (found,) = conversations("claude-code", [_session(tmp_path, paths)])
    transcript = render_run(found).files["outputs/transcript.md"]
    for name in "abcd":
        assert f'<cwd>\\\\{name}.py"' in transcript or f'<cwd>/{name}.py"' in transcript, (name, transcript)
    assert "proj" not in transcript.lower()


def test_a_folder_that_only_starts_like_the_cwd_is_kept(tmp_path: Path):
    (found,) = conversations("claude-code", [_session(tmp_path, ["d:\\work\\project\\a.py"])])
    assert "d:\\\\work\\\\project\\\\a.py" in render_run(found).files["outputs/transcript.md"]


def test_a_posix_cwd_stays_case_sensitive(tmp_path: Path):
    (found,) = conversations("claude-code", [_session(tmp_path, ["/srv/P/a.py"], cwd="/srv/p")])
    assert '"/srv/P/a.py"' in render_run(found).files["outputs/transcript.md"]


def test_no_write_in_a_cwd_folder_passes_unseen(tmp_path: Path):
    rules = 'eval 1\nexpect 1: no calls to "Write" where .args.file_path starts with "<cwd>\\\\secrets"\n'
    for n, path in enumerate(("D:\\Work\\Proj\\secrets\\key.txt", "d:\\work\\proj\\secrets\\key.txt")):
        (tmp_path / str(n)).mkdir()
        result, = referee.grade(rules, _session(tmp_path / str(n), [path]), as_eval="1")
        assert [item["outcome"] for item in result.expectations] == ["fail"], (path, result.expectations)
