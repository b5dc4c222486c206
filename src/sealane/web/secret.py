"""The web app's secret key: from the settings, or kept in a file created on first start.

It signs session cookies and sign-in form tokens (HMAC-SHA256). Set ``SEALANE_WEB_SECRET_KEY``
to share one key between machines; otherwise the key is read from ``SEALANE_WEB_SECRET_FILE``
(default: next to the SQLite database, else ``./sealane-web-secret``), which is created with
a random 256-bit key and mode 0600 when it does not exist yet.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from ..config import Settings

DEFAULT_FILE = "sealane-web-secret"


def secret_file(settings: Settings) -> Path:
    """Where the key is kept when the settings give none."""
    if settings.web_secret_file:
        return Path(settings.web_secret_file)
    scheme, _, rest = settings.database_url.partition(":///")
    database = rest.partition("?")[0]
    if scheme.split("+")[0] == "sqlite" and database and database != ":memory:":
        return Path(database).with_name(Path(database).name + ".web-secret")
    return Path(DEFAULT_FILE)


def secret_key(settings: Settings) -> bytes:
    """The key: the setting, or the file's content (the file is created when missing)."""
    if settings.web_secret_key:
        return settings.web_secret_key.encode("utf-8")
    path = secret_file(settings)
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
    except FileExistsError:
        pass  # made by an earlier start, or by another process just now
    key = path.read_text(encoding="utf-8").strip()
    if len(key) < 16:
        raise ValueError(f"{path} holds no usable web secret key (16 characters or more)")
    return key.encode("utf-8")
