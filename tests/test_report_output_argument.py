"""``report -o ""`` (``-o "$OUT"`` with the variable unset) is refused as every other
empty path argument is, naming it: it was taken as the working folder, and the report
failed with "cannot write .: . is a directory"."""

from __future__ import annotations

import pytest

from referee.engine.cli import main


@pytest.mark.parametrize("fmt", ["junit", "html", "markdown", "github"])
def test_an_empty_output_is_refused(fmt, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["report", "ws", "--format", fmt, "-o", ""])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "-o/--output" in err and "an empty path" in err
