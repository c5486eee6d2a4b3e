"""A JSONPath filter, and a sort, compare texts as the language does: in NFC.

jsonpath-ng compares two texts code point by code point as written, so on a run whose
args hold ``"Mu\\u0308ller"`` (Müller written decomposed, as macOS writes files)
``[?(@.name == 'Müller')]`` kept nothing, and 'count(...) == 0' or 'no ...' over it
passed where the language's ``==`` says the two names are one. Each comparison of a
filter (``==``, ``!=`` and the orderings), and each value a sort orders by (a field,
``$[/name]``, or the values themselves, ```sorted```), now sees its texts in
``text_form`` (NFC, never case folded: a query has no ``ignoring case``): a literal,
once, and each value a side selects, texts inside a list or an object too (and an
object's keys, as ``==`` compares them). Only what is compared changes: what the query
selects keeps its text as written, and its functions (``sub``, ``split``) read the
text as written, as a regex does. A text holding invisible format characters is
compared as ``==`` compares it (``engine.equality``): equal to another only once they
are left out ("Er\u200bror" and "Error") is an ERROR, never a filter that keeps
nothing under 'count(...) == 0'.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

from referee.engine.checks.folding import UNSEEN, text_form
from referee.engine.checks.jsonpath_budget import Find, nodes
from referee.engine.checks.keys import Undecided, in_nfc
from referee.engine.equality import equal

COMPARISONS = frozenset({"==", "=", "!=", "<", "<=", ">", ">="})
_INSTALLED = "_referee_text_form"
# A list or object met in one run of a query, by id, with its form: a filter meets a
# value again for each element it is asked about ($..*[?(@ == $.x)]), and normalising
# it each time would cost its size each time. The value itself is kept beside its
# form, so its id is not taken by another while the run lasts.
_FORMS: ContextVar[dict[int, tuple[Any, Any]] | None] = ContextVar("referee_jsonpath_forms", default=None)


def compare_in_text_form(query: Any) -> None:
    """Make every comparison of ``query``'s filters compare texts in ``text_form`` (once per query)."""
    if getattr(query, _INSTALLED, False):
        return
    from jsonpath_ng.ext.iterable import SortedThis  # loaded already: ``query`` is one

    for side in _compared(query):
        side.find = _in_text_form(side.find)
    # `sorted`: a sort of the values themselves
    bare: list[Any] = [node for node in nodes(query) if isinstance(node, SortedThis) and not node.expressions]
    for node in bare:
        node.find = _sorted_in_text_form(node.find)
    setattr(query, _INSTALLED, True)


def _compared(query: Any) -> list:
    """The parts of ``query`` whose values a comparison or a sort (``$[/name]``) compares;
    a comparison's text literal is put in ``text_form`` here."""
    from jsonpath_ng import JSONPath
    from jsonpath_ng.ext.filter import Expression  # loaded already: ``query`` is one
    from jsonpath_ng.ext.iterable import SortedThis

    sides: list = []
    for node in nodes(query):
        if isinstance(node, SortedThis):
            sides += [field for field, _ in node.expressions or ()]
        if not (isinstance(node, Expression) and node.op in COMPARISONS):
            continue
        if isinstance(node.value, str):
            node.value = _compared_text(node.value)
        sides += [node.target] + ([node.value] if isinstance(node.value, JSONPath) else [])
    return sides


def _sorted_in_text_form(find: Find) -> Find:
    def find_sorted(datum: Any) -> Any:
        found = find(datum)  # sorted as written: values without an order raise here, as before
        if not (isinstance(found, list) and len(found) == 1 and isinstance(found[0].value, list)):
            return found
        from jsonpath_ng import DatumInContext

        return [DatumInContext.wrap(sorted(found[0].value, key=in_text_form))]

    return find_sorted


@contextmanager
def one_run() -> Iterator[None]:
    """A run of a query: each list and object a comparison meets is normalised once in it."""
    token = _FORMS.set({})
    try:
        yield
    finally:
        _FORMS.reset(token)


def _in_text_form(find: Find) -> Find:
    def find_in_text_form(datum: Any) -> Any:
        found = find(datum)
        if not isinstance(found, list):
            return found
        return [_datum_in_text_form(match) for match in found]

    return find_in_text_form


def _datum_in_text_form(match: Any) -> Any:
    from jsonpath_ng import DatumInContext

    if not isinstance(match, DatumInContext):
        return match
    value = match.value
    made = in_text_form(value, _FORMS.get())
    return match if made is value else DatumInContext(made, path=match.path, context=match.context)


def in_text_form(value: Any, forms: dict[int, tuple[Any, Any]] | None = None) -> Any:
    """``value`` with every text in it in ``text_form``; ``value`` itself when each
    already is. ``forms`` keeps the lists and objects already met."""
    if isinstance(value, str):
        return _compared_text(value)  # the text itself when it is NFC already
    if not isinstance(value, (list, dict)):
        return value
    forms = {} if forms is None else forms
    known = forms.get(id(value))
    if known is not None:
        return known[1]
    if isinstance(value, list):
        items = [in_text_form(item, forms) for item in value]
        made: Any = value if all(a is b for a, b in zip(items, value)) else items
    else:
        made = _object_in_text_form(value, forms)
    forms[id(value)] = (value, made)
    return made


def _object_in_text_form(value: dict, forms: dict[int, tuple[Any, Any]]) -> Any:
    """``value`` with its keys (as ``==`` compares them, ``checks.keys.in_nfc``) and its
    texts in ``text_form``; an ERROR where it holds a key twice with different values."""
    keyed = in_nfc(value)
    undecided = next((item for item in keyed.values() if isinstance(item, Undecided)), None)
    if undecided is not None:
        raise undecided.error
    pairs = {key: in_text_form(item, forms) for key, item in keyed.items()}
    return value if keyed is value and all(pairs[key] is item for key, item in value.items()) else pairs


class _Unseen(str):
    """A text holding invisible format characters, as a filter compares it: ``==`` and
    ``!=`` against a text it equals only once they are left out raise ``equal``'s
    EvalError rather than deciding."""

    __slots__ = ()
    __hash__ = str.__hash__

    def __eq__(self, other: object) -> bool:
        return equal(str(self), str(other)) if isinstance(other, str) else NotImplemented

    def __ne__(self, other: object) -> bool:
        return not equal(str(self), str(other)) if isinstance(other, str) else NotImplemented


def _compared_text(text: str) -> str:
    """``text`` in ``text_form``, as a filter compares it (``_Unseen`` when it holds
    invisible format characters or spaces other than U+0020)."""
    form = text_form(text)
    return form if form.isascii() or UNSEEN.search(form) is None else _Unseen(form)
