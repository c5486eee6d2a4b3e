"""The HTML viewer at scale: the page's size, and how fast it opens, at 10,000 runs.

Generates N runs shaped as real sessions (``bench_grade.generate``: transcripts of
about 50 KB, 40 calls, 20 assertions per eval; default 10,000 runs), grades them
(``referee grade --jobs 2``, not timed), then measures, in the same run:

- writing: ``referee report --format html`` (the page and its runs' files) against
  ``referee report --format junit`` of the same grades (the same reading, a plain
  format), wall and CPU seconds and their ratio;
- size: the page alone (what a browser loads to open the report) and the folder
  of runs' files (loaded one run at a time), against the grades it shows;
- opening, in headless Chromium: the time from navigation to the list of evals
  drawn (``performance.now()`` read by a probe after the page's script), and to an
  opened run drawn (``report.html#run=K``, its file loaded); and the whole browser
  process against the same browser opening an empty page (the ratio is what the
  page adds to opening a page at all).

Run by hand, never by the tests:

    python benchmarks/bench_report_html.py                 # 10,000 runs
    python benchmarks/bench_report_html.py --runs 2000 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

PROBE = """<script>
document.body.setAttribute("data-first-draw", performance.now().toFixed(1));
new MutationObserver(function () {
  if (document.querySelector(".run-body") && !document.body.hasAttribute("data-run-drawn")) {
    document.body.setAttribute("data-run-drawn", performance.now().toFixed(1));
  }
}).observe(document.getElementById("view"), {childList: true, subtree: true, attributes: true});
</script>
"""


def referee(*args: str) -> tuple[float, float]:
    """Run ``referee ARGS``: (wall s, CPU s of the child)."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"referee {' '.join(args[:3])} failed: {done.stderr[-2000:]}")
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def chromium(url: str, profile: Path) -> tuple[float, str]:
    """Open ``url`` headless and dump the document once it has loaded: (wall s, DOM)."""
    start = time.perf_counter()
    done = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           f"--user-data-dir={profile}", "--dump-dom", url],
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start, done.stdout


def size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from bench_grade import generate

    root = Path(tempfile.mkdtemp(prefix="referee-bench-html-"))
    try:
        workspace, rules = generate(root, args.runs)
        print(f"{args.runs} runs under {workspace} ({size(workspace) / 2**20:.0f} MiB); grading ...", flush=True)
        referee("grade", str(workspace), "--rules", str(rules), "--jobs", "2")
        measure(root, workspace, args)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure(root: Path, workspace: Path, args: argparse.Namespace) -> None:
    page, junit = root / "out" / "report.html", root / "out" / "junit.xml"
    page.parent.mkdir()
    html_times, junit_times = [], []
    for _ in range(args.repeat):  # interleaved, so both meet the same load
        html_times.append(referee("report", str(workspace), "-o", str(page)))
        junit_times.append(referee("report", str(workspace), "--format", "junit", "-o", str(junit)))
    grades = sum(p.stat().st_size for p in workspace.rglob("grading.json"))
    html_wall, html_cpu = (statistics.median(t[n] for t in html_times) for n in (0, 1))
    junit_wall, junit_cpu = (statistics.median(t[n] for t in junit_times) for n in (0, 1))
    print(f"write html: {html_wall:.1f} s wall, {html_cpu:.1f} s CPU; junit: {junit_wall:.1f} s wall, "
          f"{junit_cpu:.1f} s CPU; html/junit CPU {html_cpu / junit_cpu:.2f}x")
    print(f"page: {size(page) / 2**20:.2f} MiB ({size(page) / args.runs:.0f} bytes a run); runs' files: "
          f"{size(page.with_name('report_files')) / 2**20:.0f} MiB; grading.json files: {grades / 2**20:.0f} MiB")
    probe = page.with_name("probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    blank = page.with_name("blank.html")
    blank.write_text("<!DOCTYPE html><html><body>" + PROBE.replace('document.getElementById("view")', "document.body")
                     + "</body></html>", encoding="utf-8")
    opened, empty = [], []
    for n in range(args.repeat):
        empty.append(chromium(blank.as_uri(), root / f"profile-b{n}"))
        opened.append(chromium(probe.as_uri() + f"#run={args.runs // 2}", root / f"profile-r{n}"))
        opened.append(chromium(probe.as_uri(), root / f"profile-l{n}"))
    lists = [_number(dom, "data-first-draw") for _, dom in opened[1::2]]
    runs = [_number(dom, "data-run-drawn") for _, dom in opened[0::2]]
    print(f"opened in Chromium: the evals drawn at {statistics.median(lists):.0f} ms from navigation "
          f"(best {min(lists):.0f}); a run drawn at {statistics.median(runs):.0f} ms (its file loaded)")
    page_wall = statistics.median(w for w, _ in opened[1::2])
    blank_wall = statistics.median(w for w, _ in empty)
    print(f"browser process: page {page_wall:.2f} s, empty page {blank_wall:.2f} s: {page_wall / blank_wall:.2f}x")


def _number(dom: str, attribute: str) -> float:
    found = re.search(rf'{attribute}="([0-9.]+)"', dom)
    if found is None:
        raise SystemExit(f"the probe did not report {attribute}: {dom[:500]}")
    return float(found.group(1))


if __name__ == "__main__":
    main()
