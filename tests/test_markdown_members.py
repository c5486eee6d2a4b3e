"""``in`` and a list's ``contains`` over items read from Markdown (the lines, parts,
quotes or headings of ``response.md``): an item a reader sees as the value looked for
(``**Done**`` shows "Done") is neither the value nor another, so whether the list holds
it cannot be decided; an ERROR naming the markup and its line, as for ``==``."""

from __future__ import annotations

import pytest

from test_markdown_as_seen import _response, _verdict

STATUS = "# Report\n\n**Done**\n"


@pytest.mark.parametrize("check", ['"Done" in lines(response)', 'not ("Done" in lines(response))',
                                   '"Done" not in lines(response)', 'lines(response) contains "Done"',
                                   'not (lines(response) contains "Done")', '"done" in lines(response) ignoring case'])
def test_an_item_equal_only_as_shown_is_undecided(check: str):
    found = _response(check, STATUS)
    assert found.startswith("error: ") and "equal only as Markdown is shown" in found, found
    assert '"**", at response.md:3' in found, found


def test_headings_parts_and_quotes():
    assert _response('"Summary" in headings(response)', "# R\n\n## Sum*m*ary\n").startswith("error: ")
    assert _response('"Q&A" in parts(response)', "Intro\n\n---\n\nQ&amp;A\n").startswith("error: ")
    assert _response('"rm -rf" in quotes(response)', "> rm \\-rf\n").startswith("error: ")


def test_a_markdown_value_in_a_plain_list_is_undecided():
    found = _response('trim(section(response, "Status")) in ["Done", "Failed"]', "## Status\n\n**Done**\n")
    assert found.startswith("error: ") and "equal only as Markdown is shown" in found, found


def test_equal_as_written_or_different_as_shown_is_decided():
    assert _response('"**Done**" in lines(response)', STATUS).startswith("pass")
    assert _response('"Failed" in lines(response)', STATUS).startswith("fail")
    assert _response('not ("Failed" in lines(response))', STATUS).startswith("pass")
    # an item equal as written decides it, whatever another item shows
    assert _response('"Done" in lines(response)', "**Done**\nDone\n").startswith("pass")
    assert _response('lines(response) contains "Done"', "**Done**\nDone\n").startswith("pass")


def test_a_plain_text_file_is_read_as_written():
    found = _verdict('"Done" in lines(file "notes.txt")', {"outputs/notes.txt": STATUS})
    assert found.startswith("fail"), found
