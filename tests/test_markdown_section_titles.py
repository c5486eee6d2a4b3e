"""``section(x, title)`` over a Markdown text whose heading shows the title only as its
reader sees it rendered (``## Q&amp;A`` shows "Q&A", ``## Sum*m*ary`` shows "Summary"):
which section is meant cannot be decided, an ERROR naming the heading and its line, as
for a title with invisible characters. A heading equal as written, or one no reader
sees as the title, decides it as before."""

from __future__ import annotations

import pytest

from test_markdown_as_seen import _response, _verdict


@pytest.mark.parametrize("title, heading", [("Q&A", "Q&amp;A"), ("Summary", "Sum*m*ary"), ("Summary", "Sum&#109;ary"),
                                            ("rm -rf", "rm \\-rf"), ("Summary", "Sum<b>m</b>ary")])
def test_a_title_only_as_shown_is_undecided(title: str, heading: str):
    found = _response(f'section(response, "{title}") contains "x"', f"# Report\n\n## {heading}\n\nx\n")
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found
    assert "at response.md:3" in found, found


def test_an_earlier_heading_titled_so_as_shown_is_undecided():
    text = "# Report\n\n## Sum*m*ary\n\nold\n\n## Summary\n\nx\n"
    found = _response('section(response, "Summary") contains "x"', text)
    assert found.startswith("error: ") and "(\"Sum*m*ary\" at response.md:3)" in found, found


def test_an_underlined_heading():
    found = _response('section(response, "Q&A") contains "x"', "Q&amp;A\n===\n\nx\n")
    assert found.startswith("error: ") and "at response.md:1" in found, found


@pytest.mark.parametrize("title, text", [("Summary", "## **Summary**\n\nx\n"), ("Q&amp;A", "## Q&amp;A\n\nx\n"),
                                         ("Summary", "## Summary\n\nx\n\n## Other *words*\n"),
                                         ("Q&A", "## `Q&amp;A`\n\n## Q&A\n\nx\n")])
def test_a_title_equal_as_written_or_no_other_as_shown_is_decided(title: str, text: str):
    assert _response(f'section(response, "{title}") contains "x"', text).startswith("pass")


def test_a_plain_text_file_is_read_as_written():
    found = _verdict('section(file "notes.txt", "Q&A") contains "x"', {"outputs/notes.txt": "## Q&amp;A\n\nx\n"})
    assert found.startswith("fail"), found
