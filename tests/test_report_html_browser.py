"""The HTML report as a person sees it: opened in headless Chromium.

``chromium --dump-dom`` gives the document after the page (and, for the
filter, a probe script appended to a copy of it) has run. The probe clicks the
"failures only" box as a person would and writes what is then displayed into
an attribute of ``<body>``, which the dump carries out.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.report.collect import collect
from referee.engine.report.html import render_html

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
HOSTILE = "</script><img src=x onerror=\"document.title='pwned'\">"
PROBE = """<script>
function shown(selector) {
  return Array.prototype.filter.call(document.querySelectorAll(selector),
    function (el) { return el.getClientRects().length > 0; }).length;
}
function count() {
  return {pass: shown("li.assertion.pass"), fail: shown("li.assertion.fail"),
          not_graded: shown("li.assertion.not_graded")};
}
var before = count();
document.getElementById("only-failures").click();
document.body.setAttribute("data-probe", JSON.stringify({before: before, after: count()}));
</script>
"""


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium on PATH (Debian: apt-get install chromium); the browser test did not run")


def _dump(page: Path, tmp_path: Path) -> str:
    done = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=2000", "--dump-dom",
         page.as_uri()],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _example_page(tmp_path: Path) -> Path:
    page = tmp_path / "report.html"
    page.write_text(render_html(collect(EXAMPLE)), encoding="utf-8")
    return page


def _item(dom: str, key: str, run: str) -> str:
    """The HTML of assertion ``key`` inside the run whose summary names ``run``."""
    block = dom.split(run + " ·", 1)[1].split("</details>", 1)[0]
    return block.split(f'data-key="{key}"', 1)[1].split("</li>", 1)[0]


def test_a_person_sees_the_decision_and_a_failure_with_its_evidence_and_line(tmp_path: Path):
    dom = _dump(_example_page(tmp_path), tmp_path)
    text = unescape(re.sub(r"<[^>]+>", " ", dom))
    release = json.loads((EXAMPLE / "benchmark.json").read_text(encoding="utf-8"))["release"]["decision"]
    assert re.search(r"Decision:\s+" + re.escape(release), text)  # the aggregate's release decision
    assert "with_skill: gated pass rate" in text  # and the rules behind it
    item = unescape(_item(dom, "1#4", "eval-1-book-flight/without_skill/run-1"))
    assert "FAIL" in item
    assert 'args.flightId is "IB3471" (transcript.md:14), expected "LX2084"' in item
    assert re.search(r"outputs/transcript\.md</td><td[^>]*>14</td>", item)
    assert 'Args: {"flightId":"IB3471"' in item


def test_the_failures_filter_hides_passes_and_not_graded_items(tmp_path: Path):
    page = _example_page(tmp_path)
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = _dump(page, tmp_path)
    probe = json.loads(unescape(re.search(r'data-probe="([^"]*)"', dom).group(1)))
    assert probe["before"]["pass"] > 0 and probe["before"]["not_graded"] > 0
    assert probe["after"] == {"pass": 0, "fail": 10, "not_graded": 0}
    assert probe["before"]["fail"] == 10


def test_text_from_a_run_is_shown_inert(tmp_path: Path):
    from referee.engine.cli import main

    run = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text(f"Done {HOSTILE}\n", encoding="utf-8")
    (run / "outputs" / "transcript.md").write_text(
        f"## [tool_calls] Step 1: search\nTool: search\nArgs: {json.dumps({'q': HOSTILE})}\n"
        'Return: {"ok": true}\nStatus: success\n', encoding="utf-8")
    rules = tmp_path / "x.rules"
    rules.write_text('eval 1 "x"\nexpect "searches for cats": any calls to "search" have .args.q == "cats"\n',
                     encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    page = tmp_path / "hostile.html"
    assert main(["report", str(tmp_path / "ws"), "-o", str(page)]) == 1
    dom = _dump(page, tmp_path)
    assert "<img" not in dom  # no element was made from the run's text
    assert "pwned" not in dom.split("</title>", 1)[0]  # and no handler ran
    shown = unescape(re.sub(r"<[^>]+>", "", dom))
    assert 'Args: {"q": "</script><img src=x onerror=\\"document.title=\'pwned\'\\">"}' in shown
