"""A run folder whose name has accents can be spelled two ways in Unicode (composed,
NFC, as Linux and Windows usually write it; decomposed, NFD, as macOS file systems
may give it back). Paths that look the same but are spelled another way are not the
same path: the merge refuses, and says why, instead of listing a path as not in the
workspace next to the same-looking path as in it."""

from __future__ import annotations

import os
import unicodedata

from sharded import RULE_ARGS, fresh, grade_shard

from referee.engine.cli import main

NFC = unicodedata.normalize("NFC", "eval-1-café")
NFD = unicodedata.normalize("NFD", NFC)


def test_a_run_path_spelled_in_another_unicode_form_is_named_as_such(tmp_path, capsys):
    ws = fresh(tmp_path)
    os.rename(ws / "iteration-1" / "eval-1-book-flight", ws / "iteration-1" / NFC)
    assert grade_shard(ws, 1, 1) == 0
    os.rename(ws / "iteration-1" / NFC, ws / "iteration-1" / NFD)  # copied through macOS
    capsys.readouterr()
    assert main(["merge", str(ws), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert "Unicode" in err and "NFD" in err and "NFC" in err
    assert "Traceback" not in err
