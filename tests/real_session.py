"""A real Claude Code session log from tests/fixtures/real, with one record changed: the
tests of what the importer does with a value of a shape it does not read start from
records a session really wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"


def with_record_changed(fixture: str, out: Path, holds: str, change: Callable[[dict], None]) -> tuple[Path, int]:
    """``fixture`` (under claude-code/) written to ``out`` with the first record whose
    line holds ``holds`` (spaces aside) changed by ``change`` (the record, in place);
    returns the file and that record's line."""
    lines = (REAL / fixture).read_text(encoding="utf-8").split("\n")
    at = next(n for n, line in enumerate(lines) if holds in line.replace(" ", ""))
    record = json.loads(lines[at])
    change(record)
    lines[at] = json.dumps(record)
    out.write_text("\n".join(lines), encoding="utf-8")
    return out, at + 1
