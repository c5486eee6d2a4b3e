"""Colour, the same in every command that prints verdicts: one ``--color`` option,
one rule for "auto", one set of styles. Light on purpose: ``referee check`` and
every ``--help`` load it, and it loads nothing of the grader."""

from __future__ import annotations

import argparse
import os
from typing import TextIO

CHOICES = ("auto", "always", "never")
# Style -> SGR code: verdicts by their own words, so a caller paints "CONDITIONAL PASS" as it says it.
_COLORS = {"PASS": "32", "FAIL": "31", "EMPTY": "33", "CONDITIONAL PASS": "33", "REFUSED": "35", "dim": "2"}


def add_color_argument(parser: argparse.ArgumentParser) -> None:
    """Register ``--color {auto,always,never}`` on ``parser``."""
    parser.add_argument("--color", choices=CHOICES, default="auto",
                        help="colour the verdicts: auto (on a terminal; NO_COLOR and FORCE_COLOR are "
                             "obeyed), always (CI logs that show colours) or never")


def use_color(stream: TextIO, mode: str = "auto") -> bool:
    """``mode`` "always" or "never" decides; "auto" colours a terminal, unless
    NO_COLOR is set (to anything) or TERM is dumb, and FORCE_COLOR (set, not "0")
    colours any stream, for CI logs that render ANSI colours."""
    if mode in ("always", "never"):
        return mode == "always"
    if os.environ.get("NO_COLOR", "") != "":
        return False
    if os.environ.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def paint(text: str, style: str, color: bool) -> str:
    """``text`` in ``style`` (a key of the styles above) when ``color``; else as it is."""
    return f"\033[{_COLORS[style]}m{text}\033[0m" if color and style in _COLORS else text
