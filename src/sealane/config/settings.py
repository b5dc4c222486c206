"""Service settings: one frozen object built at the entry point from flags and ``SEALANE_*``."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .dcsa_carriers import ENV_FILE as DCSA_CARRIERS_VARIABLE
from .dcsa_carriers import CarrierConfig, carriers_from_env

#: About 12 attempts over about 3 days (seconds after the previous attempt).
DEFAULT_RETRY_SCHEDULE = (60, 300, 900, 1800, 3600, 7200, 14400, 21600, 43200, 43200, 43200, 43200)


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything configurable about the service; passed down, never read from globals."""

    database_url: str = "sqlite:///./sealane.db"
    rate_limit_per_minute: int = 100
    #: Requests with an invalid API key allowed per client address and rolling minute.
    auth_failures_per_minute: int = 30
    #: Largest request body accepted, in bytes (413 above it).
    max_body_bytes: int = 1_048_576
    #: Seconds a checked API key is remembered (0: check every request against the database).
    auth_cache_seconds: float = 10.0
    #: Addresses or networks of reverse proxies whose ``X-Forwarded-For`` / ``-Proto`` headers
    #: are believed (``*``: any client); empty: no client's, so the per-address limits count the
    #: address that connected.
    trusted_proxies: tuple[str, ...] = ()
    webhook_retry_schedule: tuple[int, ...] = DEFAULT_RETRY_SCHEDULE
    webhook_allow_private: bool = False
    #: IPv4 addresses webhook deliveries leave from, for receivers' firewalls (as announced by
    #: ``GET /v2/webhooks/ips``; sealane cannot know them itself behind NAT).
    webhook_source_ips: tuple[str, ...] = ()
    #: Public base address of the API, used in ``links`` (no trailing slash, includes ``/v2``).
    base_url: str = "http://127.0.0.1:8000/v2"
    #: The MCP server's fallback API key, used when a request sends no ``Authorization``.
    mcp_api_token: str | None = None
    #: With it, the MCP tools call this API (``.../v2``) over HTTP instead of the local database.
    mcp_api_base_url: str | None = None
    #: ``Host`` values the MCP endpoint accepts (``host``, ``host:port`` or ``host:*``); empty:
    #: the loopback names and the host of ``base_url``.
    mcp_allowed_hosts: tuple[str, ...] = ()
    #: ``Origin`` values the MCP endpoint accepts (``scheme://host[:port|:*]``); empty: loopback.
    mcp_allowed_origins: tuple[str, ...] = ()
    #: Key signing the web app's session cookies and CSRF tokens ("": read or create
    #: ``web_secret_file``, else the one kept in the database).
    web_secret_key: str = ""
    #: File holding the web secret key, created with a random key when missing ("": the key is
    #: kept in the database).
    web_secret_file: str = ""
    #: How long a web sign-in lasts, in seconds.
    web_session_seconds: int = 8 * 3600
    #: Carriers polled (and pushed to) over DCSA Track & Trace, from ``SEALANE_DCSA_CARRIERS``.
    dcsa_carriers: tuple[CarrierConfig, ...] = ()
    #: How fast ``serve --demo`` replays the bundled AIS sample that moves the demo vessels,
    #: in times real time (0: no replay).
    ais_demo_speed: float = 1.0
    #: Whether ``GET /metrics`` answers (Prometheus text format, no key) and requests are
    #: counted for it (``SEALANE_METRICS=0``: neither).
    metrics_enabled: bool = True
    #: When set, ``GET /metrics`` answers only ``Authorization: Bearer <token>``
    #: (``SEALANE_METRICS_TOKEN``); unset, it answers anyone who reaches it.
    metrics_token: str | None = field(default=None, repr=False)
    #: Days vessel positions are kept (``SEALANE_POSITION_RETENTION_DAYS``; None: for good).
    #: ``sealane worker`` removes older ones every hour: on PostgreSQL a whole month at a time,
    #: once its last day is that old; on SQLite row by row.
    position_retention_days: int | None = None
    extra: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, environ: Mapping[str, str], **overrides: Any) -> Settings:
        """Settings from ``SEALANE_*`` variables, then explicit ``overrides`` (flags) on top."""
        values: dict[str, Any] = {}
        if "SEALANE_DATABASE_URL" in environ:
            values["database_url"] = environ["SEALANE_DATABASE_URL"]
        if "SEALANE_RATE_LIMIT_PER_MINUTE" in environ:
            values["rate_limit_per_minute"] = _positive_int(
                environ["SEALANE_RATE_LIMIT_PER_MINUTE"], "SEALANE_RATE_LIMIT_PER_MINUTE"
            )
        if "SEALANE_AUTH_FAILURES_PER_MINUTE" in environ:
            name = "SEALANE_AUTH_FAILURES_PER_MINUTE"
            values["auth_failures_per_minute"] = _positive_int(environ[name], name)
        if "SEALANE_MAX_BODY_BYTES" in environ:
            name = "SEALANE_MAX_BODY_BYTES"
            values["max_body_bytes"] = _positive_int(environ[name], name)
        if "SEALANE_AUTH_CACHE_SECONDS" in environ:
            name = "SEALANE_AUTH_CACHE_SECONDS"
            values["auth_cache_seconds"] = _non_negative_int(environ[name], name)
        if "SEALANE_TRUSTED_PROXIES" in environ:
            name = "SEALANE_TRUSTED_PROXIES"
            values["trusted_proxies"] = _networks(environ[name], name)
        if "SEALANE_WEBHOOK_RETRY_SCHEDULE" in environ:
            name = "SEALANE_WEBHOOK_RETRY_SCHEDULE"
            parts = [part for part in environ[name].split(",") if part.strip()]
            if not parts:
                raise ValueError(f"{name} must list at least one delay in seconds")
            values["webhook_retry_schedule"] = tuple(_positive_int(part, name) for part in parts)
        if "SEALANE_WEBHOOK_ALLOW_PRIVATE" in environ:
            name = "SEALANE_WEBHOOK_ALLOW_PRIVATE"
            values["webhook_allow_private"] = _flag(environ[name], name)
        if "SEALANE_WEBHOOK_SOURCE_IPS" in environ:
            name = "SEALANE_WEBHOOK_SOURCE_IPS"
            values["webhook_source_ips"] = _ipv4_list(environ[name], name)
        if "SEALANE_BASE_URL" in environ:
            values["base_url"] = environ["SEALANE_BASE_URL"].rstrip("/")
        values.update(_mcp_values(environ))
        if "SEALANE_WEB_SECRET_KEY" in environ:
            values["web_secret_key"] = environ["SEALANE_WEB_SECRET_KEY"].strip()
        if "SEALANE_WEB_SECRET_FILE" in environ:
            values["web_secret_file"] = environ["SEALANE_WEB_SECRET_FILE"].strip()
        if "SEALANE_WEB_SESSION_SECONDS" in environ:
            name = "SEALANE_WEB_SESSION_SECONDS"
            values["web_session_seconds"] = _positive_int(environ[name], name)
        if environ.get(DCSA_CARRIERS_VARIABLE, "").strip():
            values["dcsa_carriers"] = tuple(carriers_from_env(environ))
        if "SEALANE_AIS_DEMO" in environ:
            values["ais_demo_speed"] = _speed(environ["SEALANE_AIS_DEMO"], "SEALANE_AIS_DEMO")
        if "SEALANE_METRICS" in environ:
            values["metrics_enabled"] = _flag(environ["SEALANE_METRICS"], "SEALANE_METRICS")
        if environ.get("SEALANE_METRICS_TOKEN", "").strip():
            values["metrics_token"] = environ["SEALANE_METRICS_TOKEN"].strip()
        if environ.get("SEALANE_POSITION_RETENTION_DAYS", "").strip():
            name = "SEALANE_POSITION_RETENTION_DAYS"
            values["position_retention_days"] = _positive_int(environ[name], name)
        settings = cls(**values)
        return replace(settings, **{k: v for k, v in overrides.items() if v is not None})


def _mcp_values(environ: Mapping[str, str]) -> dict[str, Any]:
    """The MCP server's settings, from the ``SERVICE_*`` names of the interface document."""
    values: dict[str, Any] = {}
    if environ.get("SERVICE_API_TOKEN", "").strip():
        values["mcp_api_token"] = environ["SERVICE_API_TOKEN"].strip()
    if environ.get("SERVICE_API_BASE_URL", "").strip():
        base = environ["SERVICE_API_BASE_URL"].strip().rstrip("/")
        if not base.startswith(("http://", "https://")):
            raise ValueError(f"SERVICE_API_BASE_URL must be an http(s) URL, got {base!r}")
        values["mcp_api_base_url"] = base
    for name, key in (
        ("SERVICE_MCP_ALLOWED_HOSTS", "mcp_allowed_hosts"),
        ("SERVICE_MCP_ALLOWED_ORIGINS", "mcp_allowed_origins"),
    ):
        if name in environ:
            values[key] = tuple(part.strip() for part in environ[name].split(",") if part.strip())
    return values


def _ipv4_list(text: str, name: str) -> tuple[str, ...]:
    found = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        try:
            found.append(str(ipaddress.IPv4Address(part)))
        except ValueError:
            raise ValueError(f"{name} must list IPv4 addresses, got {part!r}") from None
    return tuple(found)


def _networks(text: str, name: str) -> tuple[str, ...]:
    """IP addresses and networks (``10.0.0.0/8``), or ``*``, separated by commas."""
    found = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        if part == "*":
            found.append(part)
            continue
        try:
            found.append(str(ipaddress.ip_network(part, strict=False)))
        except ValueError:
            raise ValueError(f"{name} must list IP addresses or networks, got {part!r}") from None
    return tuple(found)


def _speed(text: str, name: str) -> float:
    """``on`` (1, real time), ``off`` (0) or a number of times real time."""
    value = text.strip().lower()
    if value in {"on", "true", "yes"}:
        return 1.0
    if value in {"off", "false", "no", ""}:
        return 0.0
    try:
        speed = float(value)
    except ValueError:
        speed = -1.0
    if not 0.0 <= speed <= 10_000.0:  # also NaN
        raise ValueError(f"{name} must be on, off or a speed from 0 to 10000, got {text!r}")
    return speed


def _flag(text: str, name: str) -> bool:
    value = text.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    raise ValueError(f"{name} must be 1/0, true/false, yes/no or on/off, got {text!r}")


def _non_negative_int(text: str, name: str) -> int:
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{name} must be a whole number of seconds (0 or more), got {text!r}")
    return int(digits)


def _positive_int(text: str, name: str) -> int:
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{name} must be a positive integer, got {text!r}")
    value = int(digits)
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {text!r}")
    return value
