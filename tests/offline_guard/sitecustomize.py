"""Loaded by every Python process the test suite starts (via PYTHONPATH): no network.

TAVeer Desktop is offline by design. Any attempt to open an internet socket connection (or to
resolve a host name) raises ``NetworkAccessBlocked`` so that the failing test shows where the
program tried to phone home. Unix-domain sockets (used locally by Qt and by multiprocessing) stay
allowed.
"""

from __future__ import annotations

import socket

_INTERNET_FAMILIES = {socket.AF_INET, socket.AF_INET6}


class NetworkAccessBlocked(RuntimeError):
    """Raised when code under test tries to reach the network."""


_original_connect = socket.socket.connect
_original_connect_ex = socket.socket.connect_ex


def _guarded_connect(self, address):
    if self.family in _INTERNET_FAMILIES:
        raise NetworkAccessBlocked(f"network connection attempted to {address!r}")
    return _original_connect(self, address)


def _guarded_connect_ex(self, address):
    if self.family in _INTERNET_FAMILIES:
        raise NetworkAccessBlocked(f"network connection attempted to {address!r}")
    return _original_connect_ex(self, address)


def _blocked_getaddrinfo(host, *args, **kwargs):
    raise NetworkAccessBlocked(f"host name lookup attempted for {host!r}")


_original_sendto = socket.socket.sendto


def _guarded_sendto(self, *args):
    if self.family in _INTERNET_FAMILIES:
        raise NetworkAccessBlocked(f"network datagram attempted to {args[-1]!r}")
    return _original_sendto(self, *args)


def _blocked_lookup(name, *args, **kwargs):
    raise NetworkAccessBlocked(f"host name lookup attempted for {name!r}")


socket.socket.connect = _guarded_connect
socket.socket.sendto = _guarded_sendto
socket.gethostbyname = _blocked_lookup
socket.gethostbyname_ex = _blocked_lookup
socket.gethostbyaddr = _blocked_lookup
socket.socket.connect_ex = _guarded_connect_ex
socket.getaddrinfo = _blocked_getaddrinfo
socket.create_connection = lambda address, *a, **k: (_ for _ in ()).throw(
    NetworkAccessBlocked(f"network connection attempted to {address!r}")
)
