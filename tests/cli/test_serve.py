"""``sealane serve --workers N``, ``--no-background``, ``sealane worker --once`` and
``sealane migrate``, run in process with uvicorn replaced by a recorder (the real processes are
started by tests/test_processes_pg.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from sealane.cli import commands as cli
from sealane.cli import serve as cli_serve
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.models import Vessel, VesselPosition
from tests.store.conftest import fresh_postgres_url, postgres_admin, postgres_url

__all__ = ["fresh_postgres_url", "postgres_admin", "postgres_url"]


@pytest.fixture
def served(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[list[tuple[Any, dict[str, Any]]]]:
    """What ``uvicorn.run`` would have served, and how; the apps' runtimes are stopped."""
    import uvicorn

    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append((app, options)))
    monkeypatch.setattr("sys.setswitchinterval", lambda _interval: None)
    for name in ("SEALANE_DATABASE_URL", "SEALANE_BASE_URL"):
        monkeypatch.delenv(name, raising=False)  # restored after: serve --workers sets them
    yield calls
    for app, _ in calls:
        if not isinstance(app, str):
            app.state.sealane.stop()
            app.state.sealane.engine.dispose()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'sealane.db'}"


def test_serve__several_workers_on_sqlite_is_refused(
    capsys: pytest.CaptureFixture[str], served: list[Any], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "serve", "--workers", "2", "--database", sqlite(tmp_path))
    assert code == 2
    assert "--workers 2 needs PostgreSQL" in err
    assert err.count("\n") == 1
    assert served == []


def test_serve__no_workers_is_refused(
    capsys: pytest.CaptureFixture[str], served: list[Any], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "serve", "--workers", "0", "--database", sqlite(tmp_path))
    assert (code, err) == (2, "sealane: error: --workers must be 1 or more, got 0\n")


# tracking, webhook delivery and the positions' job (partitions ahead, retention)
@pytest.mark.parametrize(("flags", "pollers"), [((), 3), (("--no-background",), 0)])
def test_serve__one_process_runs_the_background_work_unless_told_not_to(
    served: list[tuple[Any, dict[str, Any]]], tmp_path: Path, flags: tuple[str, ...], pollers: int
) -> None:
    assert cli.main(["serve", "--database", sqlite(tmp_path), *flags]) == 0
    [(app, options)] = served
    assert len(app.state.sealane.pollers) == pollers
    assert "workers" not in options


def test_serve__workers_migrate_once_then_serve_the_factory_without_background(
    capsys: pytest.CaptureFixture[str],
    served: list[tuple[Any, dict[str, Any]]],
    fresh_postgres_url: str,
    tmp_path: Path,
) -> None:
    code, _, err = run(
        capsys, "serve", "--workers", "3", "--port", "8123", "--database", fresh_postgres_url
    )
    assert code == 0
    assert "run `sealane worker`" in err
    [(target, options)] = served
    assert target == "sealane.cli.serve:served_app"
    assert (options["workers"], options["factory"], options["port"]) == (3, True, 8123)
    app = cli_serve.served_app()  # what each of the three processes builds, from the environment
    try:
        runtime = app.state.sealane
        assert runtime.settings.database_url == fresh_postgres_url
        assert runtime.settings.base_url == "http://127.0.0.1:8123/v2"
        assert runtime.pollers == []
        assert runtime.background == []
    finally:
        app.state.sealane.stop()
        app.state.sealane.engine.dispose()


def test_migrate_then_worker_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "migrate", "--database", sqlite(tmp_path))[:2] == (
        0,
        "the database is up to date\n",
    )
    code, out, _ = run(capsys, "worker", "--once", "--database", sqlite(tmp_path))
    assert (code, out) == (0, "0 lookups, 0 syncs, 0 delivery attempts\n")


def test_worker_once__removes_positions_past_the_retention(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, "migrate", "--database", sqlite(tmp_path))[0] == 0
    engine = make_engine(sqlite(tmp_path))
    now = datetime.now(UTC)
    with transaction(session_factory(engine)) as session:
        vessel = Vessel(name="Kept a while")
        session.add(vessel)
        session.flush()
        for age in (400, 10):
            session.add(
                VesselPosition(
                    vessel_id=vessel.id,
                    latitude=50.0,
                    longitude=0.0,
                    timestamp=now - timedelta(days=age),
                )
            )
    monkeypatch.setenv("SEALANE_POSITION_RETENTION_DAYS", "365")
    code, out, _ = run(capsys, "worker", "--once", "--database", sqlite(tmp_path))
    assert code == 0
    assert out.splitlines()[1] == "positions removed: 0 monthly partitions, 1 rows one by one"
    with session_factory(engine)() as session:
        assert session.scalar(select(func.count()).select_from(VesselPosition)) == 1
    engine.dispose()


def test_processes_starting_together_migrate_one_at_a_time(fresh_postgres_url: str) -> None:
    """Three starts on one fresh PostgreSQL schema at once (as ``serve --workers`` beside
    workers would) all bring it up: each waits for the advisory lock, where Alembic's upgrades
    run together fail or wait on each other's tables (the threads are given 3 minutes)."""
    from sealane.config import Settings
    from sealane.runtime import prepare_database

    barrier = threading.Barrier(3)
    failures: list[BaseException] = []

    def start() -> None:
        barrier.wait()
        try:
            prepare_database(Settings(database_url=fresh_postgres_url))
        except BaseException as failure:
            failures.append(failure)

    starts = [threading.Thread(target=start, daemon=True) for _ in range(3)]
    for thread in starts:
        thread.start()
    deadline = time.monotonic() + 180
    for thread in starts:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    assert [thread.is_alive() for thread in starts] == [False] * 3
    assert failures == []
