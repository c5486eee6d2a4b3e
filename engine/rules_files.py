"""The rules files a user names on the command line, read as every command reads them."""

from __future__ import annotations

import os
from collections.abc import Sequence

from referee.dsl.named_file import read_named_text
from referee.engine.usage import UsageError


def read_rules_files(names: Sequence[str]) -> list[tuple[str, str]]:
    """Each named rules file with its text, in the order given, through the one reader
    of named files (a FIFO or a device is refused, never waited on); ``UsageError``
    naming the first that cannot be read, and why."""
    files = []
    for name in names:
        try:
            files.append((name, read_named_text(name)))
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read rules file {name}: {getattr(exc, 'strerror', None) or exc}") from None
    return files


def require_evals_file(path: str) -> None:
    """``UsageError`` unless ``path`` (evals.json given with ``--evals``) is a regular
    file: saying whether it is missing or something else (a folder, a FIFO)."""
    if not os.path.isfile(path):
        why = "not found" if not os.path.lexists(path) else "is not a regular file"
        raise UsageError(f"evals file {why}: {path}")
