"""Carrier configuration from a TOML file, secrets from the environment, errors that name keys."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from sealane.config.dcsa_carriers import ConfigError, OAuth2, carriers_from_env, load_carriers

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


JSON_CARRIERS = """[
  {"name": "header", "base_url": "https://api.example.com/tnt/", "scacs": ["exmp", "EXMQ"],
   "auth_header": "X-API-Key", "auth_value_env": "EXAMPLE_KEY", "push_secret_env": "EXAMPLE_PUSH",
   "poll_interval_s": 21600},
  {"name": "oauth", "base_url": "https://other.example.com", "scacs": ["OTHR"],
   "requests_per_second": 2.5,
   "oauth2": {"token_url": "https://auth.example.com/token", "client_id": "sealane",
              "client_secret_env": "OTHER_SECRET", "scope": "tnt"}}
]"""


def test_carriers_from_env__json_in_the_variable_reads_like_the_toml_file(tmp_path: Path) -> None:
    from_toml = load_carriers(write(tmp_path, GOOD), ENV)
    assert carriers_from_env({**ENV, "SEALANE_DCSA_CARRIERS": JSON_CARRIERS}) == from_toml
    wrapped = '{"carrier": ' + JSON_CARRIERS + "}"
    assert carriers_from_env({**ENV, "SEALANE_DCSA_CARRIERS": wrapped}) == from_toml


def test_carriers_from_env__a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "carriers.json"
    path.write_text(JSON_CARRIERS, encoding="utf-8")
    found = carriers_from_env({**ENV, "SEALANE_DCSA_CARRIERS": str(path)})
    assert found == load_carriers(write(tmp_path, GOOD), ENV)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("[", "SEALANE_DCSA_CARRIERS: not JSON"),
        ("[]", "no carriers"),
        ('{"carriers": []}', "no carriers"),
        ('[{"name": "x"}]', "carrier 'x': scacs must list"),
    ],
)
def test_carriers_from_env__bad_json_names_the_problem(value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        carriers_from_env({"SEALANE_DCSA_CARRIERS": value})


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ('name = "one"\nscacs = ["BBBB"]', "carrier 'one' is configured twice"),
        ('name = "two"\nscacs = ["AAAA"]', "carrier 'two': SCAC AAAA has another carrier"),
    ],
)
def test_load_carriers__names_and_scacs_distinct(tmp_path: Path, second: str, message: str) -> None:
    base = 'base_url = "https://x.example"\nauth_header = "K"\nauth_value = "v"\n'
    text = f'[[carrier]]\nname = "one"\nscacs = ["AAAA"]\n{base}[[carrier]]\n{second}\n{base}'
    with pytest.raises(ConfigError, match=message):
        load_carriers(write(tmp_path, text), {})


def test_dcsa_carriers__one_adapter_per_carrier_by_scac(tmp_path: Path) -> None:
    from sealane.clock import SystemClock
    from sealane.feeds.dcsa.carrier import dcsa_carriers
    from sealane.store.database import make_engine, session_factory

    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    carriers = dcsa_carriers(
        load_carriers(write(tmp_path, GOOD), ENV), session_factory(engine), SystemClock()
    )
    assert sorted(carriers) == ["EXMP", "EXMQ", "OTHR"]
    assert carriers["EXMP"] is carriers["EXMQ"] is not carriers["OTHR"]
    for carrier in {id(c): c for c in carriers.values()}.values():
        carrier.client.close()
    engine.dispose()
