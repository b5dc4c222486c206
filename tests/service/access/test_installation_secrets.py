"""The installation's secrets: made once in the database, the same for every process on it."""

from __future__ import annotations

from sealane.service.access.installation_secrets import installation_secret
from tests.service.conftest import make_world


def test_installation_secret__made_once_and_shared(module_database: str) -> None:
    first, second = make_world(module_database), make_world(module_database)
    try:
        key = installation_secret(first.runtime.context, "test-shared")
        assert len(key) >= 43  # 256 random bits, URL-safe base64
        assert installation_secret(second.runtime.context, "test-shared") == key
        assert installation_secret(first.runtime.context, "test-other") != key
    finally:
        for world in (first, second):
            world.runtime.stop()
            world.runtime.engine.dispose()
