"""While the database is out of reach the API answers a JSON:API 503 with ``Retry-After``,
counted in the metrics, never a 500; once it is back, requests are answered again.

SQLite: the pool is emptied and the database's directory moved away, so no connection can be
opened. PostgreSQL: the app reaches the server through a socket link of the test's own, which
is removed while the server ends the app's sessions (the server itself stays up for the other
tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, make_url, text

from tests.store.conftest import fresh_postgres_url
from tests.templates import prepared_sqlite
from tests.toolkit import auth, make_account, make_app

from .jsonapi_asserts import assert_error

__all__ = ["fresh_postgres_url"]

APPLICATION = "sealane-outage-test"


class Outage:
    """A database the test can take out of reach and bring back."""

    def __init__(self, url: str, cut: object, restore: object) -> None:
        self.url = url
        self._cut, self._restore = cut, restore

    def cut(self, engine: Engine) -> None:
        self._cut(engine)  # type: ignore[operator]

    def restore(self) -> None:
        self._restore()  # type: ignore[operator]


@pytest.fixture(params=["sqlite", "postgresql"])
def outage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Outage]:
    if request.param == "sqlite":
        home = tmp_path / "db"
        home.mkdir()
        url = prepared_sqlite(home / "sealane.db")

        def cut_sqlite(engine: Engine) -> None:
            engine.dispose()
            home.rename(tmp_path / "away")

        yield Outage(url, cut_sqlite, lambda: (tmp_path / "away").rename(home))
        return
    server_url = make_url(request.getfixturevalue("fresh_postgres_url"))
    real = Path(str(server_url.query["host"]))
    (socket,) = [p for p in real.iterdir() if p.name.startswith(".s.PGSQL.") and p.is_socket()]
    linked = tmp_path / "pg"
    linked.mkdir()
    link = linked / socket.name
    os.symlink(socket, link)
    admin = request.getfixturevalue("postgres_admin")
    query = {**server_url.query, "host": str(linked), "application_name": APPLICATION}
    url = server_url.set(query=query).render_as_string(hide_password=False)

    def cut_postgres(engine: Engine) -> None:
        link.unlink()
        with admin.connect() as connection:
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = :name"
                ),
                {"name": APPLICATION},
            )

    yield Outage(url, cut_postgres, lambda: os.symlink(socket, link))


def test_database_out_of_reach__503_with_retry_after_then_served_again(outage: Outage) -> None:
    app = make_app(outage.url)
    engine = app.state.sealane.engine
    key = make_account(app, "Outage Co", routing=False)
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            assert client.get("/v2/shipments", headers=auth(key)).status_code == 200
            outage.cut(engine)
            for path in ("/v2/shipments", "/v2/tracking_requests", "/v2/shipping_lines"):
                response = client.get(path, headers=auth(key))
                error = assert_error(response, 503, code="unavailable")
                assert "database" in error["detail"]
                assert response.headers["Retry-After"] == "5"
                assert "Traceback" not in response.text
            metrics = client.get("/metrics").text
            assert 'status="503"' in metrics
            outage.restore()
            assert client.get("/v2/shipments", headers=auth(key)).status_code == 200
    finally:
        engine.dispose()
