"""The seed a cassette's requests were sent with is in its metadata's params; a
cassette whose metadata line was edited to name another backend ("anthropic", which
takes no seed) still answers only the seed it was recorded with. Before, such an edit
let a cassette recorded with seed 0 replay for --llm-seed 7 as that grade's verdicts;
now it is refused, as the unedited cassette is. A cassette recorded through the
Anthropic API (whose params hold no seed) answers any seed, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.llm_adapter import make_judge
from referee.llm_adapter.cassette import FORMAT

META = {"format": FORMAT, "version": 2, "model": "probe", "judge": "hand-made metadata"}


def _cassette(tmp_path: Path, backend: str, params: dict) -> Path:
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({**META, "backend": backend, "params": params}) + "\n", encoding="utf-8")
    return path


def test_a_seed_in_the_params_is_checked_whatever_backend_the_metadata_names(tmp_path):
    path = _cassette(tmp_path, "anthropic", {"seed": 0, "temperature": 0})
    with pytest.raises(ValueError, match="recorded with seed 0"):
        make_judge(f"replay:{path}", seed=7)
    make_judge(f"replay:{path}", seed=0)


def test_an_anthropic_cassette_answers_any_seed(tmp_path):
    path = _cassette(tmp_path, "anthropic", {"max_tokens": 4096, "temperature": 0})
    make_judge(f"replay:{path}", seed=7)
    make_judge(f"replay:{path}", seed=None)
