"""A JSONPath field step finds the key equal to its name in NFC, as ``x["name"]`` does.

jsonpath-ng looks a field up as written, so on args written ``{"Mu\\u0308ller": 1}``
(Müller decomposed, as macOS writes names) ``$['Müller']`` and ``$.guests[?(@.Müller)]``
selected nothing, and 'count(...) == 0' passed where ``args["Müller"]`` is 1. Each
``Fields`` step of a query now asks for the keys of the object before it that its
names name in NFC (``checks.keys.key_of``): the match keeps the key as written in its
path, so evidence still finds it in the payload. A name the object holds twice in NFC
with different values is an ERROR naming both, never a pick.

An object whose keys and the step's names are all NFC (``keys_in_nfc``) is looked up
by jsonpath-ng as before.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from referee.engine.checks.jsonpath_budget import Find, nodes
from referee.engine.checks.keys import key_of, keys_in_nfc

_INSTALLED = "_referee_keys_in_nfc"


def find_keys_in_nfc(query: Any) -> None:
    """Make every field step of ``query`` find its names' keys in NFC (once per query).
    Before ``bounded_find`` charges the steps: each call is charged as before."""
    if getattr(query, _INSTALLED, False):
        return
    from jsonpath_ng import Fields  # loaded already: ``query`` is one

    # '*' is every field, no name; a list typed as any, as mypy refuses assigning a method
    steps: list[Any] = [node for node in nodes(query) if type(node) is Fields and "*" not in node.fields]
    for node in steps:
        node.find = _in_nfc(node.find, node.fields)
    setattr(query, _INSTALLED, True)


def _in_nfc(find: Find, fields: tuple[str, ...]) -> Find:
    from jsonpath_ng import DatumInContext, Fields

    names_in_nfc = all(isinstance(f, str) and unicodedata.is_normalized("NFC", f) for f in fields)

    def find_in_nfc(datum: Any) -> Any:
        value = datum.value if isinstance(datum, DatumInContext) else datum  # a node is given either
        if not isinstance(value, dict) or (names_in_nfc and keys_in_nfc(value)):
            return find(datum)
        written = tuple(_written(value, name) for name in fields)
        if written == fields:
            return find(datum)
        return Fields(*written).find(datum)

    return find_in_nfc


def _written(value: dict, name: str) -> str:
    """The key of ``value`` that ``name`` names in NFC; ``name`` when there is none."""
    found = key_of(value, name)
    return name if found is None else found
