"""What ``referee import`` says of each run's response: "a response", "no response",
or "response unknown" where the import could not read it for certain (a reply in a
shape not read, a message that could not be read), whether or not other replies were
read beside it: a check on that response is an ERROR, so the summary says neither that
there is one nor that there is none."""

from __future__ import annotations

import json

import pytest

from referee.engine.cli import main

PROMPT = {"role": "user", "content": "clean up"}
SUMMARIES = {
    "a-response": ([PROMPT, {"role": "assistant", "content": "Done."}], "a response"),
    "no-response": ([PROMPT, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "Bash", "arguments": "{}"}}]},
                     {"role": "tool", "tool_call_id": "c1", "content": "ok"}, {"role": "user", "content": "###STOP###"}],
                    "no response"),
    "unknown-none-read": ([PROMPT, {"role": "assistant", "content": {"type": "text", "text": "Done."}}],
                          "response unknown"),
    "unknown-one-read": ([PROMPT, {"role": "assistant", "content": "Done."},
                          {"role": "assistant", "content": 404}], "response unknown"),
}


@pytest.mark.parametrize("messages, said", SUMMARIES.values(), ids=SUMMARIES.keys())
def test_the_summary_says_what_the_response_is(tmp_path, capsys, messages, said):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    assert main(["import", "openai", str(source), "--out", str(tmp_path / "out")]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  chat:"))
    assert f", {said}, " in line, line
