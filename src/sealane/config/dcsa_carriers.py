"""Per-carrier configuration of DCSA T&T adapters: a TOML file, secrets from the environment.

Part of the configuration (not of ``feeds``) so that :class:`~sealane.config.Settings` can carry
the carriers without the configuration importing the feeds it configures.

``SEALANE_DCSA_CARRIERS`` names the file (TOML, or JSON when it ends in ``.json``), or holds
the JSON itself (a list of carrier objects, for containers configured by environment only);
each ``[[carrier]]`` table gives a name, the API's
base URL (before ``/v2/events``), the SCACs it answers for, and either an auth header or OAuth2
client credentials. A secret may be written in the file or, better, named by ``*_env`` and read
from that environment variable::

    [[carrier]]
    name = "example"
    base_url = "https://api.example.com/dcsa/tnt"
    scacs = ["EXMP"]
    auth_header = "X-API-Key"
    auth_value_env = "EXAMPLE_API_KEY"
    push_secret_env = "EXAMPLE_PUSH_SECRET"   # base64, shared with the carrier's subscription

    [carrier.oauth2]                          # instead of auth_header
    token_url = "https://auth.example.com/oauth/token"
    client_id = "sealane"
    client_secret_env = "EXAMPLE_CLIENT_SECRET"
"""

from __future__ import annotations

import base64
import binascii
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV_FILE = "SEALANE_DCSA_CARRIERS"
#: Numeric settings a [[carrier]] table may override (see :class:`CarrierConfig`).
NUMBERS = (
    "page_limit",
    "max_pages",
    "retries",
    "timeout_s",
    "backoff_s",
    "max_retry_after_s",
    "requests_per_second",
    "poll_interval_s",
)


class ConfigError(ValueError):
    """The carriers file is wrong; the message names the carrier and the key."""


@dataclass(frozen=True, slots=True)
class OAuth2:
    """OAuth2 client-credentials grant: where to get a token, and with what."""

    token_url: str
    client_id: str
    client_secret: str
    scope: str | None = None


@dataclass(frozen=True, slots=True)
class CarrierConfig:
    """One carrier's T&T 2.2 endpoint and how to talk to it (seconds, requests per second)."""

    name: str
    base_url: str
    scacs: tuple[str, ...]
    auth_header: tuple[str, str] | None = None
    oauth2: OAuth2 | None = None
    #: Major version sent in the ``API-Version`` request header.
    api_version: str = "2"
    page_limit: int = 100
    max_pages: int = 50
    timeout_s: float = 10.0
    retries: int = 2
    backoff_s: float = 0.5
    #: Longest ``Retry-After`` honoured within one lookup; longer waits end it as unreachable.
    max_retry_after_s: float = 30.0
    requests_per_second: float = 5.0
    #: Shared secret of push subscriptions (decoded from base64), None when not subscribed.
    push_secret: bytes | None = None
    #: With pushes, poll again only this often per reference (0: poll on every sync).
    poll_interval_s: float = 0.0


def load_carriers(path: Path, environ: Mapping[str, str]) -> list[CarrierConfig]:
    """Every ``[[carrier]]`` of the TOML file at ``path``; ``*_env`` keys read ``environ``."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: {error}") from error
    tables = document.get("carrier", [])
    if not isinstance(tables, list) or not tables:
        raise ConfigError(f"{path}: no [[carrier]] tables")
    return _distinct([_carrier(table, environ) for table in tables])


def carriers_from_json(text: str, environ: Mapping[str, str], *, where: str) -> list[CarrierConfig]:
    """The carriers of a JSON list of carrier objects (or ``{"carrier": [...]}``), the same
    keys as the TOML tables; ``where`` names the source in errors."""
    try:
        document = json.loads(text)
    except ValueError as error:
        raise ConfigError(f"{where}: not JSON: {error}") from error
    tables = document.get("carrier") if isinstance(document, dict) else document
    if not isinstance(tables, list) or not tables:
        raise ConfigError(f"{where}: no carriers (a JSON list of carrier objects)")
    return _distinct([_carrier(table, environ) for table in tables])


def carriers_from_env(environ: Mapping[str, str]) -> list[CarrierConfig]:
    """The carriers ``SEALANE_DCSA_CARRIERS`` configures: JSON in the variable itself (it starts
    with ``[`` or ``{``) or a file path, TOML unless it ends in ``.json``; none when unset."""
    value = environ.get(ENV_FILE, "").strip()
    if not value:
        return []
    if value.startswith(("[", "{")):
        return carriers_from_json(value, environ, where=ENV_FILE)
    path = Path(value)
    if path.suffix.lower() != ".json":
        return load_carriers(path, environ)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"{path}: {error}") from error
    return carriers_from_json(text, environ, where=str(path))


def _distinct(configs: list[CarrierConfig]) -> list[CarrierConfig]:
    """``configs``, unless two share a name (it names the push endpoint) or a SCAC."""
    names: set[str] = set()
    scacs: set[str] = set()
    for config in configs:
        if config.name in names:
            raise ConfigError(f"carrier {config.name!r} is configured twice")
        taken = scacs.intersection(config.scacs)
        if taken:
            raise ConfigError(f"carrier {config.name!r}: SCAC {min(taken)} has another carrier")
        names.add(config.name)
        scacs.update(config.scacs)
    return configs


def _carrier(table: Any, environ: Mapping[str, str]) -> CarrierConfig:
    if not isinstance(table, dict):
        raise ConfigError("each [[carrier]] must be a table")
    name = _text(table, "name", "carrier")
    where = f"carrier {name!r}"
    scacs = table.get("scacs")
    if not isinstance(scacs, list) or not scacs or not all(_is_scac(s) for s in scacs):
        raise ConfigError(f"{where}: scacs must list 4-letter SCACs")
    base_url = _text(table, "base_url", where).rstrip("/")
    if not base_url.startswith(("https://", "http://")):
        raise ConfigError(f"{where}: base_url must be an http(s) URL")
    header = None
    if "auth_header" in table:
        header = (_text(table, "auth_header", where), _secret(table, "auth_value", where, environ))
    push = _secret(table, "push_secret", where, environ, required=False)
    numbers = {key: _number(table[key], key, where) for key in NUMBERS if key in table}
    return CarrierConfig(
        name=name,
        base_url=base_url,
        scacs=tuple(s.upper() for s in scacs),
        auth_header=header,
        oauth2=_oauth2(table["oauth2"], where, environ) if "oauth2" in table else None,
        api_version=str(table.get("api_version", "2")),
        push_secret=_base64(push, where) if push else None,
        **numbers,
    )


def _oauth2(grant: Any, where: str, environ: Mapping[str, str]) -> OAuth2:
    return OAuth2(
        token_url=_text(grant, "token_url", where),
        client_id=_text(grant, "client_id", where),
        client_secret=_secret(grant, "client_secret", where, environ),
        scope=grant.get("scope") if isinstance(grant, dict) else None,
    )


def _number(value: Any, key: str, where: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(f"{where}: {key} must be a number, 0 or more")
    return value


def _is_scac(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 4 and value.isalpha()


def _text(table: Any, key: str, where: str) -> str:
    value = table.get(key) if isinstance(table, dict) else None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: {key} is required (a string)")
    return value.strip()


def _secret(
    table: Any, key: str, where: str, environ: Mapping[str, str], *, required: bool = True
) -> str:
    """``key`` from the table, or from the variable named by ``key_env``."""
    if f"{key}_env" in table:
        variable = _text(table, f"{key}_env", where)
        if variable not in environ:
            raise ConfigError(f"{where}: environment variable {variable} ({key}) is not set")
        return environ[variable]
    if key in table or required:
        return _text(table, key, where)
    return ""


def _base64(text: str, where: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error as error:
        raise ConfigError(f"{where}: push_secret is not base64") from error
