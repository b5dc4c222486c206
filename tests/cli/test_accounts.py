"""``sealane accounts create``: the key it prints works against the API and is stored hashed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from sealane.cli import commands as cli
from sealane.store.database import transaction
from sealane.store.models import Account, ApiKey, Vessel
from tests.api.jsonapi_asserts import assert_error
from tests.toolkit import auth, make_app


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SEALANE_DATABASE_URL", "SEALANE_RATE_LIMIT_PER_MINUTE", "SEALANE_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def create(capsys: pytest.CaptureFixture[str], url: str, *flags: str) -> str:
    """Run ``sealane accounts create`` and return the key from its last line."""
    code = cli.main(["accounts", "create", "Acme Freight", *flags, "--database", url])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) >= 2
    return lines[-1]


def test_accounts_create__key_alone_on_last_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    key = create(capsys, f"sqlite:///{tmp_path / 'x.db'}", "--routing")
    assert key.startswith("sl_")
    assert key == key.strip() and " " not in key
    assert len(key) >= 40


def test_accounts_create__stores_account_with_routing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    create(capsys, url, "--routing")
    app = make_app(url)
    with app.state.sealane.sessions() as session:
        account = session.scalars(select(Account)).one()
    app.state.sealane.engine.dispose()
    assert (account.name, account.routing_enabled) == ("Acme Freight", True)


@pytest.mark.parametrize("flags", [(), ("--ingest",)])
def test_accounts_create__ingest_only_with_the_flag(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, flags: tuple[str, ...]
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    create(capsys, url, *flags)
    app = make_app(url)
    with app.state.sealane.sessions() as session:
        account = session.scalars(select(Account)).one()
    app.state.sealane.engine.dispose()
    assert (account.ingest_enabled, account.routing_enabled) == (bool(flags), False)


def test_accounts_create__key_works_with_routing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    key = create(capsys, url, "--routing")
    app = make_app(url)
    with transaction(app.state.sealane.sessions) as session:
        ship = Vessel(name="Moored", imo="9400010", latitude=51.904383, longitude=4.442447)
        session.add(ship)
    with TestClient(app) as client:
        response = client.get(
            "/v2/vessels/9400010/future_positions",
            params={"port_id": "NLRTM", "previous_port_id": "BEANR"},
            headers=auth(key),
        )
    app.state.sealane.engine.dispose()
    assert response.status_code == 200
    assert len(response.json()["data"]["attributes"]["positions"]) == 1


def test_accounts_create__without_routing_flag_403(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    key = create(capsys, url)
    app = make_app(url)
    with TestClient(app) as client:
        ports = client.get("/v2/ports/NLRTM", headers=auth(key))
        routing = client.get(
            "/v2/vessels/x/future_positions?port_id=NLRTM&previous_port_id=BEANR",
            headers=auth(key),
        )
    app.state.sealane.engine.dispose()
    assert ports.status_code == 200
    assert_error(routing, 403, code="routing_disabled")


def test_accounts_create__key_stored_as_sha256_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    key = create(capsys, url, "--routing")
    app = make_app(url)
    with app.state.sealane.sessions() as session:
        stored = session.scalars(select(ApiKey)).one()
    app.state.sealane.engine.dispose()
    assert stored.key_hash == hashlib.sha256(key.encode()).hexdigest()
    for path in tmp_path.iterdir():  # the database and any -wal/-journal beside it
        data = path.read_bytes()
        assert key.encode() not in data
        assert key.removeprefix("sl_").encode() not in data


def test_accounts_create__two_accounts_get_different_keys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    assert create(capsys, url) != create(capsys, url)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``sealane accounts ...`` in this process: exit status, stdout and stderr."""
    code = cli.main(["accounts", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def status_of(url: str, key: str, path: str = "/v2/ports/NLRTM") -> int:
    """The status of one API request with ``key`` on a fresh app (no key cache)."""
    app = make_app(url, auth_cache_seconds=0)
    with TestClient(app) as client:
        status = client.get(path, headers=auth(key)).status_code
    app.state.sealane.engine.dispose()
    return status


def test_accounts_keys__issue_list_revoke(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    first = create(capsys, url)
    _, listing, _ = run_cli(capsys, "list", "--database", url)
    account_id = listing.split()[0]
    code, out, _ = run_cli(capsys, "issue-key", account_id, "--database", url)
    second = out.strip().splitlines()[-1]
    assert code == 0 and second.startswith("sl_") and second != first
    assert status_of(url, first) == status_of(url, second) == 200

    code, out, _ = run_cli(capsys, "revoke-key", first[:10], "--database", url)
    assert code == 0 and "revoked" in out
    assert "SEALANE_AUTH_CACHE_SECONDS" in out  # says a server may accept it a little longer
    assert status_of(url, first) == 401
    assert status_of(url, second) == 200
    _, listing, _ = run_cli(capsys, "list", "--database", url)
    assert "Acme Freight  routing off, ingest off" in listing
    assert listing.count("revoked") == 1 and listing.count("active") == 1
    assert first not in listing and second not in listing  # secrets are never shown again


def test_accounts_routing__switches_the_feature(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    key = create(capsys, url)
    path = "/v2/vessels/x/future_positions?port_id=NLRTM&previous_port_id=BEANR"
    assert status_of(url, key, path) == 403
    account_id = run_cli(capsys, "list", "--database", url)[1].split()[0]
    assert run_cli(capsys, "routing", account_id, "on", "--database", url)[0] == 0
    assert status_of(url, key, path) == 404  # admitted: the vessel is unknown
    assert run_cli(capsys, "routing", account_id, "off", "--database", url)[0] == 0
    assert status_of(url, key, path) == 403


def test_accounts_ingest__switches_the_permission(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    create(capsys, url)
    account_id = run_cli(capsys, "list", "--database", url)[1].split()[0]
    code, out, _ = run_cli(capsys, "ingest", account_id, "on", "--database", url)
    assert code == 0 and out.strip().endswith("ingest on")
    assert "routing off, ingest on" in run_cli(capsys, "list", "--database", url)[1]


@pytest.mark.parametrize(
    "argv",
    [
        ("issue-key", "no-such-account"),
        ("revoke-key", "sl_nothing"),
        ("routing", "x", "on"),
        ("ingest", "x", "off"),
    ],
)
def test_accounts__unknown_ids_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    create(capsys, url)
    code, _, err = run_cli(capsys, *argv, "--database", url)
    assert code == 2
    assert err.startswith("sealane: error: no ") and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
