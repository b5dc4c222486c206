"""The MCP server's settings from the ``SERVICE_*`` variables, and the default allowlists."""

from __future__ import annotations

import pytest
from starlette.datastructures import Headers

from sealane.config import Settings
from sealane.mcp.http import HostPolicy, credential
from sealane.service.core.errors import Unauthenticated


def test_settings__service_variables() -> None:
    settings = Settings.from_env(
        {
            "SERVICE_API_TOKEN": " sl_abc ",
            "SERVICE_API_BASE_URL": "https://tracking.example.com/v2/",
            "SERVICE_MCP_ALLOWED_HOSTS": "mcp.example.com, mcp.example.com:*,",
            "SERVICE_MCP_ALLOWED_ORIGINS": "https://app.example.com",
        }
    )
    assert settings.mcp_api_token == "sl_abc"
    assert settings.mcp_api_base_url == "https://tracking.example.com/v2"
    assert settings.mcp_allowed_hosts == ("mcp.example.com", "mcp.example.com:*")
    assert settings.mcp_allowed_origins == ("https://app.example.com",)


def test_settings__base_url_must_be_http() -> None:
    with pytest.raises(ValueError, match="SERVICE_API_BASE_URL"):
        Settings.from_env({"SERVICE_API_BASE_URL": "ftp://example.com"})


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:8000", True),
        ("localhost:1", True),
        ("[::1]:8000", True),
        ("127.0.0.1", True),
        ("tracking.example.com:8443", True),  # the host of base_url
        ("127.0.0.1.evil.example:80", False),
        ("evil.example", False),
        ("", False),
    ],
)
def test_policy__default_hosts(host: str, allowed: bool) -> None:
    policy = HostPolicy.of(Settings(base_url="https://tracking.example.com:8443/v2"))
    refused = policy.refusal(Headers({"host": host} if host else {}))
    assert (refused is None) is allowed


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://localhost:3000", True),
        ("https://tracking.example.com:8443", True),
        ("http://localhost.evil.example", False),
        ("null", False),
    ],
)
def test_policy__default_origins(origin: str, allowed: bool) -> None:
    policy = HostPolicy.of(Settings(base_url="https://tracking.example.com:8443/v2"))
    refused = policy.refusal(Headers({"host": "127.0.0.1:8000", "origin": origin}))
    assert (refused is None) is allowed


@pytest.mark.parametrize(
    ("header", "fallback", "key"),
    [("Bearer k1", None, "k1"), ("token  k2 ", None, "k2"), (None, "k3", "k3")],
)
def test_credential__schemes_and_fallback(
    header: str | None, fallback: str | None, key: str
) -> None:
    assert credential(header, fallback) == key


@pytest.mark.parametrize(("header", "fallback"), [(None, None), ("Basic x", "k"), ("Bearer", "k")])
def test_credential__refused(header: str | None, fallback: str | None) -> None:
    with pytest.raises(Unauthenticated):
        credential(header, fallback)
