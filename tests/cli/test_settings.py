"""A command's settings: ``SEALANE_*`` with its ``--database`` and ``--base-url`` on top, the
same for every command that reads them."""

from __future__ import annotations

import argparse

import pytest

from sealane.cli import commands as cli
from sealane.cli.settings import settings_from, with_base_url

ENVIRONMENT_DB = "sqlite:///from-the-environment.db"
FLAG_DB = "sqlite:///from-the-flag.db"


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEALANE_DATABASE_URL", ENVIRONMENT_DB)
    monkeypatch.delenv("SEALANE_BASE_URL", raising=False)


@pytest.mark.parametrize(
    "argv",
    [
        ["migrate"],
        ["worker"],
        ["webhooks", "worker"],
        ["mcp"],
        ["accounts", "list"],
        ["ais", "replay", "sample.nmea"],
        ["ais", "listen", "--udp", "127.0.0.1:10110"],
    ],
    ids=" ".join,
)
def test_settings_from__database_flag_over_the_environment(argv: list[str]) -> None:
    parser = cli.build_parser()
    assert settings_from(parser.parse_args(argv)).database_url == ENVIRONMENT_DB
    flagged = parser.parse_args([*argv, "--database", FLAG_DB])
    assert settings_from(flagged).database_url == FLAG_DB


def test_settings_from__a_command_without_database_reads_the_environment() -> None:
    assert settings_from(argparse.Namespace()).database_url == ENVIRONMENT_DB


def test_with_base_url__the_flag_without_its_trailing_slash() -> None:
    args = cli.build_parser().parse_args(["serve", "--base-url", "https://api.example.com/v2/"])
    assert with_base_url(settings_from(args), args).base_url == "https://api.example.com/v2"


def test_with_base_url__host_and_port_when_neither_flag_nor_variable() -> None:
    args = cli.build_parser().parse_args(["mcp", "--host", "0.0.0.0", "--port", "9001"])
    assert with_base_url(settings_from(args), args).base_url == "http://0.0.0.0:9001/v2"


def test_with_base_url__the_variable_stands_without_the_flag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SEALANE_BASE_URL", "https://tracking.example.com/v2")
    args = cli.build_parser().parse_args(["serve", "--port", "9001"])
    assert with_base_url(settings_from(args), args).base_url == "https://tracking.example.com/v2"
