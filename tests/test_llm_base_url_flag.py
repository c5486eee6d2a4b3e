"""``--llm-base-url`` with a port that is no port (``:99999``, ``:abc``) or with a user
and password in it was taken, and every semantic assertion of every run became an
ERROR after three attempts each ('cannot reach the grader', 'malformed (InvalidURL)'):
the connection can never be made, so it is a usage error naming the flag, before any
run is graded."""

from __future__ import annotations

import pytest

from referee.llm_adapter import make_judge


@pytest.mark.parametrize("url, problem", [
    ("http://127.0.0.1:99999/v1", "port"),
    ("http://127.0.0.1:abc/v1", "port"),
    ("http://127.0.0.1:/v1", None),  # an empty port is the scheme's default
    ("http://user:secret@127.0.0.1:9/v1", "user"),
    ("http://user@127.0.0.1:9/v1", "user"),
])
def test_a_url_no_connection_can_be_made_to_is_refused(url, problem):
    if problem is None:
        assert make_judge("openai:m", base_url=url).backend.base_url == url
        return
    with pytest.raises(ValueError, match=r"--llm-base-url") as refused:
        make_judge("openai:m", base_url=url)
    assert problem in str(refused.value) and "secret" not in str(refused.value)


def test_a_usual_local_url_is_taken():
    assert make_judge("openai:m", base_url="http://localhost:11434/v1").backend.base_url.endswith(":11434/v1")
