"""Sentence patterns, read from the TOML files in ``rules/patterns/``.

The files are data a user can read and extend; this module only loads them,
expands each ``{part}`` into its regular expression, and compiles it once.
Nothing here knows any language: every phrasing lives in the files.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import regex

SURE = ("high", "medium", "low")
_PLACEHOLDER = regex.compile(r"\{([a-z]+[0-9]?)\}")


class PatternError(ValueError):
    """A pattern file that cannot be used; the message names the file and pattern."""


@dataclass(frozen=True)
class Part:
    name: str
    kind: str
    regex: str


@dataclass(frozen=True)
class Pattern:
    id: str
    language: str
    says: str
    match: Any  # a compiled ``regex`` pattern
    check: str
    sure: str
    source: str  # "en.toml" etc.


def default_folder() -> Path:
    """``rules/patterns`` of the installed package (or of the checkout)."""
    return Path(str(files("referee").joinpath("rules", "patterns")))


@cache
def load(folder: str | None = None) -> tuple[dict[str, Part], tuple[Pattern, ...]]:
    """The parts and the patterns of ``folder`` (default: the bundled ones), in order."""
    where = Path(folder) if folder else default_folder()
    parts = _parts(_read(where / "parts.toml"), "parts.toml")
    patterns: list[Pattern] = []
    for path in sorted(where.glob("*.toml")):
        if path.name != "parts.toml":
            patterns += _patterns(_read(path), path.name, parts)
    return parts, tuple(patterns)


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PatternError(f"{path}: cannot read the pattern file: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PatternError(f"{path}: not valid TOML: {exc}") from None


def _parts(data: dict[str, Any], name: str) -> dict[str, Part]:
    found = {}
    for key, entry in data.get("part", {}).items():
        if not isinstance(entry, dict) or not {"kind", "regex"} <= entry.keys():
            raise PatternError(f"{name}: part {key!r} needs a kind and a regex")
        found[key] = Part(key, str(entry["kind"]), str(entry["regex"]))
    return found


def _patterns(data: dict[str, Any], name: str, parts: dict[str, Part]) -> list[Pattern]:
    language = str(data.get("language", Path(name).stem))
    made = []
    for number, entry in enumerate(data.get("pattern", []), 1):
        where = f"{name}: pattern {entry.get('id', number)!r}"
        missing = {"id", "match", "check"} - entry.keys()
        if missing:
            raise PatternError(f"{where}: missing {', '.join(sorted(missing))}")
        sure = entry.get("sure", "medium")
        if sure not in SURE:
            raise PatternError(f"{where}: sure must be one of {', '.join(SURE)}, not {sure!r}")
        made.append(Pattern(entry["id"], language, entry.get("says", ""),
                            _compile(entry["match"], parts, where), entry["check"], sure, name))
    return made


def _compile(text: str, parts: dict[str, Part], where: str) -> Any:
    def expand(found: Any) -> str:
        part = parts.get(found.group(1))
        if part is None:
            raise PatternError(f"{where}: unknown part {{{found.group(1)}}}; "
                               f"the parts are {', '.join(sorted(parts))}")
        return part.regex

    try:
        return regex.compile(_PLACEHOLDER.sub(expand, text), regex.IGNORECASE | regex.V0)
    except regex.error as exc:
        raise PatternError(f"{where}: bad regular expression: {exc}") from None
