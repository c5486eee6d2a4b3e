"""Read a skill-creator ``evals.json``, with optional embedded assertions.

The format stays skill-creator's: ``{"skill_name", "evals": [{"id", "prompt",
"expected_output", "files", "expectations": [sentence, ...]}]}`` (``assertions`` is
accepted for ``expectations``). An eval whose harness delivers the answer as a file
names it with ``"response_file": "outputs/result.md"`` (relative to the run folder).
An eval may add a ``"referee"`` key that other tools ignore::

    "referee": {"let": {"saved": "last(calls to glob \\"*save*\\")"},
                "checks": {"1": "count(calls to glob \\"*save*\\") == 1"}}

Keys of ``checks`` are 1-based expectation indexes. The strings are parsed with the
language's grammar; errors, and every span of the trees built, point at the real
line and column inside evals.json.
"""

from __future__ import annotations

import json
import re
from dataclasses import field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, Callable

from referee.dsl import ast
from referee.dsl.errors import Diagnostic, RulesError, line_col, line_of
from referee.dsl.frozen import frozen
from referee.dsl.json_locate import index_values, raw_offsets, syntax_error
from referee.dsl.named_file import NotUtf8, read_named_text
from referee.dsl.parser import parse_condition
from referee.dsl.transform import check_text

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_INDEX = re.compile(r"[1-9][0-9]*\Z")


@frozen
class EvalEntry:
    """One eval of evals.json. ``rules`` holds the embedded ``referee`` assertions
    (an EvalBlock whose expects have ``sentence`` None and ``index`` set), or None."""

    id: str
    name: str | None
    prompt: str
    expectations: tuple[str, ...]
    rules: ast.EvalBlock | None = None
    expected_output: str | None = None
    files: tuple[str, ...] = ()
    response_file: str | None = None  # the file the harness delivers as the answer, relative to the run folder
    # Where each of ``expectations`` stands in its file, for errors about a sentence
    # (``duplicate-text``); empty when that is not known.
    places: tuple[ast.Span, ...] = field(default=(), compare=False)
    # The file the sentences were read from, when not the EvalsFile's own: each eval's
    # eval_metadata.json (``engine.run.metadata_evals``).
    source: str | None = field(default=None, compare=False)


@frozen
class EvalsFile:
    """A loaded evals.json. ``text`` is the raw file, for showing source lines."""

    path: str
    skill_name: str | None
    evals: tuple[EvalEntry, ...]
    text: str = field(default="", repr=False, compare=False)
    # The folder evals.json is in, where the eval's input files are found (with the
    # folder above it: skill-creator lists "evals/files/x" from the skill's root);
    # None for a text read from nowhere.
    folder: str | None = field(default=None, compare=False)

    def find(self, key: str) -> EvalEntry | None:
        """The eval whose id (as text) or name is ``key``."""
        for entry in self.evals:
            if entry.id == key or (entry.name is not None and entry.name == key):
                return entry
        return None


def load_evals(path: Path, display: str | None = None) -> EvalsFile:
    """Load and check ``path``. ``display`` is the path shown in messages (default:
    the path as given). Raises ``RulesError`` (code ``bad-evals`` for the JSON
    itself, the language's codes for embedded assertions) listing every problem."""
    found, diagnostics = load_evals_partial(path, display)
    if diagnostics or found is None:
        raise RulesError(diagnostics)
    return found


def load_evals_partial(path: Path, display: str | None = None) -> tuple[EvalsFile | None, list[Diagnostic]]:
    """``loads_evals_partial`` of the file at ``path``."""
    shown = display or str(path)
    try:
        text = read_named_text(path)  # a FIFO or a device is refused, never waited on
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        line = exc.line if isinstance(exc, NotUtf8) else 0  # the line of the byte that is not UTF-8
        return None, [Diagnostic("bad-evals", f"cannot read evals.json: {reason}", shown, line, 0)]
    return loads_evals_partial(text, shown, str(Path(path).parent))


def loads_evals(text: str, path: str = "evals.json", folder: str | None = None) -> EvalsFile:
    """Like ``load_evals`` for text already read (a leading byte order mark is ignored);
    ``folder`` is where the file was read from, if anywhere."""
    found, diagnostics = loads_evals_partial(text, path, folder)
    if diagnostics or found is None:
        raise RulesError(diagnostics)
    return found


def loads_evals_partial(text: str, path: str = "evals.json", folder: str | None = None,
                        ) -> tuple[EvalsFile | None, list[Diagnostic]]:
    """What of evals.json could be read, and the errors of the rest: ``referee check``
    compiles the checks that parsed too, so an error in one string does not hide
    those of the others. None when the file is no JSON at all, or an eval's sentences
    are not all strings."""
    try:
        return _loads(text.removeprefix("\ufeff"), path, folder)
    except RulesError as exc:
        return None, list(exc.diagnostics)


def _loads(text: str, path: str, folder: str | None) -> tuple[EvalsFile | None, list[Diagnostic]]:
    """The file read, and the errors of its parts; ``RulesError`` when it is no JSON."""
    try:
        data = json.loads(text, parse_float=str, parse_int=_whole)
    except json.JSONDecodeError as raised:
        exc = syntax_error(raised)
        raise RulesError([Diagnostic("bad-evals", f"not valid JSON: {exc.msg}", path,
                                     exc.lineno, exc.colno, exc.colno + 1, None,
                                     line_of(text, exc.lineno))]) from None
    except _LongNumber as exc:
        line, column = line_col(text, text.find(exc.digits))
        raise RulesError([Diagnostic("bad-evals", f"a number of {len(exc.digits)} digits, more than can be read",
                                     path, line, column, column + 1, None, line_of(text, line))]) from None
    except RecursionError:
        raise RulesError([Diagnostic("bad-evals", "evals.json is nested too deeply",
                                     path, 1, 1)]) from None
    reader = _Reader(text, path)
    result = replace(reader.read(data), folder=folder)
    # A sentence that is no string is left out, which would move the numbers of those
    # after it: no check of such a file is compiled against the wrong sentence.
    return (None if reader.renumbered else result), reader.diagnostics


class _LongNumber(ValueError):
    """A whole number written with more digits than Python converts (4300 by default)."""

    def __init__(self, digits: str):
        super().__init__(f"{len(digits)} digits")
        self.digits = digits


def _whole(digits: str) -> int:
    """``int(digits)``, or ``_LongNumber``: the ValueError of int() says no more where it is."""
    try:
        return int(digits)
    except ValueError:
        raise _LongNumber(digits) from None


class _Reader:
    """Walks the decoded JSON, checking types and parsing ``referee`` strings."""

    def __init__(self, text: str, path: str):
        self.text, self.path = text, path
        self.positions = index_values(text, depth=6)
        self.diagnostics: list[Diagnostic] = []
        self.renumbered = False  # an eval's sentences are not all strings: their numbers moved

    def read(self, data: Any) -> EvalsFile:
        if not isinstance(data, dict) or not isinstance(data.get("evals"), list):
            self.bad((), "evals.json must be an object with an \"evals\" list")
            return EvalsFile(self.path, None, (), self.text)
        skill = data.get("skill_name")
        if skill is not None and not isinstance(skill, str):
            self.bad(("skill_name",), "skill_name must be a string")
        entries = [self.entry(i, e) for i, e in enumerate(data["evals"])]
        self.unique_ids(data["evals"], entries)
        return EvalsFile(self.path, skill if isinstance(skill, str) else None,
                         tuple(e for e in entries if e is not None), self.text)

    def entry(self, i: int, raw: Any) -> EvalEntry | None:
        where = ("evals", i)
        if not isinstance(raw, dict):
            self.bad(where, f"evals[{i}] must be an object")
            return None
        if not isinstance(raw.get("id"), (int, str)) or isinstance(raw.get("id"), bool):
            self.bad(where + ("id",) if "id" in raw else where,
                     f"evals[{i}].id must be a number or a string")
            return None
        key = "expectations" if "expectations" in raw else "assertions"
        sentences = self.strings(where + (key,), raw.get(key, []))
        listed = raw.get(key, [])
        self.renumbered |= not isinstance(listed, list) or len(sentences) != len(listed)
        rules = None
        if "referee" in raw:
            rules = self.rules(where, str(raw["id"]), raw["referee"], len(sentences))
        name = raw.get("name", raw.get("eval_name"))
        output, prompt = raw.get("expected_output"), raw.get("prompt")
        response = raw.get("response_file")
        if response is not None and (not isinstance(response, str) or not response.strip()):
            self.bad(where + ("response_file",), f"evals[{i}].response_file must be a path relative to the "
                     "run folder (outputs/result.md)")
            response = None
        return EvalEntry(str(raw["id"]), name if isinstance(name, str) else None,
                         prompt if isinstance(prompt, str) else "",
                         sentences, rules, output if isinstance(output, str) else None,
                         self.strings(where + ("files",), raw.get("files", [])), response,
                         self.places(where + (key,), raw.get(key, [])))

    def unique_ids(self, raw: list, entries: list) -> None:
        """An id given twice (1 and "1" are one: runs, folders and rules name evals by
        text) would merge two evals, one's sentences lost: an error at the second."""
        seen: dict[str, int] = {}
        for i, entry in enumerate(entries):
            if entry is None:
                continue
            if entry.id in seen:
                self.bad(("evals", i, "id"), f"evals[{i}].id {json.dumps(raw[i]['id'])} is the id of "
                         f"evals[{seen[entry.id]}] too: each eval needs an id of its own")
            seen.setdefault(entry.id, i)

    def strings(self, where: tuple, value: Any) -> tuple[str, ...]:
        """A list of strings, or () after reporting what is wrong with it."""
        if not isinstance(value, list):
            self.bad(where, f"{_jpath(where)} must be a list of strings")
            return ()
        for j, item in enumerate(value):
            if not isinstance(item, str):
                self.bad(where + (j,), f"{_jpath(where + (j,))} must be a string")
        return tuple(v for v in value if isinstance(v, str))

    def places(self, where: tuple, value: Any) -> tuple[ast.Span, ...]:
        """The span of each string of the list at ``where`` (as ``strings`` keeps them)."""
        if not isinstance(value, list):
            return ()
        return tuple(self.span_of(where + (j,)) for j, item in enumerate(value) if isinstance(item, str))

    # ----------------------------------------------------------- embedded rules

    def rules(self, where: tuple, key: str, raw: Any, count: int) -> ast.EvalBlock | None:
        where = where + ("referee",)
        if not isinstance(raw, dict):
            self.bad(where, f"{_jpath(where)} must be an object with \"let\" and \"checks\"")
            return None
        for other in raw:  # a misspelt key would leave its checks out, and every sentence to the grader
            if other not in ("let", "checks"):
                self.bad(where + (other,), f"{_jpath(where)} has an unknown key {json.dumps(other)}: "
                                           "it holds \"let\" and \"checks\"")
        lets = self.lets(where + ("let",), raw.get("let", {}))
        expects = self.checks(where + ("checks",), raw.get("checks", {}), count)
        return ast.EvalBlock(key, None, tuple(lets), tuple(expects),
                             self.span_of(where, len("{}")))

    def lets(self, where: tuple, raw: Any) -> list[ast.Let]:
        if not isinstance(raw, dict):
            self.bad(where, f"{_jpath(where)} must map names to values, patterns or conditions")
            return []
        out = []
        for name, source in raw.items():
            value = self.parsed(where + (name,), source, _parse_let)
            if not _NAME.match(name):
                self.bad(where + (name,), f"'{name}' is not a name (letters, digits, _)")
            elif value is not None:
                out.append(ast.Let(name, value, value.span))
            else:  # bound all the same (to null), so the checks using it are not also "unknown name"
                out.append(ast.Let(name, ast.Literal(None)))
        return out

    def checks(self, where: tuple, raw: Any, count: int) -> list[ast.Expect]:
        if not isinstance(raw, dict):
            self.bad(where, f"{_jpath(where)} must map expectation numbers to checks")
            return []
        out = []
        for index, source in sorted(raw.items(), key=lambda kv: _sort_index(kv[0])):
            check = self.parsed(where + (index,), source, parse_condition)
            if not _INDEX.match(index) or int(index) > count:
                self.bad(where + (index,), f"\"{index}\" is not an expectation number: "
                         f"this eval has {count} expectations, numbered from 1",
                         code="bad-index")
            elif check is not None:
                out.append(ast.Expect(int(index), None, check, check_text(source), check.span))
        return out

    def parsed(self, where: tuple, source: Any, parse: Callable[[str, str], Any]) -> Any:
        """Parse one embedded string; spans and errors moved into evals.json."""
        if not isinstance(source, str):
            self.bad(where, f"{_jpath(where)} must be a string")
            return None
        start = self.positions.get(where, 0)
        offsets = raw_offsets(self.text, start)
        try:
            tree = parse(source, self.path)
        except RulesError as exc:
            self.diagnostics += [self.moved(d, source, offsets) for d in exc.diagnostics]
            return None
        return _move_spans(tree, lambda s: self.moved_span(s, source, offsets))

    def moved(self, d: Diagnostic, source: str, offsets: list[int]) -> Diagnostic:
        span = self.moved_span(ast.Span(d.line, d.column, d.line, max(d.end_column,
                                                                       d.column + 1)),
                               source, offsets)
        return replace(d, path=self.path, line=span.line, column=span.column,
                       end_column=span.caret_end(), source_line=line_of(self.text, span.line))

    def moved_span(self, span: ast.Span, source: str, offsets: list[int]) -> ast.Span:
        start = offsets[min(_offset(source, span.line, span.column), len(offsets) - 1)]
        end = offsets[min(_offset(source, span.end_line, span.end_column), len(offsets) - 1)]
        (line, column), (end_line, end_column) = line_col(self.text, start), \
            line_col(self.text, end)
        return ast.Span(line, column, end_line, end_column, start, end)

    # ---------------------------------------------------------------- helpers

    def span_of(self, where: tuple, width: int = 1) -> ast.Span:
        pos = self.positions.get(where, 0)
        line, column = line_col(self.text, pos)
        return ast.Span(line, column, line, column + width, pos, pos + width)

    def bad(self, where: tuple, message: str, code: str = "bad-evals") -> None:
        span = self.span_of(where)
        self.diagnostics.append(Diagnostic(code, message, self.path, span.line, span.column,
                                           span.end_column, None,
                                           line_of(self.text, span.line)))


def _offset(text: str, line: int, column: int) -> int:
    """Offset in ``text`` of a 1-based line and column."""
    pos = 0
    for _ in range(max(0, line - 1)):
        nl = text.find("\n", pos)
        if nl < 0:
            break
        pos = nl + 1
    return max(0, pos + column - 1)


def _move_spans(node: Any, move: Callable[[ast.Span], ast.Span]) -> Any:
    """A copy of a syntax tree with every Span passed through ``move``."""
    if isinstance(node, tuple):
        return tuple(_move_spans(n, move) for n in node)
    if not is_dataclass(node) or isinstance(node, (ast.Span, type)):  # nodes, not classes
        return node
    changes = {}
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, ast.Span):
            changes[f.name] = move(value) if value != ast.NO_SPAN else value
        elif isinstance(value, tuple) or is_dataclass(value):
            changes[f.name] = _move_spans(value, move)
    return replace(node, **changes)


def _sort_index(key: str) -> tuple:
    return (0, int(key), "") if _INDEX.match(key) else (1, 0, key)


def _jpath(where: tuple) -> str:
    out = ""
    for part in where:
        out += f"[{part}]" if isinstance(part, int) else (
            f".{part}" if _NAME.match(str(part)) else f"[{json.dumps(part)}]")
    return out.lstrip(".") or "the top level"


def _parse_let(text: str, path: str) -> ast.Value | ast.RegexLit | ast.Condition:
    """What a let names, as ``let NAME = ...`` reads it: a bare value parses as a
    condition and is that value."""
    parsed = parse_condition(text, path)
    return parsed.value if isinstance(parsed, ast.Truthy) else parsed
