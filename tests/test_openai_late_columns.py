"""A run graded in memory leaves the column of each place on a line several messages
share to be found when the place is cited (``read_document``'s ``late``): its source
map is never written, and a grade cites a handful of its places. Found then, every
place is the one the import finds as it reads (the reference): for every real OpenAI
source and import fixture, and for seeded generated runs on one line, pretty-printed
and under ``"messages"``, every line of every file written maps to the same place,
and the source map written as JSON is the same text."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
import yaml

from referee.engine.run.importers import each_conversation
from referee.engine.run.importers.in_memory import source_runs
from referee.engine.run.importers.source_map import SourceMap, dumps
from referee.engine.run.importers.writer import TRANSCRIPT, render_run

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES.parent.parent / "benchmarks"))
import bench_peers  # noqa: E402  (the generated runs the peers are measured on)


def _openai_sources() -> list[tuple[Path, str | None]]:
    found = []
    for root in (FIXTURES / "real", FIXTURES / "import"):
        name = "imports.yaml" if root.name == "real" else "cases.yaml"
        for case in yaml.safe_load((root / name).read_text(encoding="utf-8")):
            if case.get("format") == "openai":
                found += [(root / source, case.get("error_when")) for source in case["sources"]]
    return found


def _generated(folder: Path) -> list[Path]:
    """Seeded runs of the peers' benchmark: on one line, pretty-printed, under "messages"."""
    paths = []
    for seed in range(4):
        rng = random.Random(seed)
        messages = bench_peers.conversation(rng, good=seed % 2 == 0)
        for shape, value, indent in (("line", messages, None), ("pretty", messages, 1),
                                     ("keyed", {"model": "m", "messages": messages}, None)):
            path = folder / f"run-{seed}-{shape}.json"
            path.write_text(json.dumps(value, indent=indent, ensure_ascii=seed % 2 == 0), encoding="utf-8")
            paths.append(path)
    return paths


def _maps(paths: list[Path], error_when: str | None, late: bool) -> list[SourceMap]:
    return [render_run(conversation).source_map
            for item in each_conversation("auto", paths, error_when=error_when, late=late)
            if not isinstance(item, str) for conversation in [item[2]]]


def _same_places(paths: list[Path], error_when: str | None = None) -> int:
    eager, late = _maps(paths, error_when, False), _maps(paths, error_when, True)
    assert len(eager) == len(late)
    left = 0
    for found, reference in zip(late, eager):
        assert found.lines.keys() == reference.lines.keys()
        for file, mapped in reference.lines.items():
            left += sum(1 for place in found.lines[file] if place is not None and len(place) == 4 and place[3] is None)
            for number in range(1, len(mapped) + 1):
                assert found.place(file, number) == reference.place(file, number), (file, number)
                assert found.cite(file, number) == reference.cite(file, number)
        assert dumps(found) == dumps(reference)
    return left


@pytest.mark.parametrize("source, error_when", _openai_sources(), ids=lambda v: getattr(v, "name", str(v)))
def test_a_place_found_when_cited_is_the_place_found_when_read(source: Path, error_when: str | None):
    _same_places([source], error_when)


def test_generated_runs_cite_their_places_as_read(tmp_path: Path):
    assert _same_places(_generated(tmp_path)) > 0  # the one-line runs left columns to find


def test_a_run_graded_in_memory_finds_a_column_only_when_it_is_cited(tmp_path: Path):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(bench_peers.conversation(random.Random(3), good=True)), encoding="utf-8")
    run = source_runs([path], eval_id="1").runs[0]
    source_map = run.source_map[0]
    assert source_map is not None
    heading = 1 + next(n for n, place in enumerate(source_map.lines[TRANSCRIPT]) if place and "tool_calls" in place[2])
    assert source_map.lines[TRANSCRIPT][heading - 1][3] is None  # not looked for while the run was read
    cited = source_map.cite(TRANSCRIPT, heading)
    text = path.read_text(encoding="utf-8")
    column = int(cited.split(":")[2].split("#")[0])
    assert cited.startswith("chat.json:1:") and text[column - 1:].startswith('"name"')
