"""SKILL.md as ``referee analyze`` reads it: read once, never waited on, and each
refusal said with the file (and the line, for text that is not UTF-8)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from referee.engine.compare import skilltext
from referee.engine.usage import UsageError


def _skill(tmp_path: Path, data: bytes) -> Path:
    folder = tmp_path / "booking"
    folder.mkdir()
    (folder / "SKILL.md").write_bytes(data)
    return folder


def _refusal(folder: Path) -> str:
    with pytest.raises(UsageError) as raised:
        skilltext.read(folder, "booking", ())
    return str(raised.value)


def test_what_a_skill_names_is_read_from_its_text(tmp_path: Path):
    folder = _skill(tmp_path, "\ufeff# Booking\n\nRun `scripts/book.py` first.\n".encode())
    (folder / "scripts").mkdir()
    (folder / "scripts" / "book.py").write_text("print(1)\n")
    found = skilltext.read(folder, "booking", ())
    assert [(n.name, n.line) for n in found.named] == [("scripts/book.py", 3)]


def test_text_that_is_not_utf8_is_refused_naming_its_line(tmp_path: Path):
    folder = _skill(tmp_path, b"# Booking\n\nfine\n\xff here\n")
    assert _refusal(folder) == f"{folder / 'SKILL.md'}:4: not UTF-8 text"


def test_a_file_over_the_limit_is_refused(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(skilltext, "MAX_BYTES", 10)
    folder = _skill(tmp_path, b"# Booking skill\n")
    assert _refusal(folder) == f"{folder / 'SKILL.md'} is over 4 MiB; not read"


def test_a_missing_or_special_file_is_refused_saying_which(tmp_path: Path):
    folder = tmp_path / "booking"
    folder.mkdir()
    assert _refusal(folder) == f"no SKILL.md in the skill folder {folder}"
    os.mkfifo(folder / "SKILL.md")  # there, but no file: it said "no SKILL.md" of a name in the listing
    assert _refusal(folder) == f"{folder / 'SKILL.md'} is not a regular file; not read"
    (folder / "SKILL.md").unlink()
    (folder / "SKILL.md").symlink_to("/dev/zero")
    assert _refusal(folder) == f"{folder / 'SKILL.md'} is not a regular file; not read"


def test_a_fifo_put_in_the_skill_files_place_is_refused_not_waited_on(tmp_path: Path, monkeypatch):
    folder = tmp_path / "booking"
    folder.mkdir()
    os.mkfifo(folder / "SKILL.md")
    monkeypatch.setattr(Path, "is_file", lambda self: True)  # as if it was a file when checked
    said: list[str] = []

    def read() -> None:
        try:
            skilltext.read(folder, "booking", ())
        except UsageError as exc:
            said.append(str(exc))

    reader = threading.Thread(target=read, daemon=True)  # a reader that waits on the FIFO never returns
    reader.start()
    reader.join(10)
    assert said and said[0].startswith(f"cannot read {folder / 'SKILL.md'}: not a regular file")
