"""No test touches the network: a connection made in a test's process to an address
outside this machine and its private networks (a model provider, a package index) fails
the test, where an offline machine would only make that test slow or flaky. This
machine's own and private addresses stay open: the tests' own servers, and Ray's local
cluster (at the address of the machine's name). tests/conftest.py holds the whole
session in ``no_network()``."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest


def _local(address: object) -> bool:
    if not isinstance(address, tuple):  # a Unix socket's path
        return True
    host = str(address[0]).split("%")[0]  # an IPv6 address may name its interface
    if host == "localhost":
        return True
    try:
        found = ipaddress.ip_address(host)
    except ValueError:  # a host name: resolving it is already a question to the network
        return False
    return found.is_loopback or found.is_private or found.is_link_local or host in _own_addresses()


def _own_addresses() -> set[str]:
    try:
        return {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)}
    except OSError:
        return set()


@contextmanager
def no_network() -> Iterator[None]:
    """``socket.socket``'s ``connect`` and ``connect_ex`` refuse an address outside the
    machine and its private networks, while inside."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("connect", "connect_ex"):
            patch.setattr(socket.socket, name, _locally(getattr(socket.socket, name)))
        yield


def _locally(connect: Callable) -> Callable:
    def checked(sock: socket.socket, address: object):
        if not _local(address):
            raise OSError(f"a test connected to {address!r}: no test touches the network")
        return connect(sock, address)

    return checked
