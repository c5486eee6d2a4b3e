"""``referee report --format html``: a viewer of the graded runs, with no network.

The page holds, as HTML, the decision, the configuration and benchmark tables and
the problems; and, as data, the index of every run (``engine.report.viewer_data``).
Its script draws, from the index, each eval with its hints, its assertions against
its runs with the configurations side by side, failures first, and a filter by
eval, configuration, status and assertion text; a run opened
(``report.html#run=N``) shows its prompt, response, timing and tokens, its
assertions with their evidence, and the transcript and cited files line by line,
every cited line highlighted and each piece of evidence a link to its line.

Two forms, one page: ``html_bundle`` keeps each run's data in a file of its own
beside the page (``report_files/data-N.js``), loaded when the run is opened, so a
page over 10,000 runs stays small and opens at once; ``render_html`` puts every
run's data in the page itself (one file, for standard output or a few runs).
Either is self-contained: no external link, font, script or image.

Safety: text is HTML-escaped where the page writes it (``_e``), and every bidi
control and invisible character in it, there and in the data, shown as an escape
(``\\u202e``: ``engine.report.inert.visible``), so no text of a run reads
reversed or hides other text; data stands in
``<script type="application/json">`` elements and run files with every ``<``,
``>`` and ``&`` written as a JSON escape, so no text of a run can end the element;
the script puts text into the page with ``textContent`` only, never as markup.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Iterator

from referee.dsl.frozen import frozen
from referee.engine.report.collect import Collection, GradedRun
from referee.engine.report.html_assets import STYLE
from referee.engine.report.inert import log_safe, visible, visible_data
from referee.engine.report.stdout import log_safe_json
from referee.engine.report.tables import (CONFIG_HEAD, benchmark_rows, config_cells, context_lines, decision_line,
                                         release_reasons)
from referee.engine.report.viewer_data import index, run_data
from referee.engine.report.viewer_script import SCRIPT


def _e(text: object) -> str:
    # Character references for "[" of "##[" and ":" of a line's "::": a page printed
    # (-o -) may be a CI log, whose runner would read a workflow command there.
    return log_safe(escape(visible(str(text)), quote=True), "&#91;", "&#58;")


def _json(value: Any) -> str:
    """JSON that cannot end a script element, nor be read as markup inside one; nor,
    in a run file run as a script (``referee.load(N, ...)``), hold U+2028 or U+2029
    raw: a string literal holding one is a syntax error before ES2019."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    text = log_safe_json(text)  # a page printed (-o -) may be a CI log: "##[" starts a command there
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _run_json(run: GradedRun) -> str:
    """The run's data, as the viewer shows it: every string ``visible``."""
    return _json(visible_data(run_data(run)))


@frozen
class Bundle:
    """The page, and its runs' files in the folder ``folder`` beside it."""

    page: str
    folder: str
    collection: Collection

    def files(self) -> Iterator[tuple[str, str]]:
        """``(name in the folder, text)`` of each run, made as it is asked for."""
        for number, run in enumerate(self.collection.runs):
            yield f"data-{number}.js", f"referee.load({number},{_run_json(run)});\n"


def html_bundle(collection: Collection, folder: str) -> Bundle:
    """The page and its run files (in ``folder``, named relative to the page)."""
    return Bundle(_page(collection, folder, ""), folder, collection)


def render_html(collection: Collection) -> str:
    """One page holding every run's data."""
    inline = "".join(f'<script type="application/json" id="referee-run-{n}">{_run_json(run)}</script>\n'
                     for n, run in enumerate(collection.runs))
    return _page(collection, None, inline)


def _page(collection: Collection, folder: str | None, inline: str) -> str:
    title = f"referee report: {collection.root}"
    data = {**visible_data(index(collection)), "files": folder}  # the folder is loaded, not shown
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
             f'<header><h1><a href="#">{_e(title)}</a></h1></header>']
    parts += _top(collection)
    parts += [_filters(collection), '<main id="view"><noscript>The runs are drawn by the page\'s script; '
              "allow scripts for this file to see them.</noscript></main>",
              f'<script type="application/json" id="referee-index">{_json(data)}</script>',
              inline + f"<script>{SCRIPT}</script>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _top(collection: Collection) -> list[str]:
    decision = collection.decision
    css = "pass" if decision == "PASS" else "fail" if decision == "FAIL" else "conditional"
    out = [f'<section id="decision" class="decision {css}">',
           f'<p class="verdict">Decision: <strong>{_e(decision)}</strong></p>',
           f"<p>{_e(decision_line(collection))}</p>"]
    out += [f'<p class="context">{_e(line)}</p>' for line in context_lines(collection)]
    reasons = release_reasons(collection)
    if reasons:
        out.append('<ul class="release">' + "".join(f"<li>{_e(r)}</li>" for r in reasons) + "</ul>")
    out += ["</section>", '<details class="tables"><summary>Configurations and benchmark</summary>']
    out += _table(CONFIG_HEAD, [config_cells(r) for r in collection.configurations()], "configs")
    bench = benchmark_rows(collection.benchmark)
    if bench:
        out += _table(bench[0], bench[1:], "benchmark")
    out.append("</details>")
    if collection.problems:
        out += ['<details class="problems"><summary>Problems '
                f"({len(collection.problems)})</summary><ul>"]
        out += [f"<li>{_e(p)}</li>" for p in collection.problems]
        out.append("</ul></details>")
    return out


def _table(head: list[str], rows: list[list[str]], css: str) -> list[str]:
    out = [f'<table class="{css}"><thead><tr>' + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr></thead>",
           "<tbody>"]
    out += ["<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows]
    out.append("</tbody></table>")
    return out


def _filters(collection: Collection) -> str:
    configs = "".join(f'<option value="{_e(row.name)}">{_e(row.name)}</option>'
                      for row in collection.configurations())
    return ('<nav id="filters">'
            '<label>eval <input id="f-eval" type="search" placeholder="id or name"></label> '
            f'<label>configuration <select id="f-config"><option value="">all</option>{configs}</select></label> '
            '<label>status <select id="f-status"><option value="">all</option>'
            '<option value="failing">not passed</option><option value="passing">passed</option></select></label> '
            '<label>assertion <input id="f-text" type="search" placeholder="words of an assertion"></label> '
            '<span id="f-count"></span></nav>')
