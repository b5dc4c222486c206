"""The web app's secret key: from the settings, a configured file, or the database.

It signs session cookies and sign-in form tokens (HMAC-SHA256). ``SEALANE_WEB_SECRET_KEY``
gives the key itself; ``SEALANE_WEB_SECRET_FILE`` names a file that holds it (created with a
random 256-bit key and mode 0600 when it does not exist yet); with neither, the key is made once
and kept in the database, so every process on it signs alike and nothing is written to the
working directory.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from ..config import Settings
from ..service.access.installation_secrets import installation_secret
from ..service.core.context import ServiceContext

#: The key's name among the installation's secrets in the database.
SECRET_NAME = "web"


def secret_key(settings: Settings, context: ServiceContext) -> bytes:
    """The key: the setting, else the configured file's content, else the database's."""
    if settings.web_secret_key:
        return settings.web_secret_key.encode("utf-8")
    if settings.web_secret_file:
        return file_key(Path(settings.web_secret_file))
    return installation_secret(context, SECRET_NAME).encode("utf-8")


def file_key(path: Path) -> bytes:
    """The key kept in ``path``, which is made (mode 0600) when missing."""
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
    except FileExistsError:
        pass  # made by an earlier start, or by another process just now
    key = path.read_text(encoding="utf-8").strip()
    if len(key) < 16:
        raise ValueError(f"{path} holds no usable web secret key (16 characters or more)")
    return key.encode("utf-8")
