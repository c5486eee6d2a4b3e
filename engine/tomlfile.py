"""TOML read as referee's settings files read it (``--release-config``, ``--rubric``,
``--patterns``): one error for every way the text is no TOML document, so each
reader names its file and adds nothing of tomllib's own exceptions."""

from __future__ import annotations

import tomllib


class NotToml(ValueError):
    """Text that is no TOML document; ``str`` says why ("not valid TOML: ...")."""


def toml_table(text: str) -> dict:
    """The document ``text`` holds; ``NotToml`` when it holds none."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise NotToml(f"not valid TOML: {exc}") from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise NotToml("not valid TOML: nested too deeply") from None
