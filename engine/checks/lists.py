"""Lists as the language uses them beyond selections: ``x in LIST`` (membership) and
``LIST where COND`` (the items of any list value for which a condition holds).

A membership test compares without coercion, as ``==`` does: ``"12"`` is not in
``[12]``, and numbers compare by value, so 1250 is in ``numbers("1,250.00")``.
When the list does not depend on the current element (``all numbers(summary) have
. in numbers(input "article.md")``), it is indexed once per run, so checking n
items against a list of m costs n + m, not n × m.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from referee.dsl import ast
from referee.dsl.format import format_condition, format_value
from referee.engine.checks.access import elements
from referee.engine.checks.base import (Check, CheckCompiler, Context, Expr, ExprCompiler, Leaf, Polarity,
                                        decided, describe_val, evidence_of, located, missing_verdict)
from referee.engine.checks.closeness import closest_first
from referee.engine.checks.compare import same_kinds
from referee.engine.checks.exprs import ELEMENT_OF
from referee.engine.checks.folding import as_seen, text_form
from referee.engine.checks.letter_forms import as_letters
from referee.engine.checks.blank_ends import not_equal_at_ends, read_by_people, without_blank_ends
from referee.engine.checks.markdown_equal import not_equal_as_shown, shown_text
from referee.engine.checks.markdown_seen import may_join
from referee.engine.checks.static import reads_element
from referee.engine.equality import equal
from referee.engine.values import (EvalError, Missing, Prov, Result, UnreadJson, Val, as_decimal,
                                   is_number, plain_top, render, type_name)
from referee.engine.verdict import Outcome, Verdict

# A 'where' that kept nothing is explained by its nearest miss among this many items.
CLOSEST_LIMIT = 1000
LIST_KINDS = ("calls", "notes", "rows", "lines", "texts", "numbers", "list")


def _key(value: Any, ignore_case: bool) -> tuple | None:
    """A hashable stand-in for a scalar that ``equal`` compares the same way (None
    for what only a deep comparison can tell: objects, lists, NaN)."""
    value = plain_top(value)
    if is_number(value):
        number = as_decimal(value)
        return None if number.is_nan() else ("number", number)
    if isinstance(value, str):
        return ("text", text_form(value, ignore_case))
    if value is None or isinstance(value, bool):
        return ("const", value)
    return None


def _seen_key(value: Any, ignore_case: bool) -> tuple | None:
    """The key of a text with its invisible format characters left out, as a reader
    sees it; None for a value that is no text or holds none."""
    value = plain_top(value)
    if not isinstance(value, str) or value.isascii():
        return None
    seen = as_letters(as_seen(value))  # ＡＰＩ is API to its reader too
    return ("text", text_form(seen, ignore_case)) if seen != value else None


def _shown_key(val: Val, ignore_case: bool, joined: bool = False) -> tuple | None:
    """The key of a Markdown text as its reader sees it rendered (``**Done**`` is "Done";
    ``joined``: its soft line breaks each a space too); None for a value read as written."""
    shown = shown_text(val, joined)
    return ("text", text_form(shown, ignore_case)) if shown is not None else None


def _joined_key(item: Val, ignore_case: bool) -> tuple | None:
    """A Markdown paragraph's key with its lines joined; None for a text that cannot join."""
    return _shown_key(item, ignore_case, True) if isinstance(item.value, str) and may_join(item.value) else None


def _bare_key(item: Val, ignore_case: bool) -> tuple | None:
    """The key of a text people read without the blanks at its ends; None for one with
    none there (or no text)."""
    text = item.value
    if not isinstance(text, str) or not read_by_people(item.prov) or without_blank_ends(text) == text:
        return None
    return _key(without_blank_ends(text), ignore_case)


@dataclass(frozen=True)
class Index:
    """The items of a list by key, the first of equal items kept; ``rest`` holds the
    items with no key, compared one by one."""

    first: dict[tuple, Val]
    rest: tuple[Val, ...]
    unread: tuple[Val, ...] = ()  # JSON that could not be read: text by its key, any other value unknown
    # texts holding invisible format characters, by their key without them: a text that
    # equals one only as a reader sees it is neither in the list nor not in it
    unseen: dict[tuple, Val] = field(default_factory=dict)
    # Markdown texts whose markup shows otherwise than written, by their key as shown: a
    # text that equals one only as its reader sees it is neither in the list nor not in it
    shown: dict[tuple, Val] = field(default_factory=dict)
    # the same with the lines of each paragraph joined, made on the first miss of a text
    # that may span a line (``_joined``): no other can equal a paragraph over lines
    joined: dict[bool, dict[tuple, Val]] = field(default_factory=dict)
    # texts people read with blanks at their ends, by their key without them, made on the
    # first miss of a text: "DONE" is no line "DONE  " as written, and the same to a reader
    bare: dict[bool, dict[tuple, Val]] = field(default_factory=dict)

    @classmethod
    def of(cls, items: tuple[Val, ...], ignore_case: bool) -> "Index":
        first: dict[tuple, Val] = {}
        unseen: dict[tuple, Val] = {}
        shown: dict[tuple, Val] = {}
        rest, unread = [], []
        for item in items:
            key = _key(item.value, ignore_case)
            if key is None:
                rest.append(item)
            else:
                first.setdefault(key, item)
                seen = _seen_key(item.value, ignore_case)
                if seen is not None:
                    unseen.setdefault(seen, item)
                as_shown = _shown_key(item, ignore_case)
                if as_shown is not None:
                    shown.setdefault(as_shown, item)
            if isinstance(item.value, UnreadJson):
                unread.append(item)
        return cls(first, tuple(rest), tuple(unread), unseen, shown)

    def find(self, value: Any, ignore_case: bool) -> Val | None:
        key = _key(value, ignore_case)
        found = self.first.get(key) if key is not None else None
        if found is not None:
            return found
        # Not found by its key: only text is decided so. JSON that could not be read,
        # compared with anything but text, is an ERROR (``equal``), never "not in".
        if key is None or isinstance(value, UnreadJson):
            others = self.rest + self.unread
        elif key[0] == "text":
            self._not_unseen(value, key, ignore_case)
            return None
        else:
            others = self.unread
        return next((item for item in others if equal(item.value, value, ignore_case)), None)


    def _not_unseen(self, value: str, key: tuple, ignore_case: bool) -> None:
        """Raise ``equal``'s EvalError when the text ``value`` (of key ``key``, in no
        item) equals an item once the invisible format characters of either are left out."""
        seen = _seen_key(value, ignore_case)
        twin = self.unseen.get(seen or key) or (self.first.get(seen) if seen is not None else None)
        if twin is not None:
            equal(twin.value, value, ignore_case)

    def not_shown(self, item: Val, ignore_case: bool) -> None:
        """Raise when the text ``item``, in no item as written, equals one as a Markdown
        text is shown (``markdown_equal.not_equal_as_shown``): either side's markup."""
        key, as_shown = _key(item.value, ignore_case), _shown_key(item, ignore_case)
        twin = self.shown.get(as_shown or key) if key is not None else None
        if twin is None and as_shown is not None:
            twin = self.first.get(as_shown)
        if twin is not None:
            not_equal_as_shown(twin, item, ignore_case)
        if key is not None and (" " in item.value or "\n" in item.value):
            self._not_joined(item, key, ignore_case)
        bare_key = _key(without_blank_ends(item.value), ignore_case)
        bare_twin = self._bare(ignore_case).get(bare_key) if bare_key is not None else None
        if bare_twin is not None:
            not_equal_at_ends(bare_twin, item, ignore_case)

    def _bare(self, ignore_case: bool) -> dict[tuple, Val]:
        return self._keyed(self.bare, ignore_case, lambda item: _bare_key(item, ignore_case))

    def _not_joined(self, item: Val, key: tuple, ignore_case: bool) -> None:
        """Raise when the text ``item`` equals an item once the lines of a Markdown
        paragraph, of either, are joined (``markdown_breaks``)."""
        as_joined = _shown_key(item, ignore_case, True)
        twin = self._joined(ignore_case).get(as_joined or key)
        if twin is None and as_joined is not None:
            twin = self.first.get(as_joined)
        if twin is not None:
            not_equal_as_shown(twin, item, ignore_case)

    def _joined(self, ignore_case: bool) -> dict[tuple, Val]:
        return self._keyed(self.joined, ignore_case, lambda item: _joined_key(item, ignore_case))

    def _keyed(self, made: dict[bool, dict[tuple, Val]], ignore_case: bool,
               key_of: Callable[[Val], tuple | None]) -> dict[tuple, Val]:
        """The items by ``key_of`` (the first of equal ones; an item with no such key left
        out), made on the first miss that asks and kept in ``made``."""
        if ignore_case not in made:
            keys: dict[tuple, Val] = {}
            for item in self.first.values():
                key = key_of(item)
                if key is not None:
                    keys.setdefault(key, item)
            made[ignore_case] = keys
        return made[ignore_case]


@dataclass(eq=False)  # its run's index is kept under the check itself (identity)
class MemberCheck(Leaf):
    item: Expr
    collection: Expr
    ignore_case: bool
    negated: bool
    polarity: Polarity
    constant: bool  # the list does not depend on the current element: index it once per run

    def decide(self, ctx: Context) -> Verdict:
        item, collection = self.item.eval(ctx), self.collection.eval(ctx)
        if isinstance(item, Missing):
            return missing_verdict(item)
        if isinstance(collection, Missing):
            return missing_verdict(collection)
        if type_name(collection.value) != "list":
            hint = "; for text write `... contains ...`" if isinstance(collection.value, str) else ""
            raise EvalError(f"'in' looks for an item of a list; {collection.label} is "
                            f"{type_name(collection.value)} {render(collection.value)[:60]}{hint}")
        index = self._index(ctx, collection)
        found = index.find(item.value, self.ignore_case)
        if found is None and isinstance(item.value, str):
            index.not_shown(item, self.ignore_case)
        label = collection.label
        if found is not None:
            fact = located(f"{describe_val(item)}, in {label}", found.prov)
        else:
            size = len(elements(collection))
            fact = f"{describe_val(item)}, not in {label} ({size} item{'' if size == 1 else 's'})"
        # The fact says "in" or "not in"; a find the assertion does not want says so.
        wants_found = (not self.negated) == self.polarity.positive
        message = f"{fact}, expected not in {label}" if found is not None and not wants_found else fact
        evidence = evidence_of(item, found) if found is not None else evidence_of(item)
        return decided((found is not None) != self.negated, message, evidence, observed=item.value)

    def _index(self, ctx: Context, collection: Val) -> Index:
        if self.constant:
            return ctx.once((self, "index"), lambda: Index.of(elements(collection), self.ignore_case))
        return Index.of(elements(collection), self.ignore_case)


def compile_member(c, node: ast.Member, scope) -> MemberCheck:
    item, collection = c.value(node.item, scope), c.value(node.collection, scope)
    if collection.kind == "text" or (isinstance(node.collection, ast.Literal)
                                     and not isinstance(node.collection.value, tuple)):
        shown = format_value(node.collection)
        c.error("bad-operand", f"'in' looks for an item of a list; {shown} is not a list",
                node.collection.span, f"for text write `{shown} contains {format_value(node.item)}`")
    elif collection.kind in ELEMENT_OF:
        same_kinds(c, "not in" if node.negated else "in", (node.item, item.kind),
                   (node.collection, ELEMENT_OF[collection.kind]),
                   "always holds" if node.negated else "never holds", convert=False)
    return MemberCheck(item, collection, node.ignore_case, node.negated, scope.polarity,
                       not reads_element(node.collection))


@dataclass(frozen=True, eq=False)
class FilteredList:
    """``base where condition`` over any list value: the items it keeps, each with
    its own provenance, so a count or a quantifier cites them. A list that does not
    depend on the current element is filtered once per run."""

    base: Expr
    check: Check
    text: str  # "where <condition>", as written
    constant: bool
    kind: str = "list"

    def eval(self, ctx: Context) -> Result:
        if self.constant:
            return ctx.once((self, "kept"), lambda: self._filter(ctx))
        return self._filter(ctx)

    def _filter(self, ctx: Context) -> Result:
        base = self.base.eval(ctx)
        if isinstance(base, Missing):
            return base
        if type_name(base.value) != "list":
            raise EvalError(f"'where' filters a list; {base.label} is {type_name(base.value)} "
                            f"{render(base.value)[:60]}")
        items = elements(base)
        tried = [(item, self._verdict(ctx, item)) for item in items]
        kept = tuple(item for item, verdict in tried if verdict.outcome is Outcome.PASS)
        label = f"{base.label} {self.text}"
        prov = base.prov
        own = Prov(prov.source, label, prov.file, prov.line, prov.step) if prov else Prov("none", label)
        return Val([item.value for item in kept], own, kept, base.claims,
                   empty="" if kept else self._why_empty(base, tried))

    def examined(self, ctx: Context) -> bool:
        """Whether the condition looked at some item: the list it filters has one."""
        base = self.base.eval(ctx)
        return isinstance(base, Val) and bool(elements(base))

    def _verdict(self, ctx: Context, item: Val) -> Verdict:
        verdict = self.check.evaluate(ctx.at(item))
        if verdict.outcome is Outcome.ERROR:
            raise EvalError(f"'where' on {item.label}: {verdict.message}", verdict.evidence)
        return verdict

    def _why_empty(self, base: Val, tried: list) -> str:
        if not tried:
            return f"{base.label} is empty"
        nearest = closest_first(tried[:CLOSEST_LIMIT])[0][1]
        label = "closest" if len(tried) > 1 else "first"
        count = f"{len(tried)} item" + ("" if len(tried) == 1 else "s")
        return f"{base.label} has {count}, none {self.text} ({label}: {nearest.message})"


def compile_filtered(c, node: ast.Filtered, scope) -> FilteredList:
    base = c.value(node.base, scope)
    check = c.cond(node.condition, c.element_scope(base.kind))
    if base.kind == "text" or isinstance(node.base, ast.Literal):
        c.error("bad-operand", f"'where' filters a list; {format_value(node.base)} is not one",
                node.base.span, "filter the lines or words of a text: lines(x) where ...")
    kind = base.kind if base.kind in LIST_KINDS else "list"
    return FilteredList(base, check, f"where {format_condition(node.condition)}",
                        not reads_element(node.base), kind)


CHECK_COMPILERS: dict[type, CheckCompiler] = {ast.Member: compile_member}
VALUE_COMPILERS: dict[type, ExprCompiler] = {ast.Filtered: compile_filtered}
