"""``--shard I/N`` takes ASCII digits: a superscript or another script's digits gave
Python's own 'invalid literal for int()' message, or were taken as another number."""

from __future__ import annotations

import pytest

from referee.engine.cli import main
from referee.engine.shards.part import Shard, parse_shard


@pytest.mark.parametrize("text", ["²/3", "1/³", "٣/٥", "１/２"])
def test_digits_other_than_ascii_are_refused_with_the_usual_message(text):
    with pytest.raises(ValueError, match=r"expected i/n, such as 2/8"):
        parse_shard(text)


def test_the_flag_names_itself(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["grade", str(tmp_path), "--rules", "x.rules", "--shard", "²/3"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --shard: expected i/n" in err and "int()" not in err


def test_ascii_digits_with_spaces_and_leading_zeros_are_taken():
    assert parse_shard(" 01 / 03 ") == Shard(1, 3)
