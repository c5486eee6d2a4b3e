"""An HTML tag's attributes as the HTML parser reads them, for the Markdown and HTML texts
``markdown_seen`` reads: a quoted value holds what it holds, ``>`` and ``<`` included
(``<img alt="a > b">`` is one tag, all of it hidden), and a word inside a value is no
attribute (``<span title="Show hidden files">`` is not hidden). And where a paragraph
its attributes hide ends, which its closing tag need not tell (``paragraph_end``)."""

from __future__ import annotations

import re

# A tag: its name, then its attributes, a value quoted after its ``=`` taken whole. A quote
# elsewhere (``<a b"c>``), or one that nothing closes, is a character of the tag, as the
# HTML parser reads the first (the second it reads to the end of the text: a tag read
# shorter shows more, which costs at most an ERROR). Each alternative starts with its
# own characters and is taken possessively: a character is read once.
TAG = r"""</?[A-Za-z][A-Za-z0-9-]*+(?:[ \t\r\n/](?:[^<>"'=]++|=[ \t\r\n]*+(?:"[^"]*+"|'[^']*+')?|["'])*+)?>"""
_NAME = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*")
# One attribute: its name (a quote inside one is a character of it: ``<a b"c>``), and its
# value, quoted or not, when it has one.
_ATTRIBUTE = re.compile(r"""[^\s>/=]++(?:\s*+=\s*+(?:"([^"]*+)"|'([^']*+)'|([^\s>]*+)))?""")
# A style that hides its element (``display: none``, ``visibility: hidden``).
_HIDING_STYLE = re.compile(r"\b(?:display\s*+:\s*+none|visibility\s*+:\s*+hidden)", re.IGNORECASE)


def attributes(tag: str) -> dict[str, str]:
    """The attributes of ``tag`` (a whole tag, ``<...>``), by name in lower case, each
    with its value ("" for none); a name written twice keeps its first value, as the
    HTML parser does."""
    found: dict[str, str] = {}
    name = _NAME.match(tag)
    at = name.end() if name is not None else 0
    for attribute in _ATTRIBUTE.finditer(tag, at, len(tag) - 1):
        key = attribute.group().split("=", 1)[0].strip().lower()
        value = next((group for group in attribute.groups() if group is not None), "")
        found.setdefault(key, value)
    return found


def hidden_by(tag: str) -> bool:
    """Whether ``tag``'s attributes hide its element: ``hidden``, or a style of
    ``display: none`` or ``visibility: hidden``."""
    read = attributes(tag)
    return "hidden" in read or _HIDING_STYLE.search(read.get("style", "")) is not None


# What ends a paragraph before its ``</p>`` (HTML, "in body" insertion mode): the opening
# tag of a block, which closes it, or the closing tag of an element holding it.
_BLOCKS = ("address|article|aside|blockquote|center|details|dialog|dir|div|dl|fieldset|figcaption|figure|footer|"
           "form|h[1-6]|header|hgroup|hr|listing|main|menu|nav|ol|p|plaintext|pre|search|section|summary|table|ul|"
           "xmp|li|dd|dt")
_PARAGRAPH_END = re.compile(rf"<(?:/p|(?:{_BLOCKS})|/(?:{_BLOCKS}|td|th|tr|tbody|thead|tfoot|caption|body|html|button))"
                            r"(?=[\s/>])", re.IGNORECASE)


def paragraph_end(text: str, start: int) -> int:
    """Where the paragraph whose content starts at ``start`` ends: after its ``</p>``, or
    where a block opens or an element holding it closes (``<p hidden>x<div>y</div>``
    hides "x" alone), else with the text."""
    found = _PARAGRAPH_END.search(text, start)
    if found is None:
        return len(text)
    if found.group().lower() != "</p":
        return found.start()
    close = text.find(">", found.end())
    return len(text) if close < 0 else close + 1
