"""A document printed on standard output (``--json``, ``report -o -``, a drafted rules
file) is the same UTF-8 bytes whatever the console's encoding: JSON's interchange
encoding is UTF-8 and the JUnit and HTML reports declare it, so a console encoded in
ASCII or Latin-1 (``PYTHONIOENCODING``) must neither turn a character into a Python
escape (``\\xfc``, not JSON) nor into a byte of another encoding."""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
ASCII_ONLY = {"diff --json"}  # no regression to show, so no passenger named


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    workspace = tmp_path_factory.mktemp("stdout") / "ws"
    shutil.copytree(EXAMPLE, workspace)
    assert main(["grade", str(workspace), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    return workspace


def _printed(monkeypatch, encoding: str, argv: list[str]) -> bytes:
    """The bytes ``referee ARGV`` writes on a standard output encoded in ``encoding``."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding, errors="strict", newline="\n")
    monkeypatch.setattr(sys, "stdout", stream)
    main(argv)
    stream.flush()
    monkeypatch.undo()
    return raw.getvalue()


def _commands(ws: Path) -> dict[str, list[str]]:
    rules = ["--rules", str(RULES), "--evals", str(EVALS)]
    return {
        "grade --json": ["grade", str(ws), *rules, "--check", "--json"],
        "show --json": ["show", str(ws), "--json"],
        "critique --json": ["critique", str(ws), *rules, "--check", "--json"],
        "suggest --json": ["suggest", str(EVALS), "--json"],
        "suggest": ["suggest", str(EVALS)],
        "validate --json": ["validate", str(ws), *rules, "--check", "--json"],
        "diff --json": ["diff", str(ws), str(ws), "--json"],
        "report junit": ["report", str(ws), "--format", "junit", "-o", "-"],
        "report html": ["report", str(ws), "--format", "html", "-o", "-"],
        "report markdown": ["report", str(ws), "--format", "markdown", "-o", "-"],
    }


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("command", list(_commands(Path("ws"))))
def test_a_document_on_stdout_is_utf8_whatever_the_console_encoding(graded, monkeypatch, command, encoding):
    # Input: the example, whose passenger is "Ana Müller", on a console encoded in
    # ASCII or Latin-1. The document was written in the console's encoding, with
    # "\xfc" for what it could not encode: JSON no parser reads, or Latin-1 bytes
    # under the XML declaration's encoding="UTF-8".
    argv = _commands(graded)[command]
    expected = _printed(monkeypatch, "utf-8", argv)
    assert not expected.isascii() or command in ASCII_ONLY
    got = _printed(monkeypatch, encoding, argv)
    assert got == expected
    text = got.decode("utf-8")
    if "--json" in command:
        json.loads(text)
    elif command == "report junit":
        ET.fromstring(got)


def test_grade_json_writes_a_name_that_is_not_utf8_as_its_json_escape(tmp_path, monkeypatch):
    # Input: a configuration folder named with the byte 0xff, which Python reads as the
    # lone surrogate "\udcff". grade --json wrote it as the three bytes of that
    # surrogate (ED B3 BF): not UTF-8, so no JSON parser read the document, while
    # grading.json holds the escape "\udcff".
    outputs = tmp_path / "ws" / "eval-1" / os.fsdecode(b"\xffconf") / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("hi\n", encoding="utf-8")
    (tmp_path / "r.rules").write_text('eval 1 "x"\nexpect "greets": response contains "hi"\n', encoding="utf-8")
    argv = ["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "r.rules"), "--json"]
    printed = _printed(monkeypatch, "utf-8", argv)
    document = json.loads(printed.decode("utf-8"))
    assert document["runs"][0]["path"] == "eval-1/\udcffconf/run-1"
    written = (outputs.parent / "grading.json").read_bytes()
    assert b'"path": "eval-1/\\udcffconf/run-1"' in written and b'"path": "eval-1/\\udcffconf/run-1"' in printed
