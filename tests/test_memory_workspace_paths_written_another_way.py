"""``run_folders`` and ``readers`` (docs/scale.md: which runs read a file of a workspace
held in memory) read a path written another way (``./eval-1/...``, ``a//b``) as the
path it names, as ``memory_workspace`` does. ``readers`` gave no run for such a path,
so the file was dropped from its run: a response left out, ``not response contains``
passed on a run that says it. A bare path where the list of paths is meant is a
TypeError (it was read as its characters: no run at all)."""

from __future__ import annotations

import pytest

from referee.engine.run.memory_workspace import readers, run_folders

RESPONSE = "./eval-1/with_skill/run-1/outputs//response.md"


def test_a_file_written_another_way_is_read_by_its_run():
    runs = run_folders([RESPONSE])
    assert runs == ["eval-1/with_skill/run-1"]
    assert readers(RESPONSE, runs) == ["eval-1/with_skill/run-1"]
    assert readers("./eval-1/eval_metadata.json", runs) == ["eval-1/with_skill/run-1"]


def test_a_bare_path_is_a_type_error():
    with pytest.raises(TypeError, match="list of paths"):
        run_folders(RESPONSE)  # type: ignore[arg-type]
