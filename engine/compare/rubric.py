"""skill-creator's rubric, scored from the rules' verdicts instead of by a model.

Six criteria in two dimensions: content (correctness, completeness, accuracy)
and structure (organization, formatting, usability). Each assertion belongs to
one criterion: the one a rubric file names for it (``--rubric FILE``, TOML,
``"1#4" = "accuracy"``), else the one its rule's form says (``infer``; the table
is in docs/compare.md). A criterion scores 1 to 5 from the fraction of its
graded assertions that passed in the run: ``1 + 4 * passed / graded``, rounded
half up to a whole number. A dimension scores the mean of its scored criteria,
and the overall score is content plus structure (1 to 10), as skill-creator
computes it. Every score says where it came from.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Mapping, Sequence

from referee.dsl.frozen import frozen
from referee.dsl.named_file import read_named_text
from referee.engine.compare.load import Item
from referee.engine.tomlfile import NotToml, toml_table
from referee.engine.usage import UsageError

DIMENSIONS = {"content": ("correctness", "completeness", "accuracy"),
              "structure": ("organization", "formatting", "usability")}
CRITERIA = DIMENSIONS["content"] + DIMENSIONS["structure"]

# The rule's text, read for its form; first match wins, correctness is the rest.
_FORMS: tuple[tuple[str, re.Pattern, str], ...] = (
    ("organization", re.compile(r"\bbefore\b|\bafter\b|\bin order\b|\bheadings?\(|\bsection\(|\bparts\("),
     "orders steps or parts"),
    ("formatting", re.compile(r"\blines\(|\bas (?:csv|json)\b|\bmatches\b|\bis json\b|\bstarts with\b"
                              r"|\bends with\b|\bcode\("), "checks a layout or a format"),
    ("completeness", re.compile(r"\bexists\b|\bcount\(|\bexactly\s+\d|\bat (?:least|most)\s+\d"
                                r"|\bis (?:not )?empty\b"), "counts or checks presence"),
    ("accuracy", re.compile(r"\bnumber\(|\bwithin\b|[<>]=?\s*-?\d|[=!]=\s*-?\d"), "compares numbers"),
    ("usability", re.compile(r"^\s*(?:not\s+)?response\b"), "reads the reply as delivered"),
)
# A plain sentence (no rule) is read for a few words; the rest is about the reply.
_WORDS: tuple[tuple[str, re.Pattern], ...] = (
    ("formatting", re.compile(r"\b(?:format\w*|header|columns?|csv|json|markdown|table|bullets?|indent\w*)\b", re.I)),
    ("organization", re.compile(r"\b(?:order\w*|before|after|sequence|sections?|structured?)\b", re.I)),
    ("accuracy", re.compile(r"\b(?:numbers?|prices?|totals?|amounts?|dates?|accurate\w*|exact\w*)\b", re.I)),
    ("completeness", re.compile(r"\b(?:all|every|each|complete\w*|missing|lists?)\b", re.I)),
    ("correctness", re.compile(r"\b(?:correct\w*|right|wrong|calls?|called)\b", re.I)),
)


@frozen
class Tag:
    """An assertion's criterion, and where that came from."""

    criterion: str
    source: str  # "rubric FILE:LINE", "inferred: ...", "sentence: ..."


@frozen
class CriterionScore:
    criterion: str
    score: int
    passed: int
    graded: int
    keys: tuple[str, ...]
    source: str  # "rules" or "model"


@frozen
class Scores:
    """One run's rubric."""

    criteria: tuple[CriterionScore, ...]
    content: Fraction
    structure: Fraction
    source: str  # how the dimensions were filled

    @property
    def overall(self) -> Fraction:
        return self.content + self.structure

    def of(self, criterion: str) -> CriterionScore | None:
        return next((c for c in self.criteria if c.criterion == criterion), None)


def infer(item: Item) -> Tag:
    """The criterion an assertion's rule (or sentence) speaks to."""
    if item.check.strip():
        for criterion, form, why in _FORMS:
            if form.search(item.check):
                return Tag(criterion, f"inferred: the rule {why}")
        return Tag("correctness", "inferred: the rule checks what was done (calls, fields, values)")
    for criterion, words in _WORDS:
        found = words.search(item.text)
        if found:
            return Tag(criterion, f"sentence: says \"{found.group(0)}\"")
    return Tag("usability", "sentence: judges the reply as a reader would")


def load_tags(path: Path | None) -> dict[str, Tag]:
    """``--rubric FILE``: assertion key -> criterion; UsageError naming the file and line."""
    if path is None:
        return {}
    try:
        text = read_named_text(path, "utf-8-sig")
        table = toml_table(text)
    except NotToml as exc:
        raise UsageError(f"{path}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the rubric file {path}: {getattr(exc, 'strerror', None) or exc}") from None
    tags = {}
    for key, value in table.items():
        line = _line_of(text, key)
        if not isinstance(value, str) or value not in CRITERIA:
            raise UsageError(f"{path}:{line}: {key!r} = {value!r}: a criterion is one of {', '.join(CRITERIA)}")
        tags[key] = Tag(value, f"rubric {path.name}:{line}")
    return tags


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith((key, f'"{key}"', f"'{key}'")):
            return number
    return 1


def tag_of(item: Item, tags: Mapping[str, Tag]) -> Tag:
    return tags.get(item.key) or infer(item)


def score(fraction_passed: Fraction) -> int:
    """1 to 5 from the fraction passed, rounded half up."""
    return int(1 + 4 * fraction_passed + Fraction(1, 2))


def scores(items: Sequence[Item], tags: Mapping[str, Tag],
           extra: Mapping[str, int] | None = None) -> Scores:
    """The run's rubric from its graded items; ``extra`` adds scores for criteria no
    rule decided (the model's), and never replaces one a rule decided."""
    found: dict[str, list[Item]] = {}
    for item in items:
        if item.graded:
            found.setdefault(tag_of(item, tags).criterion, []).append(item)
    criteria = []
    for criterion in CRITERIA:
        mine = found.get(criterion)
        if mine:
            passed = sum(i.passed for i in mine)
            criteria.append(CriterionScore(criterion, score(Fraction(passed, len(mine))), passed, len(mine),
                                           tuple(i.key for i in mine), "rules"))
        elif extra and criterion in extra:
            criteria.append(CriterionScore(criterion, extra[criterion], 0, 0, (), "model"))
    return _dimensions(tuple(criteria))


def _dimensions(criteria: tuple[CriterionScore, ...]) -> Scores:
    means = {}
    for dimension, names in DIMENSIONS.items():
        values = [c.score for c in criteria if c.criterion in names]
        means[dimension] = Fraction(sum(values), len(values)) if values else None
    content, structure = means["content"], means["structure"]
    if content is not None and structure is not None:
        return Scores(criteria, content, structure, "both dimensions scored")
    if content is not None:
        return Scores(criteria, content, content, "no structure criterion scored: structure scored as content")
    if structure is not None:
        return Scores(criteria, structure, structure, "no content criterion scored: content scored as structure")
    middle = Fraction(3)
    return Scores(criteria, middle, middle, "no criterion scored: 3 (no evidence either way)")


def shown(value: Fraction, digits: int = 1) -> float:
    """A score as written: rounded half up to ``digits`` decimals."""
    scale = 10 ** digits
    return int(value * scale + Fraction(1, 2)) / scale
