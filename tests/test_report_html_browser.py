"""The HTML viewer as a person sees it: opened in headless Chromium.

``chromium --dump-dom`` gives the document once the page's script has drawn it
(``--virtual-time-budget`` lets the runs' files load). For what a person does
(type in a filter), a probe script appended to a copy of the page acts, then
writes what is displayed into an attribute of ``<body>``, which the dump carries.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest

from browser import browse, chromium, dump
from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
HOSTILE = "</script><img src=x onerror=\"document.title='pwned'\">"
PROBE = """<script>
setTimeout(function () {
  function shown(selector) {
    return Array.prototype.filter.call(document.querySelectorAll(selector),
      function (el) { return el.getClientRects().length > 0; });
  }
  function set(id, value) {
    var box = document.getElementById(id);
    box.value = value;
    box.dispatchEvent(new Event("input"));
  }
  function texts(selector) { return shown(selector).map(function (el) { return el.textContent; }); }
  var found = {evals: texts("section.eval h2"), heads: texts("section.eval:first-of-type table.side-by-side th")};
  set("f-status", "failing");
  found.failing = texts("ul.runs li");
  set("f-status", "");
  set("f-config", "with_skill");
  found.with_skill = texts("ul.runs li");
  set("f-config", "");
  set("f-text", "passenger");
  found.rows = texts("td.assertion-text");
  set("f-text", "");
  set("f-eval", "fare");
  found.fare = texts("section.eval h2");
  document.body.setAttribute("data-probe", JSON.stringify(found));
}, 300);
</script>
"""


def _workspace(tmp_path: Path) -> Path:
    """The example, with eval 2's run with the skill broken (its CSV header), graded:
    the skill fails there, so eval 2 is listed first."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    (ws / "benchmark.json").unlink()
    fares = ws / "iteration-1" / "eval-2-fare-export" / "with_skill" / "run-1" / "outputs" / "fares.csv"
    fares.write_text(fares.read_text(encoding="utf-8").replace("flight,price_eur", "flight;price"), encoding="utf-8")
    assert main(["grade", str(ws), "--rules", str(RULES)]) == 1
    return ws


def _viewer(ws: Path, tmp_path: Path, *extra: str) -> Path:
    page = tmp_path / "out" / "report.html"
    page.parent.mkdir(exist_ok=True)
    assert main(["report", str(ws), "-o", str(page), "--primary", "with_skill", *extra]) == 1
    return page


def _run_number(page: Path, folder_end: str) -> int:
    data = re.search(r'<script type="application/json" id="referee-index">(.*?)</script>',
                     page.read_text(encoding="utf-8")).group(1)
    runs = json.loads(data)["runs"]
    return next(n for n, run in enumerate(runs) if run["p"].endswith(folder_end))


def _element(dom: str, element_id: str) -> str:
    """The start tag and content of the element with ``element_id``, up to its row or item end."""
    start = dom.index(f'id="{element_id}"')
    start = dom.rindex("<", 0, start)
    end = min(i for i in (dom.find("</tr>", start), dom.find("</li>", start)) if i > 0)
    return dom[start:end]


def test_a_failing_run_shows_its_prompt_response_timing_evidence_and_cited_lines(tmp_path: Path):
    page = _viewer(_workspace(tmp_path), tmp_path)
    assert sorted(p.name for p in (page.parent / "report_files").iterdir())[:2] == ["data-0.js", "data-1.js"]
    number = _run_number(page, "eval-1-book-flight/without_skill/run-1")
    dom = dump(page, tmp_path, f"#run={number}")
    text = unescape(re.sub(r"<[^>]+>", " ", dom))
    assert "Book the cheapest direct flight from Zurich (ZRH) to Lisbon (LIS)" in text  # the prompt
    assert "Done: flight IB3471 booked for 154.00 EUR, reference IB55TQ." in text  # the response
    assert re.search(r"duration \(s\).*?tokens.*?15\.4.*?7020", text, flags=re.S)  # timing and tokens
    failing = unescape(_element(dom, "a-1#4"))
    assert 'class="assertion fail"' in failing
    assert 'args.flightId is "IB3471" (transcript.md:14), expected "LX2084"' in failing
    assert f'href="#run={number}&amp;line=0:14"' in _element(dom, "a-1#4")  # the evidence links to its line
    cited = unescape(_element(dom, "l-0-14"))
    assert 'class="cited cited-failure"' in cited and 'Args: {"flightId":"IB3471"' in cited
    assert ">1#4<" in cited and ">1#5<" in cited  # and the line links back to the assertions citing it
    assert _element(dom, "l-0-3").startswith('<tr id="l-0-3"><td')  # an uncited line is plain
    assert dom.index('id="a-1#4"') < dom.index('id="a-1#1"')  # failures first


def test_the_evals_come_failures_first_side_by_side_and_the_filters_narrow_them(tmp_path: Path):
    page = _viewer(_workspace(tmp_path), tmp_path)
    probe = page.with_name("probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = dump(probe, tmp_path)
    found = json.loads(unescape(re.search(r'data-probe="([^"]*)"', dom).group(1)))
    assert found["evals"] == ["eval 2 · fare-export", "eval 1 · book-flight"]  # the skill fails in eval 2
    assert found["heads"] == ["assertion", "with_skill", "without_skill"]
    assert len(found["failing"]) == 4 and all(item.startswith("FAIL") for item in found["failing"])
    assert len(found["with_skill"]) == 3
    assert found["rows"] == ['1#5 The passenger name is passed to travel_bookReservation as "Ana Müller"']
    assert found["fare"] == ["eval 2 · fare-export"]


MORE_RUNS = """<script>
setTimeout(function () {
  var column = Array.prototype.filter.call(document.querySelectorAll("section.eval .column"), function (c) {
    return c.closest("section").querySelector("h2").textContent.indexOf("book-flight") >= 0 &&
      c.querySelector("h3").textContent.indexOf("without_skill") === 0;
  })[0];
  var found = {drawn: column.querySelectorAll("li").length, button: column.querySelector("button.more").textContent};
  column.querySelector("button.more").click();
  found.all = column.querySelectorAll("li").length;
  found.left = column.querySelectorAll("button.more").length;
  document.body.setAttribute("data-probe", JSON.stringify(found));
}, 300);
</script>
"""


def test_an_eval_draws_its_first_runs_and_the_rest_on_request(tmp_path: Path):
    """At thousands of runs an eval's column would be thousands of rows drawn at once:
    the first page of runs is drawn (failures first), the rest when asked."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    (ws / "benchmark.json").unlink()
    configuration = ws / "iteration-1" / "eval-1-book-flight" / "without_skill"
    for number in range(3, 31):
        shutil.copytree(configuration / "run-1", configuration / f"run-{number}")
    assert main(["grade", str(ws), "--rules", str(RULES), "--primary", "with_skill"]) == 0
    page = tmp_path / "report.html"
    assert main(["report", str(ws), "-o", str(page), "--primary", "with_skill"]) == 0
    probe = page.with_name("probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", MORE_RUNS + "</body>"), encoding="utf-8")
    found = json.loads(unescape(re.search(r'data-probe="([^"]*)"', dump(probe, tmp_path)).group(1)))
    assert found == {"drawn": 25, "button": "show the other 5 runs", "all": 30, "left": 0}


def test_one_page_or_a_page_with_its_files_show_the_same_run(tmp_path: Path):
    ws = _workspace(tmp_path)
    page = _viewer(ws, tmp_path)
    alone = tmp_path / "alone.html"
    alone.write_text(_stdout_page(ws), encoding="utf-8")
    number = _run_number(page, "eval-1-book-flight/without_skill/run-2")
    views = [re.search(r'<main id="view">.*</main>', dump(p, tmp_path, f"#run={number}"), flags=re.S).group(0)
             for p in (page, alone)]
    assert views[0] == views[1] and "run-body" in views[0]
    assert len(page.read_text(encoding="utf-8")) < len(alone.read_text(encoding="utf-8")) / 2


def _stdout_page(ws: Path) -> str:
    import contextlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["report", str(ws), "-o", "-", "--primary", "with_skill"]) == 1
    return printed.getvalue()


def test_an_imported_run_shows_its_source_lines(tmp_path: Path):
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    shutil.copy(REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl", sessions)
    assert main(["import", "claude-code", str(sessions / "session.jsonl"), "--out", str(tmp_path / "ws")]) == 0
    (tmp_path / "s.rules").write_text('eval "session"\nexpect "books LX9": any calls to '
                                      '"mcp__travel__bookReservation" have .args.flightId == "LX9"\n',
                                      encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "s.rules")]) == 1
    page = tmp_path / "imported.html"
    assert main(["report", str(tmp_path / "ws"), "-o", str(page)]) == 1
    dom = dump(page, tmp_path, "#run=0")
    assert ">session.jsonl:20<" in _element(dom, "a-session#1")  # the evidence names the source's line
    link = re.search(r'href="#run=0&amp;line=(\d+):(\d+)">session.jsonl:20<', dom)
    row = _element(dom, f"l-{link.group(1)}-{link.group(2)}")
    assert 'class="cited cited-failure"' in row and '<td class="source">session.jsonl:20</td>' in row


def test_text_from_a_run_is_shown_inert(tmp_path: Path):
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
    assert "<img" not in (tmp_path / "hostile_files" / "data-0.js").read_text(encoding="utf-8")
    dom = dump(page, tmp_path, "#run=0")
    assert "<img" not in dom  # no element was made from the run's text
    assert "pwned" not in dom.split("</title>", 1)[0]  # and no handler ran
    shown = unescape(re.sub(r"<[^>]+>", "", dom))
    assert 'Args: {"q": "</script><img src=x onerror=\\"document.title=\'pwned\'\\">"}' in shown


SHOT = REPO / "tests" / "fixtures" / "screenshots" / "failing-run.png"
SHOT_SIZE = (800, 600)
TOLERANCE = 0.005  # share of pixels that may differ (anti-aliasing, a font's hinting), each by more than 48 of 255


def test_a_failing_run_looks_as_a_person_approved_it(tmp_path: Path, monkeypatch):
    """A screenshot of one failing run at a fixed size, against the golden image a
    person looked at. After a deliberate change to the page, regenerate it with
    ``REFEREE_UPDATE_GOLDEN=1`` and look at the new image before committing it.

    A shot that differs is taken once more, in a fresh browser profile: the page is
    the same bytes both times, so only the browser can make the two differ, and a
    changed page fails both. The message says where each differs, and the browser."""
    from png_pixels import decode, differing, differing_box

    ws = _workspace(tmp_path)
    monkeypatch.chdir(tmp_path)  # "ws" as given: the page's title does not hold the temporary folder
    (tmp_path / "shot").mkdir()
    assert main(["report", "ws", "-o", "shot/report.html", "--primary", "with_skill"]) == 1
    page = tmp_path / "shot" / "report.html"
    url = page.as_uri() + f"#run={_run_number(page, 'eval-1-book-flight/without_skill/run-1')}"
    golden = None if os.environ.get("REFEREE_UPDATE_GOLDEN") else decode(SHOT.read_bytes())
    seen = []
    for attempt in (1, 2):
        shot = tmp_path / f"shot-{attempt}.png"
        browse(url, tmp_path / f"browser-{attempt}", "--hide-scrollbars", "--force-device-scale-factor=1",
                f"--window-size={SHOT_SIZE[0]},{SHOT_SIZE[1]}", f"--screenshot={shot}")
        taken = decode(shot.read_bytes())
        assert (taken.width, taken.height) == SHOT_SIZE
        if golden is None:
            SHOT.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, SHOT)
            return
        off = differing(taken, golden)
        if off <= TOLERANCE * SHOT_SIZE[0] * SHOT_SIZE[1]:
            return
        seen.append(f"{shot}: {off} pixels differ, within (left, top, right, bottom) {differing_box(taken, golden)}")
    version = subprocess.run([chromium(), "--version"], capture_output=True, text=True).stdout.strip()
    pytest.fail(f"the page differs from {SHOT.name} ({version}); look at the shots, and regenerate "
                "(see this test's docstring) if meant:\n" + "\n".join(seen))


def test_the_pixel_comparison_sees_a_changed_page(tmp_path: Path):
    from png_pixels import decode, differing, differing_box

    golden = decode(SHOT.read_bytes())
    rows = list(golden.rows)
    stride = golden.width * golden.channels
    for y in range(100, 200):  # a band of the image painted over
        rows[y] = bytes(255 - b for b in rows[y][:stride])
    changed = type(golden)(golden.width, golden.height, golden.channels, tuple(rows))
    assert differing(golden, golden) == 0
    assert differing(golden, changed) > TOLERANCE * golden.width * golden.height
    assert differing_box(golden, golden) is None
    assert differing_box(golden, changed)[1::2] == (100, 199)  # its top and bottom rows
