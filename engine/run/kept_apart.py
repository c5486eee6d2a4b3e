"""Eval ids that name several evals of one workspace, and how each is told apart.

Discovery notes where it found each eval id (``Place``); an id found in two skill
folders, or given by two eval folders of one iteration, is qualified by the
folder (``KeptApart``), so the evals are graded, counted and reported apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import NamedTuple

from referee.dsl.frozen import frozen
from referee.engine.run.model import RunId

SHARED_ID = "shared_id"  # RunId.extra: the id a kept-apart eval shares with others (KeptApart.apply)


class Place(NamedTuple):
    """Where discovery found an eval id: the run's folder above its eval
    (``RunId.extra["folder"]``), its iteration and its eval folder."""

    eval_id: str
    folder: str
    iteration: int | None
    eval_folder: str


def place_of(run_id: RunId) -> Place:
    return Place(run_id.eval_id, run_id.extra.get("folder", ""), run_id.iteration,
                 run_id.extra.get("eval_folder", ""))


@frozen
class KeptApart:
    """The eval ids that name several evals of one workspace, and how each is told apart.

    ``by_folder``: ids found in two skill folders (``a-workspace/iteration-1/eval-1``
    and ``b-workspace/iteration-1/eval-1``), qualified by that folder. ``by_eval_folder``:
    ids that two eval folders of one iteration give (eval_metadata.json copied and
    not edited, ``eval-1`` beside ``eval-01``), qualified by the eval folder too:
    read by the id alone, the runs of one would be graded by the other's sentences
    and counted as its runs. One eval folder in several iterations (renamed between
    them or not) is one eval, as its id says."""

    by_folder: frozenset[str] = frozenset()
    by_eval_folder: frozenset[str] = frozenset()

    @classmethod
    def of(cls, places: Iterable[Place]) -> KeptApart:
        folders: dict[str, set[str]] = {}
        eval_folders: dict[tuple[str, str, int | None], set[str]] = {}
        for place in places:
            folders.setdefault(place.eval_id, set()).add(place.folder)
            eval_folders.setdefault(place[:3], set()).add(place.eval_folder)
        return cls(frozenset(eval_id for eval_id, found in folders.items() if len(found) > 1),
                   frozenset(key[0] for key, found in eval_folders.items() if len(found) > 1))

    def __bool__(self) -> bool:
        return bool(self.by_folder or self.by_eval_folder)

    def __contains__(self, eval_id: object) -> bool:
        return eval_id in self.by_folder or eval_id in self.by_eval_folder

    def qualified(self, place: Place) -> str:
        """The id of the eval found at ``place``: qualified when it names several."""
        parts = []
        if place.eval_id in self.by_folder and place.folder:
            parts.append(place.folder)
        if place.eval_id in self.by_eval_folder and place.eval_folder:
            if place.folder and place.folder not in parts:
                parts.append(place.folder)
            parts.append(place.eval_folder)
        return "/".join(parts + [place.eval_id])

    def apply(self, run_id: RunId) -> RunId:
        """The id of a run whose eval id names other evals of the workspace too: the
        eval id qualified by the run's folder (``humanizer-workspace/1``), or by its
        eval folder (``eval-1-export/1``), so the evals are graded, counted and
        reported apart."""
        eval_id = self.qualified(place_of(run_id))
        if eval_id == run_id.eval_id:
            return run_id
        reading = (f"eval id {run_id.eval_id!r} names evals in other folders too: this one is {eval_id}")
        layout = "; ".join(filter(None, (run_id.extra.get("layout"), reading)))
        return replace(run_id, eval_id=eval_id, extra={**run_id.extra, "layout": layout, SHARED_ID: run_id.eval_id})
