"""Telling a session log by its head: for ``engine.run.run_warnings`` (which loads this
module only for a run holding a file that may be a log, or a transcript with no
record) and for ``import_hint(folder)``, which says, for a folder where no run was
found, which session logs lie in it waiting to be imported.
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.dsl.named_file import UTF16_BOMS
from referee.engine.run.importers import HEAD_BYTES, claude_format, detect_text, openai
from referee.engine.run.importers.source import Source
from referee.engine.run.run_warnings import LOG_SUFFIXES, OWN_FILES
from referee.engine.run.safeio import read_named_file

# Said by ``grade`` of a run imported from a skill-creator log, and by ``import`` as it writes one.
IMPORTED_LOG = ("imported from a skill-creator log that the agent wrote: no raw tool record exists; "
                "its tool lines are claims, and a check over calls cannot be decided (an error)")


def log_format(head: str) -> str | None:
    """The format of the log (Claude Code, OpenAI) whose head this is, told as ``import``
    tells a source (``importers.detect_text``): by its first record, else by the keys
    the head names (a document larger than the head: an execution file, a long message
    list). None for anything else: a skill-creator log is a run's own record."""
    kind = detect_text(Source("", head.encode("utf-8")))
    return kind if kind in (claude_format.FORMAT, openai.FORMAT) else None


def import_hint(folder: os.PathLike[str] | str, depth: int = 2) -> str | None:
    """For a folder where no run was found: the first session log lying in it (its
    files, and its folders' to ``depth`` levels) and the import that makes it a run;
    None when there is none. Only the heads of up to ``_LOOKED_AT`` files are read."""
    looked = 0
    for path in _candidates(Path(folder), depth):
        looked += 1
        if looked > _LOOKED_AT:
            return None
        kind = log_format(head(path))
        if kind is not None:
            return (f"{path} holds {a_kind(kind)} log, which is a run once imported: "
                    f"referee import {kind} {path} [more logs] --out DIR, then referee grade DIR")
    return None


_LOOKED_AT = 50


def _candidates(folder: Path, depth: int):
    """Files that may be session logs under ``folder``, in name order, shallow first."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    folders = []
    for entry in entries:
        if entry.is_symlink():
            continue
        if entry.is_file() and entry.name.endswith(LOG_SUFFIXES) and entry.name not in OWN_FILES:
            yield Path(entry.path)
        elif entry.is_dir() and depth > 1:
            folders.append(Path(entry.path))
    for sub in folders:
        yield from _candidates(sub, depth - 1)


def a_kind(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeio" else f"a {kind}"


def head(path: Path) -> str:
    data, _ = read_named_file(path, str(path), HEAD_BYTES, head=True)  # a FIFO cannot stall it
    return "" if data is None else head_text(data)


def head_text(data: bytes) -> str:
    """The start of a file as text, to tell its format: UTF-16 behind its byte order
    mark (what Windows PowerShell's ``>`` writes; read as UTF-8, a session log there
    was taken for no log, and the answer it holds for no answer), else UTF-8. The
    head may be cut anywhere: what cannot be decoded is replaced."""
    if data.startswith(UTF16_BOMS):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8", errors="replace")
