"""Carrier configuration from a TOML file, secrets from the environment, errors that name keys."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from sealane.feeds.dcsa.config import ConfigError, OAuth2, carriers_from_env, load_carriers

GOOD = """
[[carrier]]
name = "header"
base_url = "https://api.example.com/tnt/"
scacs = ["exmp", "EXMQ"]
auth_header = "X-API-Key"
auth_value_env = "EXAMPLE_KEY"
push_secret_env = "EXAMPLE_PUSH"
poll_interval_s = 21600

[[carrier]]
name = "oauth"
base_url = "https://other.example.com"
scacs = ["OTHR"]
requests_per_second = 2.5

[carrier.oauth2]
token_url = "https://auth.example.com/token"
client_id = "sealane"
client_secret_env = "OTHER_SECRET"
scope = "tnt"
"""
ENV = {
    "EXAMPLE_KEY": "k-123",
    "EXAMPLE_PUSH": base64.b64encode(b"push secret").decode(),
    "OTHER_SECRET": "s-456",
}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "carriers.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_load_carriers__reads_both_kinds_of_auth(tmp_path: Path) -> None:
    first, second = load_carriers(write(tmp_path, GOOD), ENV)
    assert (first.name, first.base_url, first.scacs) == (
        "header",
        "https://api.example.com/tnt",
        ("EXMP", "EXMQ"),
    )
    assert first.auth_header == ("X-API-Key", "k-123")
    assert first.push_secret == b"push secret" and first.poll_interval_s == 21600
    assert second.oauth2 == OAuth2("https://auth.example.com/token", "sealane", "s-456", "tnt")
    assert second.requests_per_second == 2.5 and second.push_secret is None


def test_carriers_from_env__the_file_named_by_the_variable(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    assert [c.name for c in carriers_from_env({**ENV, "SEALANE_DCSA_CARRIERS": str(path)})] == [
        "header",
        "oauth",
    ]
    assert carriers_from_env({}) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no \\[\\[carrier\\]\\] tables"),
        ('[[carrier]]\nname = "x"\nbase_url = "https://a"\nscacs = ["TOOLONG"]', "scacs"),
        ('[[carrier]]\nname = "x"\nbase_url = "ftp://a"\nscacs = ["ABCD"]', "base_url"),
        ('[[carrier]]\nbase_url = "https://a"\nscacs = ["ABCD"]', "name is required"),
        (
            '[[carrier]]\nname = "x"\nbase_url = "https://a"\nscacs = ["ABCD"]\n'
            'auth_header = "K"\nauth_value_env = "UNSET_VARIABLE"',
            "UNSET_VARIABLE",
        ),
        (
            '[[carrier]]\nname = "x"\nbase_url = "https://a"\nscacs = ["ABCD"]\n'
            'push_secret = "not base64!"',
            "push_secret is not base64",
        ),
        ("[[carrier]\n", "carriers.toml"),
        (
            '[[carrier]]\nname = "x"\nbase_url = "https://a"\nscacs = ["ABCD"]\nretries = "2"',
            "retries",
        ),
    ],
)
def test_load_carriers__errors_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_carriers(write(tmp_path, text), {})


def test_dcsa_carriers__one_adapter_per_carrier_by_scac(tmp_path: Path) -> None:
    from sealane.clock import SystemClock
    from sealane.store.database import make_engine, session_factory
    from sealane.tracking.carriers.dcsa import dcsa_carriers

    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    carriers = dcsa_carriers(
        load_carriers(write(tmp_path, GOOD), ENV), session_factory(engine), SystemClock()
    )
    assert sorted(carriers) == ["EXMP", "EXMQ", "OTHR"]
    assert carriers["EXMP"] is carriers["EXMQ"] is not carriers["OTHR"]
    for carrier in {id(c): c for c in carriers.values()}.values():
        carrier.client.close()
    engine.dispose()
