"""``X-Forwarded-For`` counts only from ``SEALANE_TRUSTED_PROXIES`` (a real ``sealane serve``).

Regression: uvicorn believes the header from any client on 127.0.0.1 by default, so a local
caller rotating it was a new address for each wrong key, and never met the per-address limit.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from sealane.config import Settings
from tests.servers import serving

LIMIT = 3


def status_of(url: str, forwarded_for: str) -> int:
    headers = {"Authorization": "Token sl_wrong", "X-Forwarded-For": forwarded_for}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def wrong_keys(base: str) -> list[int]:
    """The statuses of six wrong keys, each claiming another forwarded address."""
    return [status_of(f"{base}/ports/NLRTM", f"203.0.113.{n}") for n in range(1, 7)]


def test_forwarded_for__from_an_untrusted_client__does_not_escape_the_limit(
    tmp_path: Path,
) -> None:
    env = {"SEALANE_AUTH_FAILURES_PER_MINUTE": str(LIMIT)}
    url = f"sqlite:///{tmp_path / 'sealane.db'}"
    with serving(url, tmp_path / "serve.log", env=env) as base:
        assert wrong_keys(base) == [401] * LIMIT + [429] * 3


def test_forwarded_for__from_a_trusted_proxy__is_the_client_address(tmp_path: Path) -> None:
    env = {"SEALANE_AUTH_FAILURES_PER_MINUTE": str(LIMIT), "SEALANE_TRUSTED_PROXIES": "127.0.0.1"}
    url = f"sqlite:///{tmp_path / 'sealane.db'}"
    with serving(url, tmp_path / "serve.log", env=env) as base:
        assert wrong_keys(base) == [401] * 6  # six clients behind the proxy, one wrong key each


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1", ("127.0.0.1/32",)),
        (" 10.0.0.0/8 , ::1,", ("10.0.0.0/8", "::1/128")),
        ("*", ("*",)),
        ("", ()),
    ],
)
def test_settings__trusted_proxies(text: str, expected: tuple[str, ...]) -> None:
    settings = Settings.from_env({"SEALANE_TRUSTED_PROXIES": text})
    assert settings.trusted_proxies == expected


def test_settings__trusted_proxies_refuses_a_name() -> None:
    with pytest.raises(ValueError, match="SEALANE_TRUSTED_PROXIES"):
        Settings.from_env({"SEALANE_TRUSTED_PROXIES": "proxy.example"})
