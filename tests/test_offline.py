"""No test touches the network: the suite refuses a connection to an address outside
this machine and its private networks, before anything is sent (tests/offline.py)."""

from __future__ import annotations

import socket
import urllib.request

import pytest


@pytest.mark.parametrize("address", [("8.8.8.8", 53), ("2001:4860:4860::8888", 443, 0, 0), ("example.com", 80)])
def test_a_connection_out_of_the_machine_fails(address):
    family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
    try:
        sock = socket.socket(family, socket.SOCK_STREAM)
    except OSError:  # a kernel built without IPv6
        pytest.skip("this machine makes no socket of that family")
    with sock, pytest.raises(OSError, match="no test touches"):
        sock.connect(address)


def test_a_request_to_a_provider_fails_before_it_is_sent():
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy a CI may name
    with pytest.raises(OSError, match="no test touches"):
        direct.open("http://1.1.1.1/v1/chat/completions", timeout=5)


def test_a_server_of_this_machine_is_reached():
    with socket.create_server(("127.0.0.1", 0)) as server, \
            socket.create_connection(server.getsockname(), timeout=5) as client:
        assert client.getpeername()[0] == "127.0.0.1"
