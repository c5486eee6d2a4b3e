"""Sentence patterns, read from the TOML files in ``rules/patterns/`` (and the user's).

The files are data a user can read and extend; this module only loads them,
expands each ``{part}`` into its regular expression, and compiles it once.
Nothing here knows any language: every phrasing lives in the files.

A part's regular expression is captured under the part's name, so ``{tool}`` in a
pattern is ``(?P<tool>...)``; ``{tool2}`` is the same part captured a second time. A
``list`` part is a run of its ``item`` part separated by its ``separator``; the
drafter cuts it back into items with the same two expressions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import regex

from referee.dsl.named_file import read_named_text
from referee.engine.tomlfile import NotToml, toml_table

SURE = ("high", "medium", "low")
KINDS = ("tool", "count", "field", "return_field", "value", "text", "file", "pairs",
         "ignore", "regex", "json_pair", "list", "number", "heading", "input", "verbatim")
_PLACEHOLDER = regex.compile(r"\{([a-z_]+?)([0-9]?)\}")
_FLAGS = regex.IGNORECASE | regex.V0


class PatternError(ValueError):
    """A pattern file that cannot be used; the message names the file and pattern."""


@dataclass(frozen=True)
class Part:
    name: str
    kind: str
    regex: str  # the expression alone, without the group that captures it
    form: str | None = None  # "{}" stands for the captured text, before it is converted
    words: dict[str, str] = field(default_factory=dict)  # captured word -> what it stands for
    item: "Part | None" = None  # a list's items
    separator: str | None = None  # what stands between a list's items
    splitter: Any = None  # compiled: one item and the separator after it


@dataclass(frozen=True)
class Pattern:
    id: str
    language: str
    says: str
    match: Any  # a compiled ``regex`` pattern
    check: str
    sure: str
    source: str  # "en.toml" etc.
    each: str | None = None  # the check of one item of the pattern's list part
    join: str = "and"  # between the items' checks: "and", "or", or text put as it is
    known: tuple[str, ...] = ()  # parts whose names the runs must be seen to have
    note: str = ""  # said in every draft the pattern makes
    defaults: dict[str, str] = field(default_factory=dict)  # part -> the text it stands for when left out


def default_folder() -> Path:
    """``rules/patterns`` of the installed package (or of the checkout)."""
    return Path(str(files("referee").joinpath("rules", "patterns")))


@cache
def load(folder: str | None = None, extra: tuple[str, ...] = (),
         bundled: bool = True) -> tuple[dict[str, Part], tuple[Pattern, ...]]:
    """The parts and patterns to draft with, in the order they are tried.

    The patterns of the ``extra`` folders come first, in the order given, then the
    bundled ones (none when ``bundled`` is false); ``folder`` stands in for the
    bundled folder. The parts are the bundled ones with each folder's
    ``parts.toml`` over them. A pattern whose id was already seen is skipped, so a
    user's folder changes a bundled phrasing by reusing its id.
    """
    base = Path(folder) if folder else default_folder()
    mine = [Path(f) for f in extra]
    for given in mine:
        if not given.is_dir():
            raise PatternError(f"{given}: no such folder of pattern files")
    raw: dict[str, tuple[Path, Any]] = {}
    for where in [base, *reversed(mine)]:  # the first folder given has the last word
        path = where / "parts.toml"
        if where == base or path.is_file():
            raw.update({key: (path, entry) for key, entry in _read(path).get("part", {}).items()})
    parts = _parts(raw)
    patterns: dict[str, Pattern] = {}
    for where in mine + ([base] if bundled else []):
        for path in sorted(where.glob("*.toml")):
            if path.name != "parts.toml":
                for pattern in _patterns(_read(path), path, parts):
                    patterns.setdefault(pattern.id, pattern)
    return parts, tuple(patterns.values())


def _read(path: Path) -> dict[str, Any]:
    try:
        return toml_table(read_named_text(path))
    except NotToml as exc:
        raise PatternError(f"{path}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PatternError(f"{path}: cannot read the pattern file: {getattr(exc, 'strerror', None) or exc}") from None


def _parts(raw: dict[str, tuple[Path, Any]]) -> dict[str, Part]:
    for key, (path, entry) in raw.items():
        needs = {"kind", "item"} if isinstance(entry, dict) and entry.get("kind") == "list" else {"kind", "regex"}
        if not isinstance(entry, dict) or not needs <= entry.keys():
            raise PatternError(f"{path}: part {key!r} needs {' and '.join(sorted(needs))}")
        if entry["kind"] not in KINDS:
            raise PatternError(f"{path}: part {key!r} has the kind {entry['kind']!r}; "
                               f"the kinds are {', '.join(KINDS)}")
        if not isinstance(entry.get("form", ""), str) or not isinstance(entry.get("words", {}), dict):
            raise PatternError(f"{path}: part {key!r}: form is a text with {{}} in it, "
                               f"words a table of words and what each stands for")
        if entry["kind"] == "verbatim" and not entry.get("words"):
            raise PatternError(f"{path}: part {key!r}: a verbatim part needs words (what each "
                               f"word it captures puts into the check as it is)")
    found: dict[str, Part] = {}
    for key, (path, entry) in raw.items():
        if entry["kind"] != "list":
            words = {str(word).lower(): str(meaning) for word, meaning in entry.get("words", {}).items()}
            found[key] = Part(key, entry["kind"], _bare(key, str(entry["regex"])), entry.get("form"), words)
    for key, (path, entry) in raw.items():
        if entry["kind"] == "list":
            found[key] = _list_part(key, entry, found, path)
    return found


def _bare(name: str, text: str) -> str:
    """The expression without a ``(?P<name>...)`` around it (older files wrote one)."""
    return text.replace(f"(?P<{name}>", "(?:")


def _list_part(key: str, entry: dict[str, Any], parts: dict[str, Part], path: Path) -> Part:
    item = parts.get(str(entry["item"]))
    if item is None:
        raise PatternError(f"{path}: list part {key!r} names the item {entry['item']!r}, "
                           f"which is not a part")
    separator = str(entry.get("separator", r"\s*,\s*"))
    expression = f"(?:{item.regex})(?:(?:{separator})(?:{item.regex}))*"
    splitter = _compile(f"(?P<item>{item.regex})(?:{separator}|\\Z)", f"{path}: part {key!r}")
    return Part(key, "list", expression, item=item, separator=separator, splitter=splitter)


def _patterns(data: dict[str, Any], path: Path, parts: dict[str, Part]) -> list[Pattern]:
    language = str(data.get("language", path.stem))
    made = []
    for number, entry in enumerate(data.get("pattern", []), 1):
        where = f"{path}: pattern {entry.get('id', number)!r}"
        missing = {"id", "match", "check"} - entry.keys()
        if missing:
            raise PatternError(f"{where}: missing {', '.join(sorted(missing))}")
        sure = entry.get("sure", "medium")
        if sure not in SURE:
            raise PatternError(f"{where}: sure must be one of {', '.join(SURE)}, not {sure!r}")
        join = str(entry.get("join", "and"))
        defaults = entry.get("defaults", {})
        if not isinstance(defaults, dict) or not set(defaults) <= set(parts):
            raise PatternError(f"{where}: defaults is a table of parts and the text each stands for "
                               f"when the sentence leaves it out")
        made.append(Pattern(entry["id"], language, entry.get("says", ""),
                            _compile(_expand(entry["match"], parts, where), where),
                            entry["check"], sure, path.name, entry.get("each"), join,
                            tuple(entry.get("known", ())), str(entry.get("note", "")),
                            {str(k): str(v) for k, v in defaults.items()}))
    return made


def _expand(text: str, parts: dict[str, Part], where: str) -> str:
    def expand(found: Any) -> str:
        part = parts.get(found.group(1) + found.group(2)) or parts.get(found.group(1))
        if part is None:
            raise PatternError(f"{where}: unknown part {found.group(0)}; "
                               f"the parts are {', '.join(sorted(parts))}")
        return f"(?P<{found.group(1)}{found.group(2)}>{part.regex})"

    return _PLACEHOLDER.sub(expand, text)


def _compile(text: str, where: str) -> Any:
    try:
        return regex.compile(text, _FLAGS)
    except regex.error as exc:
        raise PatternError(f"{where}: bad regular expression: {exc}") from None


def part_of(name: str, parts: dict[str, Part]) -> Part | None:
    """The part a captured group stands for: ``tool2`` is a second ``tool``."""
    return parts.get(name) or parts.get(name.rstrip("0123456789"))


def split(part: Part, text: str) -> list[str] | None:
    """The items of a list part's captured text, or None when it does not cut cleanly."""
    items, at = [], 0
    while at < len(text):
        found = part.splitter.match(text, at)
        if found is None or found.end() == at:
            return None
        items.append(found.group("item"))
        at = found.end()
    return items
