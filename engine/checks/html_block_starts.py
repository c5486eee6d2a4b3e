"""Where a Markdown line opens an HTML block that a blank line ends (CommonMark 0.31,
HTML blocks, start conditions 6 and 7): a block element's tag (``<details>``,
``<div>``, ``</table>`` ...), which may end a paragraph, or any other complete tag
alone on its line (``<span class="x">``), which may not.

The lines of such a block, to the next blank line, are passed to the browser as
written: a fence or an indented line there is no code block, whatever it holds, and a
backslash is shown as written. ``<pre>``, ``<script>``, ``<style>`` and ``<textarea>``
open blocks of their own (start condition 1, ``markdown_lines``)."""

from __future__ import annotations

import re

BLOCK_NAMES = ("address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
               "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|"
               "hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|"
               "search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul")
_BLOCK_TAG = re.compile(rf"</?(?i:{BLOCK_NAMES})(?=[ \t]|/?>|\Z)")
_ATTRIBUTE = r"""[ \t]++[A-Za-z_:][A-Za-z0-9_.:-]*+(?:[ \t]*+=[ \t]*+(?:[^ \t"'=<>`]++|'[^']*+'|"[^"]*+"))?+"""
# A complete open or closing tag of any other name, alone on its line; the raw elements
# are start condition 1, not 7.
_LONE_TAG = re.compile(rf"(?!</?(?i:pre|script|style|textarea)(?=[ \t/>]|\Z))"
                       rf"(?:<[A-Za-z][A-Za-z0-9-]*+(?:{_ATTRIBUTE})*+[ \t]*+/?>|</[A-Za-z][A-Za-z0-9-]*+[ \t]*+>)"
                       r"[ \t]*+\Z")


def opens_html_block(text: str, at: int, after_paragraph: bool) -> bool:
    """Whether ``text``, read from ``at`` (past its indentation and any markers), opens an
    HTML block a blank line ends; ``after_paragraph``: the line before is a paragraph's,
    which only a block element's tag ends."""
    return _BLOCK_TAG.match(text, at) is not None or (not after_paragraph and _LONE_TAG.match(text, at) is not None)
