"""Web settings and the secret key: from the settings, a configured file, or the database."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.runtime import Runtime, build_runtime
from sealane.service.access.accounts import create_account
from sealane.web.secret import secret_key
from tests.templates import prepared_sqlite
from tests.toolkit import START, make_app, make_settings


@contextmanager
def runtime_on(tmp_path: Path, settings: Settings) -> Iterator[Runtime]:
    """A runtime of ``settings`` on the SQLite file ``tmp_path/sealane.db`` (made when missing)."""
    database = tmp_path / "sealane.db"
    url = prepared_sqlite(database) if not database.exists() else f"sqlite:///{database}"
    runtime = build_runtime(replace(settings, database_url=url), clock=ManualClock(START))
    try:
        yield runtime
    finally:
        runtime.stop()
        runtime.engine.dispose()


def test_settings__from_environment() -> None:
    settings = Settings.from_env(
        {
            "SEALANE_WEB_SECRET_KEY": " k" * 10,
            "SEALANE_WEB_SECRET_FILE": "/tmp/x",
            "SEALANE_WEB_SESSION_SECONDS": "600",
        }
    )
    assert settings.web_secret_file == "/tmp/x"
    assert settings.web_session_seconds == 600
    with pytest.raises(ValueError, match="SEALANE_WEB_SESSION_SECONDS"):
        Settings.from_env({"SEALANE_WEB_SESSION_SECONDS": "0"})


def test_secret_key__from_settings_wins(tmp_path: Path) -> None:
    settings = Settings(web_secret_key="configured-key-123456", web_secret_file=str(tmp_path / "f"))
    with runtime_on(tmp_path, settings) as runtime:
        assert secret_key(settings, runtime.context) == b"configured-key-123456"
    assert not (tmp_path / "f").exists()


def test_secret_key__configured_file_created_once_private_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "web-secret"
    path.parent.mkdir()
    settings = Settings(web_secret_file=str(path))
    with runtime_on(tmp_path, settings) as runtime:
        first = secret_key(settings, runtime.context)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert secret_key(settings, runtime.context) == first and len(first) >= 32


def test_secret_key__otherwise_in_the_database_not_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    working = tmp_path / "cwd"
    working.mkdir()
    monkeypatch.chdir(working)
    with runtime_on(tmp_path, Settings()) as one, runtime_on(tmp_path, Settings()) as two:
        key = secret_key(one.settings, one.context)
        assert len(key) >= 43
        assert secret_key(two.settings, two.context) == key  # every process signs alike
    assert list(working.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cwd", "sealane.db"]


def test_web_app__a_sign_in_form_from_one_process_is_good_in_another(tmp_path: Path) -> None:
    """Over HTTP, two apps on one database (two server processes behind a balancer): the form
    one signed, under the key kept in the database, signs in at the other."""
    settings = make_settings(tmp_path / "sealane.db")
    one, other = make_app(settings), make_app(settings)
    new = create_account(one.state.sealane.context, "Web Co", routing=False)
    with TestClient(one) as first, TestClient(other) as second:
        form = first.get("/sign-in")
        token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
        assert form.status_code == 200 and token
        second.cookies.update(first.cookies)
        answer = second.post(
            "/sign-in",
            data={"csrf_token": token.group(1), "api_key": new.secret},
            headers={"Origin": "http://testserver"},
            follow_redirects=False,
        )
    assert answer.status_code == 303, answer.text
    assert not [path for path in tmp_path.iterdir() if "secret" in path.name]


def test_secret_key__unusable_file_refused(tmp_path: Path) -> None:
    path = tmp_path / "short"
    path.write_text("abc\n")
    settings = Settings(web_secret_file=str(path))
    with runtime_on(tmp_path, settings) as runtime, pytest.raises(ValueError, match="usable"):
        secret_key(settings, runtime.context)
