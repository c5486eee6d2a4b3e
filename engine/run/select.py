"""Choosing some runs of a workspace: one eval, one configuration, one run.

``grade``, ``report`` and ``aggregate`` share these flags (``--eval``,
``--config``, ``--run``), each repeatable; a run is kept when it matches every
flag given (any of the values of one flag). Values are compared as text, so
``--eval 1`` matches the eval whose id is "1", and ``--eval book-flight`` the
eval of that name, ``--eval eval-1-book-flight`` or ``--eval 1-book-flight`` the
one of that folder. An eval id that two eval folders give (``eval-1-foo`` and
``eval-1-bar``, each read as eval 1) names two evals, kept apart by their
folders (``engine.run.kept_apart``): each is reached by its folder or name,
never by the id they share.
"""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING, Any, Iterable, Protocol, Sequence, TypeVar, overload

from referee.dsl.frozen import frozen
from referee.engine.run.identity import RUN_DIGITS
from referee.engine.text import ascii_digits

if TYPE_CHECKING:  # the selection flags are built for ``referee --help``, which reads no run
    from referee.engine.run.model import RunId
    from referee.engine.run.workspace import RunList


class _Identified(Protocol):
    @property
    def id(self) -> RunId: ...


T = TypeVar("T", bound=_Identified)


@frozen
class Selection:
    """The filters given; an empty tuple means "any"."""

    evals: tuple[str, ...] = ()
    configs: tuple[str, ...] = ()
    runs: tuple[int, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.evals or self.configs or self.runs)

    def matches(self, eval_id: str, eval_name: str | None, configuration: str, run_number: int,
                eval_folder: str | None = None) -> bool:
        """True when a run with these names passes every filter (``eval_folder``: the
        eval's own folder, when the run lies in one)."""
        if self.evals and not _eval_matches(self.evals, eval_id, eval_name, eval_folder):
            return False
        if self.configs and configuration not in self.configs:
            return False
        return not self.runs or run_number in self.runs

    def matches_id(self, run_id: RunId) -> bool:
        """True when the run found at ``run_id`` passes every filter."""
        return self.matches(run_id.eval_id, run_id.eval_name, run_id.configuration, run_id.run_number,
                            run_id.extra.get("eval_folder"))

    def describe(self) -> str:
        """The filters as the user wrote them, for messages: ``--eval 1 --config with_skill``."""
        parts = [f"--eval {v}" for v in self.evals] + [f"--config {v}" for v in self.configs]
        parts += [f"--run {v}" for v in self.runs]
        return " ".join(parts)


def described(text: str | None) -> Selection | None:
    """The selection whose ``describe()`` is ``text`` (None or "" for no flag), as a
    shard's manifest records it; None when no selection describes itself so."""
    if not text:
        return Selection()
    flags: dict[str, list[str]] = {"eval": [], "config": [], "run": []}
    for part in re.split(r" (?=--(?:eval|config|run) )", text):
        flag, space, value = part.partition(" ")
        if not space or flag.removeprefix("--") not in flags or not flag.startswith("--"):
            return None
        flags[flag.removeprefix("--")].append(value)
    if not all(ascii_digits(value, most=RUN_DIGITS) for value in flags["run"]):
        return None
    found = Selection(tuple(flags["eval"]), tuple(flags["config"]), tuple(int(v) for v in flags["run"]))
    return found if found.describe() == text else None


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    """Register ``--eval``, ``--config`` and ``--run`` on a subcommand's parser."""
    group = parser.add_argument_group("selection (each repeatable; a run must match every flag given)")
    group.add_argument("--eval", dest="select_evals", action="append", default=[], metavar="ID",
                       help="only this eval: its id, its name, or its folder name (eval-1-foo or 1-foo)")
    group.add_argument("--config", dest="select_configs", action="append", default=[], metavar="NAME",
                       help="only this configuration (with_skill, without_skill, ...)")
    group.add_argument("--run", dest="select_runs", action="append", default=[], type=_run_number,
                       metavar="N", help="only run number N (run-N)")


def selection_from_args(args: argparse.Namespace) -> Selection:
    """The ``Selection`` that ``add_selection_arguments`` parsed (empty when absent)."""
    return Selection(tuple(getattr(args, "select_evals", []) or ()),
                     tuple(getattr(args, "select_configs", []) or ()),
                     tuple(getattr(args, "select_runs", []) or ()))


@overload
def select_runs(runs: RunList, selection: Selection) -> RunList: ...
@overload
def select_runs(runs: Iterable[T], selection: Selection) -> Sequence[T]: ...


def select_runs(runs: Iterable[Any], selection: Selection) -> Sequence[Any]:
    """The runs (``engine.run.workspace.Run``, anything with a ``RunId`` as ``id``)
    that match ``selection``, in the order given: a list, or from a discovery's
    ``RunList`` a ``RunList`` too, so that no more Runs are held than before."""
    from referee.engine.run.workspace import RunList

    if isinstance(runs, RunList):
        if selection.empty:
            return runs
        return runs.subset(number for number, run in enumerate(runs) if _matches(selection, run))
    if selection.empty:
        return list(runs)
    return [run for run in runs if _matches(selection, run)]


def _matches(selection: Selection, run: _Identified) -> bool:
    return selection.matches_id(run.id)


def shared_ids(selection: Selection, ids: Iterable[RunId]) -> str:
    """For a selection that matched nothing: the evals whose folders share an id
    the selection names (``--eval 1`` of ``eval-1-foo/1`` and ``eval-1-bar/1``),
    as a hint naming each; "" when there are none."""
    from referee.engine.run.kept_apart import SHARED_ID

    named = sorted({run_id.eval_id for run_id in ids
                    if _eval_matches(selection.evals, run_id.extra.get(SHARED_ID, ""), run_id.eval_name, None)})
    if not named:
        return ""
    return (f" (eval folders that share an id are evals of their own: {', '.join(named)}; name one by that "
            "id, its folder or its name)")


def _eval_matches(wanted: tuple[str, ...], eval_id: str, eval_name: str | None, eval_folder: str | None) -> bool:
    if not eval_id:
        return False
    names = {eval_id, f"eval-{eval_id}"}
    if eval_name:
        names |= {eval_name, f"eval-{eval_id}-{eval_name}", f"eval-{eval_id}_{eval_name}",
                  f"{eval_id}-{eval_name}", f"{eval_id}_{eval_name}"}
    if eval_folder:
        bare = _EVAL_PREFIX.sub("", eval_folder)
        # A bare number is an id: eval-2 holding eval 7 is not reached by --eval 2.
        names |= {eval_folder} if bare.isdigit() else {eval_folder, bare}
    return any(value in names for value in wanted)


_EVAL_PREFIX = re.compile(r"^eval[-_]", re.I)  # eval-1-foo is the folder of what a user calls 1-foo


def _run_number(text: str) -> int:
    digits = text.lower().removeprefix("run-").removeprefix("run_")
    if not ascii_digits(digits, most=RUN_DIGITS):
        raise argparse.ArgumentTypeError(f"expected a run number (3 or run-3), got {text!r}")
    return int(digits)
