"""The HTML viewer loads a run's data from its folder beside the page, by a URL
relative to the page (``report#42_files/data-0.js`` for ``report#42.html``). A page
name is the user's (``-o``), and may hold characters a URL reads as its own
(``#`` starts a fragment, ``?`` a query): the folder's name goes into the URL
percent-encoded, so its runs load whatever the page is called. Opened in headless
Chromium, as ``test_report_html_browser`` does."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from browser import dump
from referee.engine.cli import main


@pytest.mark.parametrize("name", ["report#42.html", "report?v=1.html", "100%.html"])
def test_a_page_named_with_url_characters_loads_its_runs(tmp_path: Path, name: str):
    # Input: `report WS -o "report#42.html"` (or with "?" or "%"), its runs' files in
    # "report#42_files/"; opening a run asked for "report#42_files/data-0.js" unencoded,
    # which the browser reads as the file "report" and a fragment, and the page said
    # "could not be read: keep the folder report#42_files beside the page".
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("the answer is 42\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "answers": response contains "42"\n', encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(rules)])
    page = tmp_path / "out" / name
    page.parent.mkdir()
    assert main(["report", str(tmp_path / "ws"), "-o", str(page)]) == 0
    assert (page.parent / name.replace(".html", "_files") / "data-0.js").is_file()
    dom = dump(page, tmp_path, "#run=0")
    view = dom[dom.index('<main id="view"'):dom.index("</main>")]  # what the script drew
    text = unescape(re.sub(r"<[^>]+>", " ", view))
    assert "could not be read" not in text
    assert "the answer is 42" in text and "Assertions (failures first)" in text
