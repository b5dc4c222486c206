"""Which webhook URLs may be called (SSRF protection).

https only, no userinfo, and every address the host resolves to must be globally routable.
``allow_private`` (development and tests) also admits http, loopback and private ranges; the
link-local range (cloud metadata at 169.254.169.254), unspecified and multicast addresses stay
blocked even then. Delivery connects to the address that was checked, so a DNS answer that
changes between the check and the connection cannot redirect it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]


class UnsafeUrl(ValueError):
    """A URL the policy refuses, with the reason."""


@dataclass(frozen=True, slots=True)
class CheckedUrl:
    """A URL that passed the policy, and the address to connect to."""

    url: str
    scheme: str
    host: str
    port: int
    address: str


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (IPv4 and IPv6)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise UnsafeUrl(f"cannot resolve {host!r}: {error}") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _unmapped(address: IPAddress) -> IPAddress:
    """The IPv4 address inside an IPv4-mapped, 6to4 or Teredo IPv6 address (else itself)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
        if address.teredo is not None:
            return address.teredo[1]
    return address


def address_allowed(text: str, *, allow_private: bool) -> bool:
    """Whether a connection to address ``text`` is allowed."""
    address = _unmapped(ipaddress.ip_address(text.split("%", 1)[0]))
    if address.is_link_local or address.is_unspecified or address.is_multicast:
        return False
    # Loopback before "reserved": Python counts ::1 as reserved (it lies in ::/8), but the
    # v4-compatible and NAT64 forms that hide an IPv4 address there must stay refused.
    if address.is_loopback:
        return allow_private
    if address.is_reserved:
        return False
    if address.is_global:
        return True
    return allow_private and address.is_private


def check_url(url: str, *, allow_private: bool, resolver: Resolver = system_resolver) -> CheckedUrl:
    """The checked URL and the address to use; :class:`UnsafeUrl` says why one is refused."""
    if not isinstance(url, str) or len(url) > 2048:
        raise UnsafeUrl("the URL must be a string of at most 2048 characters")
    url = url.strip()
    if any(ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 or char.isspace() for char in url):
        raise UnsafeUrl("the URL must not contain spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
        httpx.URL(url)  # what the delivery client will be asked to send to
    except (ValueError, UnicodeError, httpx.InvalidURL) as error:
        raise UnsafeUrl(f"malformed URL: {error}") from None
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes:
        raise UnsafeUrl(
            "the URL must use https" if not allow_private else "the URL must use http(s)"
        )
    if parts.username is not None or parts.password is not None:
        raise UnsafeUrl("the URL must not carry a user name or password")
    host = parts.hostname
    if not host:
        raise UnsafeUrl("the URL has no host")
    port = port or (443 if parts.scheme == "https" else 80)
    addresses = resolver(host, port)
    if not addresses:
        raise UnsafeUrl(f"{host!r} resolves to no address")
    for address in addresses:
        if not address_allowed(address, allow_private=allow_private):
            raise UnsafeUrl(f"{host!r} resolves to {address}, which is not a public address")
    return CheckedUrl(url=url, scheme=parts.scheme, host=host, port=port, address=addresses[0])
