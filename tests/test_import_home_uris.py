"""A home folder inside a file URI (as editors and language servers name files) is
scrubbed like the path it names."""

from __future__ import annotations

from referee.engine.run.importers.homes import scrub_homes


def test_a_file_uri_in_a_home_folder_is_scrubbed():
    assert scrub_homes('"uri": "file:///home/ann/app.py"') == '"uri": "file://<home>/app.py"'
    assert scrub_homes("open file:///Users/ann/app.py") == "open file://<home>/app.py"
    assert scrub_homes("open FILE:///c:/users/ann/app.py") == "open FILE:///<home>/app.py"


def test_a_relative_path_that_holds_home_is_kept():
    assert scrub_homes("see a/home/x and profile:/home") == "see a/home/x and profile:/home"
    assert scrub_homes("https://example.com/home/ann") == "https://example.com/home/ann"
