"""aggregate prints a line per configuration that starts with its name, a folder name
of the workspace. A name that starts with ``::`` (``::error::x``) made that line a
workflow command in a CI log (the runner trims leading blanks, a no-break space too,
then reads ``::``); now such a start is written ``\\x3a:``, as grade writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from named_folders import configurations, forged_lines
from referee.engine.cli import main
from referee.engine.report.inert import line_start


@pytest.mark.parametrize("primary", ["::error::forged", "\u00a0::add-mask::FAIL"])
def test_no_configuration_line_starts_a_workflow_command(tmp_path: Path, capsys, primary: str):
    # Input: the primary configuration's folder named "::error::forged"; aggregate printed
    # "  ::error::forged: gated 100.0%, ...", an error annotation in CI.
    ws, rules = configurations(tmp_path, [primary, "without_skill"])
    main(["grade", str(ws), "--rules", str(rules)])
    capsys.readouterr()
    main(["aggregate", str(ws), "--check", "--primary", primary, "--baseline", "without_skill",
          "--color", "never"])
    out = capsys.readouterr().out
    assert forged_lines(out) == [] and [line for line in out.split("\n") if line.lstrip().startswith("::")] == []
    assert "\\x3a:" in out


def test_line_start_changes_only_a_leading_command():
    assert line_start("  ::error::x") == "  \\x3a:error::x"
    assert line_start("  a::error::x") == "  a::error::x"
    assert line_start(": x") == ": x"
