"""The digest of the code that checks a grader's reply (``llm_adapter.verify.rules_digest``)
goes into grading.json (``grader_input``), so it must be the same wherever referee
runs: a checkout whose files have CRLF line ends (Git on Windows) holds the same code
as one with LF, and a verdict carried over from one must be kept on the other."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from referee.llm_adapter.verify import _code

SOURCE = '"""A module."""\n\nRULE = "a quote after a negation is not found"\n\n\ndef rule():\n    return RULE\n'


def _module(folder: Path, name: str, data: bytes):
    path = folder / f"{name}.py"
    path.write_bytes(data)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_code_read_alike_whatever_its_line_ends(tmp_path: Path) -> None:
    lf = _module(tmp_path, "rules_lf", SOURCE.encode())
    crlf = _module(tmp_path, "rules_crlf", SOURCE.replace("\n", "\r\n").encode())
    assert _code(lf) == _code(crlf)


def test_code_differs_when_the_code_does(tmp_path: Path) -> None:
    one = _module(tmp_path, "rules_one", SOURCE.encode())
    other = _module(tmp_path, "rules_other", SOURCE.replace("is not found", "is found").encode())
    assert _code(one) != _code(other)
