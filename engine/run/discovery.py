"""Finding the runs of a workspace: a depth-first walk of its folders.

A run directory is any directory that holds ``outputs/``. That one rule covers
every layout in use: ``iteration-N/eval-<id>[-name]/<config>/run-<k>/``, the flat
``<config>/outputs`` (run number 1), SkillSentry's ``eval-N/with_skill/outputs``,
the legacy ``<dir>/runs/eval-*/...`` and descriptive eval names without ``eval-``.
Anything else found on the way (stray files, ``run-a``, empty folders, symlinked
folders) is skipped with a warning, a folder that was a run counted as not read
(``Discovery.unread``); nothing in a workspace can crash discovery.
The walk itself is ``engine.run.folder_walk``; this module gathers what it found into
a ``Discovery``, in run order. Which eval, configuration and run a folder is:
``engine.run.identity``; a run itself: ``engine.run.workspace.Run``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from pathlib import Path

from referee.engine.run.folder_walk import GRADE_FOLDER, RUN_INSIDE_RUN, RUN_NUMBER_TAKEN, Walker, order_key
from referee.engine.run.identity import eval_prefix, natural_key
from referee.engine.run.metadata_evals import EvalSentences
from referee.engine.run.model import Problem, RunId
from referee.engine.run.reading import NO_FILES, ResponseFiles
from referee.engine.run.run_folders import may_hold_metadata as _may_hold_metadata
from referee.engine.run.run_list import RunList, run_folder  # noqa: F401 (engine.run.workspace gives them too)
from referee.engine.run.workspace import Run, sort_problems

__all__ = ["GRADE_FOLDER", "REFUSED", "RUN_INSIDE_RUN", "RUN_NUMBER_TAKEN", "Discovery", "RunList", "discover",
           "holds_evals", "refusal", "refused", "run_folder", "run_order", "_may_hold_metadata"]

# What makes a workspace ungradable: a run would stand for another, or go unread.
REFUSED = (RUN_NUMBER_TAKEN, RUN_INSIDE_RUN)


@dataclass
class Discovery:
    """The runs of a workspace in natural order, and the layout problems met on the way.

    ``runs`` is a ``RunList`` (a plain list when the workspace is not a folder): each
    Run is built when asked for. Problems of a run's own files (metadata included)
    are on ``Run.problems``. ``expectations``: the sentences each eval's
    ``eval_metadata.json`` gives (``engine.run.metadata_evals``), in run order.
    """

    runs: Sequence[Run] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    expectations: tuple[EvalSentences, ...] = ()
    unread: tuple[RunId, ...] = ()  # run folders that cannot be read (``engine.run.folder_walk.Walker.unread``)


def refused(found: Discovery) -> Problem | None:
    """The first problem of ``found`` that makes its workspace ungradable (``REFUSED``):
    a run would stand for another, or go unread. ``grade`` grades nothing then, and the
    commands that read the grades read none: what they decided would leave it out."""
    return next((p for p in found.problems if p.code in REFUSED), None)


def refusal(found: Discovery) -> str | None:
    """Why the commands that read the grades read none of ``found`` (``refused``), as
    they say it, or None."""
    problem = refused(found)
    return None if problem is None else f"{problem.path}: {problem.message}; nothing was read"


def discover(workspace: Path, responses: ResponseFiles = NO_FILES) -> Discovery:
    """Find every run under ``workspace`` (the workspace itself may be a run);
    ``responses`` names the response files harnesses deliver (``engine.run.reading``)."""
    root = Path(os.path.abspath(workspace))
    if not root.is_dir():
        return Discovery([], [Problem("not-a-directory", ".", "the workspace is not a directory")])
    walker = Walker(root)
    walker.visit(os.fspath(root), ())
    repeated = walker.keep_apart()
    walker.evals_split()
    walker.numbers_taken()
    runs = RunList(root, _in_run_order(walker.found), walker.metadata, walker.prefix, responses, repeated)
    unread = tuple(sorted(walker.unread, key=lambda rid: natural_key(rid.rel)))
    return Discovery(runs, sort_problems(walker.problems), walker.sentences(repeated), unread)


def holds_evals(workspace: Path) -> bool:
    """Whether ``workspace`` is a folder of evals (a workspace, an iteration), not one
    inside an eval (an eval, a configuration, a run: ``eval_prefix``) or a run itself,
    which its path chose: an eval of the rules with no run there is then no eval
    left out."""
    root = Path(os.path.abspath(workspace))
    return not eval_prefix(root) and not (root / "outputs").is_dir()


def run_order(run_id: RunId, rel: str) -> tuple:
    """Where the run ``run_id`` at ``rel`` stands among a discovery's runs: runs held
    elsewhere (sources graded in memory) sorted by it come in the order discovery
    gives their folders (``order_key``, ties by folder: ``_in_run_order``)."""
    return order_key(run_id, natural_key), natural_key(rel)


def _in_run_order(found: list[tuple[tuple, str]]) -> list[str]:
    """The ``rel`` of each ``(order key, rel)`` (in walk order), sorted by the key
    and then by the natural key of ``rel``.

    Sorting by the key alone and then each group of equal keys (rare) by its
    folders gives the order that sorting by both at once gives, without holding
    the natural key of every run's folder at once."""
    found.sort(key=itemgetter(0))
    ordered: list[str] = []
    for _, group in groupby(found, key=itemgetter(0)):
        rels = [rel for _, rel in group]
        if len(rels) > 1:
            rels.sort(key=natural_key)
        ordered.extend(rels)
    return ordered
