"""Arguments several commands share, said the same way in each ``--help``."""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.engine.run.safeio import safe_relative


def given_path(text: str) -> Path:
    """A path argument as given; an empty one is refused: ``Path("")`` is the working
    folder, so ``referee grade "$RUNS"`` with the variable unset would grade, or write
    into, whatever folder the command was run from."""
    return Path(given_name(text))


def given_name(text: str) -> str:
    """A path argument kept as text (``given_path``), refused when empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path: name the file or folder (is a variable unset?)")
    return text


def response_name(text: str) -> str:
    """``--response PATH``: a file of each run folder, so a path that leaves the folder
    (absolute, or through ``..``) names no run's response; read as the response of none,
    it left every run without one, and ``not response contains`` passed on every run."""
    given_name(text)
    if safe_relative(text) is None:
        raise argparse.ArgumentTypeError(f"{text!r} leaves the run folder: name the response file relative to "
                                         "each run folder, without '..' (outputs/result.md)")
    return text


def add_workspace(parser: argparse.ArgumentParser) -> None:
    """``WORKSPACE``: a workspace, or any folder level of one."""
    parser.add_argument("workspace", type=given_path, metavar="WORKSPACE",
                        help="the workspace, or any folder of one (iteration, eval, configuration, run)")


def add_rules(parser: argparse.ArgumentParser) -> None:
    """``--rules FILE...`` and ``--evals EVALS_JSON``, as ``referee grade`` takes them."""
    parser.add_argument("--rules", type=given_name, nargs="+", action="extend", default=[], metavar="FILE",
                        help="rules files (one or more), as given to referee grade")
    parser.add_argument("--evals", type=given_name, metavar="EVALS_JSON", default=None,
                        help="skill-creator evals.json: its expectations set the order and texts")


def add_roles(parser: argparse.ArgumentParser) -> None:
    """``--primary`` and ``--baseline``, found from the configurations' names when left out."""
    parser.add_argument("--primary", metavar="CONFIG", help="the configuration under test "
                        "(default from the names: with_X, new_X)")
    parser.add_argument("--baseline", metavar="CONFIG", help="the configuration to compare with "
                        "(default from the names: without_X, old_X, baseline)")
