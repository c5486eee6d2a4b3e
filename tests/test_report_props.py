"""Properties of the report formats: whatever text a run holds, it stays text."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from hypothesis import given, strategies as st

from conftest import REPO
from referee.engine.report.collect import Collection, GradedRun
from referee.engine.report.github import render_github
from referee.engine.report.html import render_html
from referee.engine.report.inert import visible
from referee.engine.report.junit import render_junit
from referee.engine.report.models import GradingReport

RUN = REPO / "examples/booking-skill-workspace/iteration-1/eval-1-book-flight/without_skill/run-1/grading.json"
BASE = json.loads(RUN.read_text(encoding="utf-8"))


def _collection(text: str) -> Collection:
    document = json.loads(json.dumps(BASE))
    failed = document["expectations"][3]
    failed["text"], failed["evidence"], failed["check"] = text, text, "check: " + text
    report = GradingReport.model_validate(document)
    return Collection("ws", (GradedRun("ws/run-1", report, (("outputs/transcript.md", 14, text),)),))


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)


def _tags(page: str) -> list[str]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


PLAIN = _tags(render_html(_collection("plain")))


@given(st.text())
def test_html_makes_no_element_from_run_text(text):
    assert _tags(render_html(_collection(text))) == PLAIN


@given(st.text())
def test_junit_is_well_formed_and_keeps_the_text(text):
    root = ET.fromstring(render_junit(_collection(text)).encode("utf-8"))
    failure = root.find(".//failure")
    legal = all(ch in "\t\n\r" or (" " <= ch <= "\ud7ff") or ("\ue000" <= ch <= "\ufffd")
                or ch >= "\U00010000" for ch in text)
    if legal:  # kept as a page shows it: bidi controls and invisible characters as escapes
        assert failure.get("message") == visible(text)


@given(st.text())
def test_github_commands_stay_one_per_line(text):
    lines = render_github(_collection(text)).split("\n")  # the runner reads LF-ended lines
    assert lines[-1] == "" and all(line.startswith("::") for line in lines[:-1])
