"""``Settings.from_env``: ``SEALANE_*`` variables, then explicit overrides on top."""

from __future__ import annotations

import pytest

from sealane.config import DEFAULT_RETRY_SCHEDULE, Settings


def test_from_env__empty_gives_defaults() -> None:
    settings = Settings.from_env({})
    assert settings == Settings()
    assert settings.database_url == "sqlite:///./sealane.db"
    assert settings.rate_limit_per_minute == 100
    assert settings.webhook_retry_schedule == DEFAULT_RETRY_SCHEDULE
    assert settings.webhook_allow_private is False


def test_from_env__database_url() -> None:
    settings = Settings.from_env({"SEALANE_DATABASE_URL": "postgresql://db/sealane"})
    assert settings.database_url == "postgresql://db/sealane"


def test_from_env__rate_limit() -> None:
    assert Settings.from_env({"SEALANE_RATE_LIMIT_PER_MINUTE": "250"}).rate_limit_per_minute == 250


def test_from_env__rate_limit_with_spaces() -> None:
    assert Settings.from_env({"SEALANE_RATE_LIMIT_PER_MINUTE": " 7 "}).rate_limit_per_minute == 7


@pytest.mark.parametrize("value", ["abc", "", "1.5", "0", "-3"])
def test_from_env__bad_rate_limit_names_the_variable(value: str) -> None:
    with pytest.raises(ValueError, match="SEALANE_RATE_LIMIT_PER_MINUTE"):
        Settings.from_env({"SEALANE_RATE_LIMIT_PER_MINUTE": value})


@pytest.mark.parametrize(("value", "seconds"), [("30", 30), ("0", 0), (" 5 ", 5)])
def test_from_env__auth_cache_seconds(value: str, seconds: int) -> None:
    assert Settings.from_env({"SEALANE_AUTH_CACHE_SECONDS": value}).auth_cache_seconds == seconds


@pytest.mark.parametrize("value", ["abc", "", "1.5", "-3"])
def test_from_env__bad_auth_cache_seconds_names_the_variable(value: str) -> None:
    with pytest.raises(ValueError, match="SEALANE_AUTH_CACHE_SECONDS"):
        Settings.from_env({"SEALANE_AUTH_CACHE_SECONDS": value})


def test_from_env__retry_schedule() -> None:
    settings = Settings.from_env({"SEALANE_WEBHOOK_RETRY_SCHEDULE": "5, 30,120"})
    assert settings.webhook_retry_schedule == (5, 30, 120)


@pytest.mark.parametrize("value", ["5,x", "5,-1", "5,0"])
def test_from_env__bad_retry_schedule_names_the_variable(value: str) -> None:
    with pytest.raises(ValueError, match="SEALANE_WEBHOOK_RETRY_SCHEDULE"):
        Settings.from_env({"SEALANE_WEBHOOK_RETRY_SCHEDULE": value})


@pytest.mark.parametrize("value", ["1", "true", "TRUE", "yes", "on", " On "])
def test_from_env__allow_private_on(value: str) -> None:
    settings = Settings.from_env({"SEALANE_WEBHOOK_ALLOW_PRIVATE": value})
    assert settings.webhook_allow_private is True


@pytest.mark.parametrize("value", ["0", "false", "no", "off", ""])
def test_from_env__allow_private_off(value: str) -> None:
    settings = Settings.from_env({"SEALANE_WEBHOOK_ALLOW_PRIVATE": value})
    assert settings.webhook_allow_private is False


def test_from_env__ignores_unrelated_variables() -> None:
    settings = Settings.from_env({"DATABASE_URL": "postgresql://x", "SEALANE_UNKNOWN": "1"})
    assert settings == Settings()


def test_from_env__override_wins_over_env() -> None:
    settings = Settings.from_env(
        {"SEALANE_DATABASE_URL": "sqlite:///env.db", "SEALANE_RATE_LIMIT_PER_MINUTE": "5"},
        database_url="sqlite:///flag.db",
        rate_limit_per_minute=9,
    )
    assert settings.database_url == "sqlite:///flag.db"
    assert settings.rate_limit_per_minute == 9


def test_from_env__none_override_keeps_env() -> None:
    settings = Settings.from_env({"SEALANE_DATABASE_URL": "sqlite:///env.db"}, database_url=None)
    assert settings.database_url == "sqlite:///env.db"


def test_from_env__override_without_env() -> None:
    assert Settings.from_env({}, webhook_allow_private=True).webhook_allow_private is True


def test_from_env__unknown_override_raises() -> None:
    with pytest.raises(TypeError):
        Settings.from_env({}, no_such_setting=1)


def test_settings__frozen() -> None:
    settings = Settings()
    with pytest.raises(AttributeError):
        settings.rate_limit_per_minute = 1  # type: ignore[misc]


def test_from_env__unrecognised_allow_private_raises() -> None:
    with pytest.raises(ValueError, match="SEALANE_WEBHOOK_ALLOW_PRIVATE"):
        Settings.from_env({"SEALANE_WEBHOOK_ALLOW_PRIVATE": "maybe"})


def test_from_env__empty_retry_schedule_is_not_silently_empty() -> None:
    with pytest.raises(ValueError, match="SEALANE_WEBHOOK_RETRY_SCHEDULE"):
        Settings.from_env({"SEALANE_WEBHOOK_RETRY_SCHEDULE": ""})


def test_from_env__dcsa_carriers_from_json_with_secrets_from_the_environment() -> None:
    carriers = (
        '[{"name": "line", "base_url": "https://tnt.example", "scacs": ["LINE"],'
        ' "auth_header": "X-Key", "auth_value_env": "LINE_KEY"}]'
    )
    settings = Settings.from_env({"SEALANE_DCSA_CARRIERS": carriers, "LINE_KEY": "k-1"})
    (config,) = settings.dcsa_carriers
    assert (config.name, config.scacs, config.auth_header) == ("line", ("LINE",), ("X-Key", "k-1"))
    assert Settings.from_env({}).dcsa_carriers == ()


def test_from_env__dcsa_carriers_missing_secret_names_the_variable() -> None:
    carriers = (
        '[{"name": "line", "base_url": "https://tnt.example", "scacs": ["LINE"],'
        ' "auth_header": "X-Key", "auth_value_env": "LINE_KEY"}]'
    )
    with pytest.raises(ValueError, match="LINE_KEY"):
        Settings.from_env({"SEALANE_DCSA_CARRIERS": carriers})


@pytest.mark.parametrize(
    ("value", "speed"), [("off", 0.0), ("0", 0.0), ("on", 1.0), ("60", 60.0), (" 2.5 ", 2.5)]
)
def test_from_env__ais_demo(value: str, speed: float) -> None:
    assert Settings.from_env({"SEALANE_AIS_DEMO": value}).ais_demo_speed == speed
    assert Settings.from_env({}).ais_demo_speed == 1.0


@pytest.mark.parametrize("value", ["fast", "-1", "nan", "1e9"])
def test_from_env__bad_ais_demo_names_the_variable(value: str) -> None:
    with pytest.raises(ValueError, match="SEALANE_AIS_DEMO"):
        Settings.from_env({"SEALANE_AIS_DEMO": value})
