"""A report quotes the lines its evidence cites, from the files the evidence names;
those names are read from grading.json, which is any file a workspace holds. A name
that climbs out of the run folder (``../../secret``), is absolute or holds a NUL is
read from nowhere: before, the HTML viewer embedded the whole file it named (the
first 20,000 lines of /etc/passwd, say) in the page, and a NUL stopped every report
with an internal error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main
from referee.engine.run.safeio import locate, read_text

WORKSPACE = REPO / "examples" / "booking-skill-workspace"
SECRET = "token=s3cr3t-never-shown"


def _cite(workspace: Path, name: str) -> None:
    """Every evidence place of every grading.json names ``name``, line 1."""
    for grading in sorted(workspace.rglob("grading.json")):
        document = json.loads(grading.read_text(encoding="utf-8"))
        for item in document["expectations"]:
            for place in item["evidence_location"]:
                place.update(file=name, line=1)
        grading.write_text(json.dumps(document, indent=2), encoding="utf-8")


@pytest.mark.parametrize("kind", ["climbs", "absolute", "nul"])
def test_evidence_naming_a_file_outside_the_run_quotes_nothing_of_it(tmp_path: Path, capsys, kind: str):
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    workspace = tmp_path / "a" / "ws"
    shutil.copytree(WORKSPACE, workspace)
    for decided in ("benchmark.json", "benchmark.md"):  # decided on the grades changed here
        (workspace / decided).unlink()
    # climbing past the root of the file system stays at it: "../" more times than a run is deep
    climbs = "../" * len(workspace.resolve().parts) * 2 + secret.as_posix().lstrip("/")
    _cite(workspace, {"climbs": climbs, "absolute": secret.as_posix(), "nul": "outputs/\u0000x"}[kind])
    for form, out in (("html", "r.html"), ("markdown", "r.md"), ("junit", "r.xml")):
        assert main(["report", str(workspace), "--format", form, "-o", str(tmp_path / out)]) in (0, 1, 3)
    written = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "secret.txt"]
    assert all(SECRET not in p.read_text(encoding="utf-8", errors="replace") for p in written)
    assert (tmp_path / "r_files").is_dir() and (tmp_path / "r.md").is_file()
    assert "internal error" not in capsys.readouterr().err


def test_a_name_that_leaves_its_folder_names_no_file(tmp_path: Path):
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    run = tmp_path / "run"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "a.txt").write_text("inside", encoding="utf-8")
    for name in ("../secret.txt", "outputs/../../secret.txt", str(tmp_path / "secret.txt"), "a\u0000b"):
        found = locate(run, name, name)
        assert (found.real, found.exists) == (None, False)
        assert read_text(run, name) is None or read_text(run, name).text is None
    assert read_text(run, "outputs/a.txt").text == "inside"
    assert read_text(run, "outputs/./a.txt").text == "inside"
