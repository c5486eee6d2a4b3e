"""The critique facts a shard manifest holds for each eval (``feedback``) are checked
before the merge folds them: facts of another length than the eval's assertions, of an
eval the rules do not have, or missing for an eval whose runs the manifest lists, are
a refusal naming the manifest (exit 2, nothing written), never an internal error nor
a critique made from some of the eval's runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from referee.engine.cli import main
from sharded import RULE_ARGS, sharded

Edit = Callable[[dict[str, Any]], None]


def _first_tally(manifest: dict[str, Any]) -> dict[str, Any]:
    return manifest["feedback"][0]["tally"]


EDITS: dict[str, tuple[Edit, str]] = {
    "a short list": (lambda m: _first_tally(m).__setitem__("passed_everywhere", []),
                     "passed_everywhere holds 0 entries"),
    "a short count list": (lambda m: _first_tally(m).__setitem__("vacuous_count", [0]),
                           "vacuous_count holds 1 entry"),
    "another number of assertions": (
        lambda m: _first_tally(m).update({key: value[:1] for key, value in _first_tally(m).items()
                                          if isinstance(value, list) and key not in ("tools", "configurations")}
                                         | {"positions": 1}),
        "for 1 assertion, where the rules give it 7"),
    "an eval the rules do not have": (lambda m: m["feedback"][0].__setitem__("key", "no-such-eval"),
                                      "critique facts of eval no-such-eval, which the rules do not have"),
    "no facts at all": (lambda m: m.__setitem__("feedback", []), "but holds no critique facts of eval"),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_a_manifests_critique_facts_that_do_not_fit_are_refused(tmp_path: Path, capsys, name: str):
    # Input: the example graded as 2 shards, then shard-1-of-2.json's feedback edited.
    # Before: an internal error (IndexError, KeyError, StopIteration) with exit 2.
    merged = sharded(tmp_path, 2)
    path = merged / "shard-1-of-2.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    assert manifest["runs"] and manifest["feedback"]
    edit, said = EDITS[name]
    edit(manifest)
    path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    capsys.readouterr()
    assert main(["merge", str(merged), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert "shard-1-of-2.json" in err and said in err
    assert not (merged / "shard-merge.json").exists()


def test_facts_left_out_of_one_shard_of_an_eval_are_refused(tmp_path: Path, capsys):
    # Input: eval 1's runs graded by both shards, and eval 1's facts dropped from one
    # manifest. Before: merged, with each run's critique made from the other shard's
    # runs alone ("from 2 runs of this eval" where the eval has 4).
    merged = sharded(tmp_path, 2)
    found = {}
    for index in (1, 2):
        manifest = json.loads((merged / f"shard-{index}-of-2.json").read_text(encoding="utf-8"))
        found[index] = manifest
    both = set.intersection(*({part["key"] for part in m["feedback"]} for m in found.values()))
    assert both  # an eval whose runs lie in both shards
    key = sorted(both)[0]
    found[2]["feedback"] = [part for part in found[2]["feedback"] if part["key"] != key]
    (merged / "shard-2-of-2.json").write_text(json.dumps(found[2], indent=2), encoding="utf-8")
    capsys.readouterr()
    assert main(["merge", str(merged), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert "shard-2-of-2.json lists " in err and f"but holds no critique facts of eval {key}" in err
    assert not (merged / "shard-merge.json").exists()


@pytest.mark.parametrize("extra", [[{"x": 1}], [{"reason": "r", "assertion": ["a"], "source": "critique"}], ["text"]])
def test_a_critique_suggestion_of_another_shape_is_refused(tmp_path: Path, capsys, extra: list):
    # Input: the example graded as 1 shard, its manifest's feedback[0].extra (the
    # suggestions critique.json added) edited. Before: "internal error" (KeyError:
    # 'assertion', TypeError: unhashable type).
    merged = sharded(tmp_path, 1)
    path = merged / "shard-1-of-1.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["feedback"][0]["extra"] = extra
    path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    capsys.readouterr()
    assert main(["merge", str(merged), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "shard-1-of-1.json: feedback.0.extra" in err
