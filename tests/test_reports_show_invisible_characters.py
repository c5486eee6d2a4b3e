"""A bidi control (U+202A to U+202E, U+2066 to U+2069) or an invisible format
character (a zero-width space, a tag character) in a name or in evidence is shown
as an escape in the reports people read, the HTML viewer, the Markdown summary and
benchmark.md, so the page cannot say something other than what the data says:
"\u202eLIAF" in a name displays as "FAIL" reversed, "LX\u200b2084" looks like "LX2084"."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO
from named_example import benchmark_md, named_example, summary_md
from referee.engine.cli import main
from referee.engine.report.inert import visible

BASELINE = "without\u2066_skill\u2069"
HIDDEN = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
          "\u200b", "\u2060", "\ufeff", "\U000e0041")


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    """The example with the baseline named with isolates, eval 1 named with an override,
    an assertion's sentence holding a zero-width space and a tag character, and a
    booking call of the baseline whose flight id (quoted in the evidence) holds an
    override."""
    def hide_in_the_flight_id(ws: Path) -> None:
        transcript = ws / "iteration-1" / "eval-1-book-flight" / BASELINE / "run-1" / "outputs" / "transcript.md"
        text = transcript.read_text(encoding="utf-8")
        assert '"IB3471"' in text
        transcript.write_text(text.replace('"IB3471"', '"IB\u202e3471\u202c\u2060"'), encoding="utf-8")

    return named_example(tmp_path, BASELINE, "book \u202eLIAF", "The booked flight is LX\u200b2084\U000e0041\ufeff",
                         hide_in_the_flight_id)


def _hidden(text: str) -> list[str]:
    return [hex(ord(c)) for c in HIDDEN if c in text]


def test_the_html_report_shows_each_hidden_character(tmp_path, capsys):
    ws, _ = _workspace(tmp_path)
    out = tmp_path / "report.html"
    assert main(["report", str(ws), "--format", "html", "-o", str(out), "--primary", BASELINE]) in (0, 1, 3)
    page = out.read_text(encoding="utf-8") + "".join(
        p.read_text(encoding="utf-8") for p in sorted((tmp_path / "report_files").glob("*.js")))
    assert _hidden(page) == []
    assert "without\\\\u2066_skill\\\\u2069" in page  # in the index's data, a JSON string
    assert "without\\u2066_skill\\u2069" in page.replace("\\\\", "\\")
    assert "IB\\\\u202e3471\\\\u202c\\\\u2060" in page  # the transcript line and the evidence


def test_the_markdown_summary_shows_each_hidden_character(tmp_path, capsys):
    ws, _ = _workspace(tmp_path)
    text = summary_md(tmp_path, ws, BASELINE)
    assert _hidden(text) == []
    assert "LX\\u200b2084\\U000e0041\\ufeff" in text  # the failure's <summary> line
    assert "IB\\u202e3471\\u202c\\u2060" in text  # the fenced evidence


def test_benchmark_md_shows_each_hidden_character(tmp_path, capsys):
    ws, evals = _workspace(tmp_path)
    text = benchmark_md(tmp_path, ws, BASELINE)
    assert _hidden(text) == []
    assert "book \\\\u202eLIAF" in text  # a cell: the escape's backslash escaped for Markdown


def test_joiners_that_shape_words_are_kept():
    # U+200C and U+200D join or part letters (Persian, Indic scripts, emoji): kept as they are.
    for text in ("می\u200cخواهم", "\U0001f469\u200d\U0001f4bb"):
        assert visible(text) == text
    assert visible("a\u202eb\tc\nd") == "a\\u202eb\tc\nd"


def test_github_annotations_show_each_hidden_character(tmp_path, capsys):
    # Annotations are shown on GitHub's pages: "LX\u200b2084" in a title read as "LX2084".
    ws, _ = _workspace(tmp_path)
    capsys.readouterr()
    main(["report", str(ws), "--format", "github", "-o", "-", "--primary", BASELINE])
    out = capsys.readouterr().out
    assert _hidden(out) == []
    assert "LX\\u200b2084\\U000e0041\\ufeff" in out


def test_the_junit_report_shows_each_hidden_character(tmp_path, capsys):
    # CI servers show the JUnit file on their pages (GitLab's and Jenkins's test reports,
    # GitHub through a test-report action): the names, the message and the evidence held
    # the overrides and the zero-width space as they were.
    import xml.etree.ElementTree as ET

    ws, _ = _workspace(tmp_path)
    out = tmp_path / "junit.xml"
    assert main(["report", str(ws), "--format", "junit", "-o", str(out), "--primary", BASELINE]) in (0, 1, 3)
    root = ET.parse(out).getroot()
    read = [t for el in root.iter() for t in (el.text or "", *el.attrib.values())]
    assert _hidden("\n".join(read)) == []
    assert any("LX\\u200b2084\\U000e0041\\ufeff" in t for t in read)
    assert any("IB\\u202e3471\\u202c\\u2060" in t for t in read)
    assert any("without\\u2066_skill\\u2069" in t for t in read)


def test_the_console_shows_each_hidden_character(tmp_path, capsys):
    # grade's summary goes to a terminal or a CI log, which GitHub shows on a page: the
    # zero-width space, word joiner and byte order mark of the sentence and the flight id
    # were printed as they were (bidi controls were escaped already).
    ws, evals = _workspace(tmp_path)
    capsys.readouterr()
    main(["grade", str(ws), "--rules", str(REPO / "examples" / "booking-skill" / "booking.rules"),
          "--evals", str(evals), "--verbose", "--color", "never"])
    out = capsys.readouterr().out
    assert _hidden(out) == []
    assert "LX\\u200b2084\\U000e0041\\ufeff" in out and "IB\\u202e3471\\u202c\\u2060" in out
    main(["show", str(ws)])
    assert _hidden(capsys.readouterr().out) == []
