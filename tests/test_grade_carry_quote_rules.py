"""An LLM grader's earlier verdict is carried over (grade without --llm) only while its
quotes would be checked by the same rules: a PASS written by a referee whose quote
rules let a quote through that today's rules do not find (here a quote of the comment
before a tool-call record's fields) would not stand now, and is not kept."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from llm_server import ScriptedServer, verdicts

from referee.engine.cli import main

TRANSCRIPT = ("## [tool_calls] Step 1: Bash\n<!-- The deployment to production succeeded for release v2.4.1 -->\n"
              "Tool: Bash\nArgs: {\"command\": \"echo hello-release\"}\nReturn: \"hello-release\"\nStatus: success\n")
RULES = 'eval 1 "deploy"\nexpect "The release was deployed to production": semantic "deployed"\n'
QUOTE = "The deployment to production succeeded for release v2.4.1"
# The rule of today that an older referee did not have: a quote is never found in
# the comment before a record's fields.
TODAY = " or _aside(segment, index[at], index[at + len(needle) - 1])"


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("Done.\n", encoding="utf-8")
    rules = tmp_path / "deploy.rules"
    rules.write_text(RULES, encoding="utf-8")
    return tmp_path / "ws", rules


def _older_referee(tmp_path: Path) -> Path:
    """A copy of referee whose quote rules lack ``TODAY``: the package as an earlier
    release had it, importable from the folder returned."""
    folder = tmp_path / "older"
    shutil.copytree(REPO, folder / "referee", ignore=shutil.ignore_patterns(
        ".git", "tests", "examples", "benchmarks", "__pycache__"))
    quotes = folder / "referee" / "llm_adapter" / "quotes.py"
    text = quotes.read_text(encoding="utf-8")
    assert TODAY in text
    quotes.write_text(text.replace(TODAY, ""), encoding="utf-8")
    return folder


def _item(ws: Path) -> dict:
    report = json.loads((ws / "eval-1" / "with_skill" / "run-1" / "grading.json").read_text(encoding="utf-8"))
    (item,) = report["expectations"]
    return item


def test_a_pass_checked_under_other_quote_rules_is_not_carried_over(tmp_path, monkeypatch, capsys):
    ws, rules = _workspace(tmp_path)
    reply = verdicts(("The comment says it was deployed.", [("tool_calls", QUOTE)], "PASS"))
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    env["PYTHONPATH"] = str(_older_referee(tmp_path))
    with ScriptedServer(default=reply) as server:
        done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "grade", str(ws), "--rules", str(rules),
                               "--llm", f"record:{tmp_path / 'judge.jsonl'}", "--llm-backend", "openai:m",
                               "--llm-base-url", server.url], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (_item(ws)["method"], _item(ws)["outcome"]) == ("grader", "pass")  # the older rules found the quote

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    main(["grade", str(ws), "--rules", str(rules)])
    item = _item(ws)
    assert item["outcome"] != "pass", item
    assert (item["method"], item["outcome"]) == ("not_graded", "not_graded")
    assert "an earlier LLM grader verdict was not kept" in item["evidence"]


def test_a_pass_checked_under_the_same_rules_is_still_carried_over(tmp_path, monkeypatch, capsys):
    ws, rules = _workspace(tmp_path)
    reply = verdicts(("The command ran.", [("tool_calls", '"command": "echo hello-release"')], "PASS"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with ScriptedServer(default=reply) as server:
        main(["grade", str(ws), "--rules", str(rules), "--llm", f"record:{tmp_path / 'judge.jsonl'}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    assert (_item(ws)["method"], _item(ws)["outcome"]) == ("grader", "pass")
    main(["grade", str(ws), "--rules", str(rules)])
    assert (_item(ws)["method"], _item(ws)["outcome"]) == ("grader (carried over)", "pass")
