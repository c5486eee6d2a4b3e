"""Choosing some runs of a workspace: one eval, one configuration, one run.

``grade``, ``report`` and ``aggregate`` share these flags (``--eval``,
``--config``, ``--run``), each repeatable; a run is kept when it matches every
flag given (any of the values of one flag). Values are compared as text, so
``--eval 1`` matches the eval whose id is "1", and ``--eval book-flight`` the
eval of that name or folder (``eval-1-book-flight``).
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Protocol, Sequence, TypeVar, overload

if TYPE_CHECKING:  # the selection flags are built for ``referee --help``, which reads no run
    from referee.engine.run.model import RunId
    from referee.engine.run.workspace import RunList


class _Identified(Protocol):
    @property
    def id(self) -> RunId: ...


T = TypeVar("T", bound=_Identified)


@dataclass(frozen=True)
class Selection:
    """The filters given; an empty tuple means "any"."""

    evals: tuple[str, ...] = ()
    configs: tuple[str, ...] = ()
    runs: tuple[int, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.evals or self.configs or self.runs)

    def matches(self, eval_id: str, eval_name: str | None, configuration: str, run_number: int) -> bool:
        """True when a run with these names passes every filter."""
        if self.evals and not _eval_matches(self.evals, eval_id, eval_name):
            return False
        if self.configs and configuration not in self.configs:
            return False
        return not self.runs or run_number in self.runs

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
    if not all(value.isdigit() for value in flags["run"]):
        return None
    found = Selection(tuple(flags["eval"]), tuple(flags["config"]), tuple(int(v) for v in flags["run"]))
    return found if found.describe() == text else None


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    """Register ``--eval``, ``--config`` and ``--run`` on a subcommand's parser."""
    group = parser.add_argument_group("selection (each repeatable; a run must match every flag given)")
    group.add_argument("--eval", dest="select_evals", action="append", default=[], metavar="ID",
                       help="only this eval: its id, its name, or its folder name")
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
    return selection.matches(run.id.eval_id, run.id.eval_name, run.id.configuration, run.id.run_number)


def _eval_matches(wanted: tuple[str, ...], eval_id: str, eval_name: str | None) -> bool:
    names = {eval_id, f"eval-{eval_id}"}
    if eval_name:
        names |= {eval_name, f"eval-{eval_id}-{eval_name}", f"eval-{eval_id}_{eval_name}"}
    return any(value in names for value in wanted)


def _run_number(text: str) -> int:
    digits = text.lower().removeprefix("run-").removeprefix("run_")
    if not digits.isdigit():
        raise argparse.ArgumentTypeError(f"expected a run number (3 or run-3), got {text!r}")
    return int(digits)
