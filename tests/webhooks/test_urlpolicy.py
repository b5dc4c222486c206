"""The URL policy (SSRF): which webhook URLs may be called, as tables of URL -> refused/allowed.

Numeric hosts go through the system resolver (no network: ``getaddrinfo`` reads them itself, the
way a connection would, so ``2130706433`` and ``0x7f.1`` really mean 127.0.0.1); names go through
a fake resolver passed as ``resolver=``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from sealane.webhooks.urlpolicy import CheckedUrl, UnsafeUrl, check_url

FAKE_DNS = {
    "hooks.example.com": ["8.8.8.8"],
    "internal.example.com": ["10.1.2.3"],
    "metadata.example.com": ["169.254.169.254"],
    "mixed.example.com": ["8.8.8.8", "10.1.2.3"],
    "v6-loopback.example.com": ["::1"],
    "v6-public.example.com": ["2001:4860:4860::8888"],
    "empty.example.com": [],
}


def fake_resolver(host: str, port: int) -> list[str]:
    """Answers from :data:`FAKE_DNS`; numeric hosts are returned as they are."""
    if host in FAKE_DNS:
        return list(FAKE_DNS[host])
    raise AssertionError(f"the test resolver was asked about {host!r}")


def check(url: str, *, allow_private: bool) -> CheckedUrl:
    if (urlsplit(url).hostname or "").endswith("example.com"):
        return check_url(url, allow_private=allow_private, resolver=fake_resolver)
    return check_url(url, allow_private=allow_private)


REFUSED_BY_DEFAULT = [
    pytest.param("http://example.com/hook", id="plain-http"),
    pytest.param("https://127.0.0.1/hook", id="loopback-v4"),
    pytest.param("https://127.0.0.2:8443/hook", id="loopback-v4-other-address"),
    pytest.param("https://[::1]/hook", id="loopback-v6"),
    pytest.param("https://169.254.169.254/latest/meta-data/", id="cloud-metadata"),
    pytest.param("https://10.0.0.1/hook", id="private-10"),
    pytest.param("https://172.16.5.4/hook", id="private-172.16"),
    pytest.param("https://192.168.1.1/hook", id="private-192.168"),
    pytest.param("https://100.64.0.1/hook", id="shared-address-space"),
    pytest.param("https://0.0.0.0/hook", id="unspecified-v4"),
    pytest.param("https://[::]/hook", id="unspecified-v6"),
    pytest.param("https://[::ffff:127.0.0.1]/hook", id="v4-mapped-loopback"),
    pytest.param("https://[::ffff:169.254.169.254]/hook", id="v4-mapped-metadata"),
    pytest.param("https://[fe80::1]/hook", id="link-local-v6"),
    pytest.param("https://[fc00::1]/hook", id="unique-local-v6"),
    pytest.param("https://[::7f00:1]/hook", id="v4-compatible-loopback"),
    pytest.param("https://[::ffff:0:7f00:1]/hook", id="v4-translated-loopback"),
    pytest.param("https://[64:ff9b::7f00:1]/hook", id="nat64-loopback"),
    pytest.param("https://[64:ff9b::a00:1]/hook", id="nat64-private"),
    pytest.param("https://2130706433/hook", id="decimal-loopback"),
    pytest.param("https://0x7f.1/hook", id="hex-short-loopback"),
    pytest.param("https://017700000001/hook", id="octal-loopback"),
    pytest.param("https://127.1/hook", id="short-form-loopback"),
    pytest.param("https://224.0.0.1/hook", id="multicast"),
    pytest.param("https://255.255.255.255/hook", id="broadcast"),
    pytest.param("https://localhost/hook", id="localhost-name"),
    pytest.param("https://internal.example.com/hook", id="name-resolving-private"),
    pytest.param("https://metadata.example.com/hook", id="name-resolving-metadata"),
    pytest.param("https://mixed.example.com/hook", id="name-one-address-private"),
    pytest.param("https://v6-loopback.example.com/hook", id="name-resolving-v6-loopback"),
    pytest.param("https://empty.example.com/hook", id="name-resolving-to-nothing"),
    pytest.param("https://user:pw@example.com/hook", id="userinfo"),
    pytest.param("https://user@hooks.example.com/hook", id="user-only"),
    pytest.param("https://:pw@hooks.example.com/hook", id="password-only"),
    pytest.param("ftp://hooks.example.com/hook", id="ftp-scheme"),
    pytest.param("file:///etc/passwd", id="file-scheme"),
    pytest.param("https:///hook", id="no-host"),
    pytest.param("hooks.example.com/hook", id="no-scheme"),
    pytest.param("https://hooks.example.com:99999/hook", id="port-out-of-range"),
    pytest.param("https://hooks.example.com/" + "a" * 2048, id="over-2048-characters"),
]


@pytest.mark.parametrize("url", REFUSED_BY_DEFAULT)
def test_check_url__refused_without_allow_private(url: str) -> None:
    with pytest.raises(UnsafeUrl):
        check(url, allow_private=False)


ALLOWED_BY_DEFAULT = [
    pytest.param("https://hooks.example.com/hook", "8.8.8.8", id="name-resolving-public"),
    pytest.param("https://8.8.8.8/hook", "8.8.8.8", id="public-v4-literal"),
    pytest.param("https://[2001:4860:4860::8888]/hook", "2001:4860:4860::8888", id="public-v6"),
    pytest.param(
        "https://v6-public.example.com/hook", "2001:4860:4860::8888", id="name-resolving-public-v6"
    ),
    pytest.param("https://[::ffff:8.8.8.8]/hook", "::ffff:8.8.8.8", id="v4-mapped-public"),
]


@pytest.mark.parametrize(("url", "address"), ALLOWED_BY_DEFAULT)
def test_check_url__public_address_allowed(url: str, address: str) -> None:
    checked = check(url, allow_private=False)
    assert checked.address == address
    assert checked.scheme == "https"
    assert checked.port == 443


def test_check_url__keeps_host_port_and_url() -> None:
    checked = check("https://hooks.example.com:8443/a/b?c=d", allow_private=False)
    assert checked == CheckedUrl(
        url="https://hooks.example.com:8443/a/b?c=d",
        scheme="https",
        host="hooks.example.com",
        port=8443,
        address="8.8.8.8",
    )


def test_check_url__resolver_gets_host_and_default_port() -> None:
    asked: list[tuple[str, int]] = []

    def resolver(host: str, port: int) -> list[str]:
        asked.append((host, port))
        return ["8.8.8.8"]

    check_url("https://Hooks.Example.com/x", allow_private=False, resolver=resolver)
    check_url("http://hooks.example.com/x", allow_private=True, resolver=resolver)
    assert asked == [("hooks.example.com", 443), ("hooks.example.com", 80)]


def test_check_url__scheme_and_userinfo_refused_before_any_lookup() -> None:
    def resolver(host: str, port: int) -> list[str]:
        raise AssertionError("no DNS lookup for a URL refused on its form")

    for url in ("http://example.com/", "https://user:pw@example.com/"):
        with pytest.raises(UnsafeUrl):
            check_url(url, allow_private=False, resolver=resolver)


def test_check_url__reason_names_the_address() -> None:
    with pytest.raises(UnsafeUrl, match=r"10\.1\.2\.3"):
        check("https://internal.example.com/hook", allow_private=False)


ALLOWED_WITH_ALLOW_PRIVATE = [
    pytest.param("http://127.0.0.1:8080/hook", id="http-loopback"),
    pytest.param("https://127.0.0.1/hook", id="https-loopback"),
    pytest.param("http://[::1]:8080/hook", id="loopback-v6"),
    pytest.param("https://10.0.0.1/hook", id="private-10"),
    pytest.param("http://192.168.1.1/hook", id="private-192.168"),
    pytest.param("http://localhost:8080/hook", id="localhost-name"),
    pytest.param("https://internal.example.com/hook", id="name-resolving-private"),
    pytest.param("http://hooks.example.com/hook", id="http-public"),
]


@pytest.mark.parametrize("url", ALLOWED_WITH_ALLOW_PRIVATE)
def test_check_url__allow_private_admits_http_loopback_and_private(url: str) -> None:
    assert check(url, allow_private=True).url == url


REFUSED_EVEN_WITH_ALLOW_PRIVATE = [
    pytest.param("http://169.254.169.254/latest/meta-data/", id="cloud-metadata"),
    pytest.param("https://169.254.169.254/", id="cloud-metadata-https"),
    pytest.param("http://0.0.0.0:8080/hook", id="unspecified-v4"),
    pytest.param("http://[::]:8080/hook", id="unspecified-v6"),
    pytest.param("http://[::ffff:169.254.169.254]/", id="v4-mapped-metadata"),
    pytest.param("http://[fe80::1]/hook", id="link-local-v6"),
    pytest.param("http://[64:ff9b::a9fe:a9fe]/", id="nat64-metadata"),
    pytest.param("http://[::a9fe:a9fe]/", id="v4-compatible-metadata"),
    pytest.param("http://224.0.0.1/hook", id="multicast"),
    pytest.param("https://metadata.example.com/hook", id="name-resolving-metadata"),
    pytest.param("http://user:pw@127.0.0.1/hook", id="userinfo"),
    pytest.param("ftp://127.0.0.1/hook", id="ftp-scheme"),
]


@pytest.mark.parametrize("url", REFUSED_EVEN_WITH_ALLOW_PRIVATE)
def test_check_url__refused_even_with_allow_private(url: str) -> None:
    with pytest.raises(UnsafeUrl):
        check(url, allow_private=True)
