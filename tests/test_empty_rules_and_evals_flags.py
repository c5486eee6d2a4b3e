"""``--rules ""`` and ``--evals ""`` (a variable unset) stopped with messages that named
no flag ('evals file not found: ', 'cannot read rules file : not a regular file'), and
``--llm-batch-export ""`` graded every run before failing to write '.'. Each is refused
as every other path flag is: 'argument --X: an empty path', exit 2, before any work."""

from __future__ import annotations

import pytest

from referee.engine.cli import main


@pytest.mark.parametrize("argv, flag", [
    (["grade", "WS", "--rules", "", "--check"], "--rules"),
    (["grade", "WS", "--rules", "x.rules", "--evals", "", "--check"], "--evals"),
    (["merge", "WS", "--rules", " ", "--check"], "--rules"),
    (["merge", "WS", "--evals", ""], "--evals"),
    (["show", "WS", "--evals", ""], "--evals"),
    (["check", "x.rules", "--evals", ""], "--evals"),
    (["critique", "WS", "--rules", "", "--check"], "--rules"),
    (["grade", "WS", "--rules", "x.rules", "--llm", "openai:m", "--llm-batch-export", ""], "--llm-batch-export"),
    (["grade", "WS", "--rules", "x.rules", "--llm", "replay:c.jsonl", "--llm-batch-import", ""],
     "--llm-batch-import"),
])
def test_an_empty_path_is_a_usage_error_naming_the_flag(tmp_path, capsys, argv, flag):
    argv = [str(tmp_path) if a == "WS" else a for a in argv]
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert f"argument {flag}: an empty path" in capsys.readouterr().err
