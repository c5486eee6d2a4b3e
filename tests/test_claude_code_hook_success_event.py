"""Claude Code gives the agent what a SessionStart or UserPromptSubmit hook printed (a
``hook_success`` attachment's ``content``) by reading the attachment's ``hookEvent``
alone; the output of any other event's hook is shown to the user only. A record with no
``hookEvent`` whose ``hookName`` is ``UserPromptSubmit`` was read as given to the agent,
so ``no harness where .text contains "deploy"`` failed on text Claude Code never gave
it (and a check that the harness said it passed). Its event is not named as Claude Code
reads it: whether it was given is unknown, so a check over the harness text is an
ERROR (``harness-may-be-missing``). A ``hookName`` naming another event still rules
the output out."""

from __future__ import annotations

from pathlib import Path

from test_claude_code_hook_attachments import _graded, _harness


def test_output_whose_event_only_its_hook_s_name_gives_leaves_the_harness_text_unknown(tmp_path: Path):
    for name in ("UserPromptSubmit", "SessionStart:startup"):
        attachment = {"type": "hook_success", "hookName": name, "content": "deploy first", "toolUseID": "t"}
        assert _harness(tmp_path, attachment) == [("eval prompt", "fix the bug", 1)]
        outcomes, problems = _graded(tmp_path, attachment)
        assert outcomes == ["error", "pass"]
        assert [p for p in problems if "harness-may-be-missing" in p] == [
            "session.jsonl:2: warning[harness-may-be-missing]: this hook_success attachment's output, of a hook whose "
            "hookEvent is not named, not read, holds text of the user or the harness: no check over the harness text "
            "can be decided"]


def test_output_whose_hook_s_name_gives_another_event_is_skipped(tmp_path: Path):
    attachment = {"type": "hook_success", "hookName": "PostToolUse:Bash", "content": "deploy log"}
    assert _graded(tmp_path, attachment) == (["pass", "pass"], [])
