"""aggregate's summary on the console names configurations, which are folder names
of the workspace: an escape sequence in one is written as an escape and a line break
as ``\\n``, as grade, show and compare print them, so a name can neither drive the
terminal nor start a line (one the GitHub Actions runner reads as a workflow command)."""

from __future__ import annotations

from pathlib import Path

from named_folders import configurations
from referee.engine.cli import main

BASELINE = "\x1b]0;pwn\x07\n::add-mask::FAIL"


def test_aggregate_prints_a_configuration_name_inert_and_on_its_line(tmp_path: Path, capsys):
    # Input: a baseline folder named "\x1b]0;pwn\x07\n::add-mask::FAIL" (a terminal's
    # "set the window title", then a workflow command), given as --baseline.
    # aggregate printed it as it is in the decision's line, its reasons, the pass
    # rates and the delta.
    _, rules = configurations(tmp_path, ["with_skill", BASELINE])
    main(["grade", str(tmp_path / "ws"), "--rules", str(rules)])
    capsys.readouterr()
    main(["aggregate", str(tmp_path / "ws"), "--check", "--primary", "with_skill", "--baseline", BASELINE,
          "--color", "never"])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert [line for line in out.split("\n") if line.strip().startswith("::")] == []
    assert "with_skill against \\x1b]0;pwn\\x07\\n::add-mask::FAIL" in out
