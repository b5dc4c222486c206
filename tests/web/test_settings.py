"""Web settings and the secret key: from the environment, else a file made once."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from sealane.config import Settings
from sealane.web.secret import secret_file, secret_key


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
    assert secret_key(settings) == b"configured-key-123456"
    assert not (tmp_path / "f").exists()


def test_secret_key__created_once_private_and_kept(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'sealane.db'}")
    path = secret_file(settings)
    assert path == tmp_path / "sealane.db.web-secret"
    first = secret_key(settings)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert secret_key(settings) == first and len(first) >= 32


def test_secret_file__other_databases_use_the_working_directory() -> None:
    assert secret_file(Settings(database_url="postgresql+psycopg://u@h/db")) == Path(
        "sealane-web-secret"
    )
    assert secret_file(Settings(database_url="sqlite:///:memory:")) == Path("sealane-web-secret")


def test_secret_key__unusable_file_refused(tmp_path: Path) -> None:
    path = tmp_path / "short"
    path.write_text("abc\n")
    with pytest.raises(ValueError, match="no usable web secret key"):
        secret_key(Settings(web_secret_file=str(path)))
