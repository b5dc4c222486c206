"""A vessel's own speed from its stored positions (``service/reference/vessel_speed.py``), on
SQLite and PostgreSQL: observed at sea over the last hours (port, drifting and stale positions
left out), else reported, else the default; and the future positions that sail at it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import text

from sealane import get_port
from sealane.service.core.errors import InvalidInput
from sealane.service.reference.vessel_speed import choose_speed, recent_positions
from sealane.service.reference.vessels import vessel_future_positions
from sealane.store.database import transaction
from sealane.store.models import Vessel, VesselPosition
from tests.toolkit import START

from ..conftest import World, make_world


@pytest.fixture(scope="module")
def world(module_database: str) -> Iterator[World]:
    made = make_world(module_database)
    yield made
    made.runtime.stop()
    made.runtime.engine.dispose()


def add_vessel(world: World, imo: str, speed: float | None = 18.0) -> str:
    with transaction(world.runtime.sessions) as session:
        ship = Vessel(
            name=f"Speed {imo}", imo=imo, latitude=12.3, longitude=60.1,
            nautical_speed_knots=speed, position_timestamp=START,
        )  # fmt: skip
        session.add(ship)
        session.flush()
        return ship.id


def add_positions(
    world: World, vessel_id: str, rows: list[tuple[float, float, float, float]]
) -> None:
    """Positions of (minutes before START, lon, lat, speed over ground)."""
    with transaction(world.runtime.sessions) as session:
        for minutes, lon, lat, sog in rows:
            session.add(
                VesselPosition(
                    vessel_id=vessel_id,
                    longitude=lon,
                    latitude=lat,
                    speed_knots=sog,
                    timestamp=START - timedelta(minutes=minutes),
                )
            )


def at_sea(minutes: float, sog: float) -> tuple[float, float, float, float]:
    return (minutes, 60.1 - minutes / 600, 12.3, sog)


def test_speed__observed_leaves_out_port_drifting_and_stale(world: World) -> None:
    vessel = add_vessel(world, "9500001")
    rotterdam = get_port("NLRTM")
    add_positions(
        world,
        vessel,
        [at_sea(m, s) for m, s in ((30, 15.0), (60, 16.0), (90, 17.0), (120, 16.0))]
        + [at_sea(m, 0.4) for m in (150, 180, 210)]  # drifting
        + [(m, rotterdam.lon, rotterdam.lat, 21.0) for m in (240, 250, 260, 270)]  # in port
        + [at_sea(m, 25.0) for m in (400, 420, 440, 460)],  # more than six hours ago
    )
    with world.runtime.context.reading() as session:
        speed = choose_speed(session, vessel, now=START, reported_kn=18.0)
    assert (speed.knots, speed.source, speed.positions) == (16.0, "observed", 4)
    assert speed.since == START - timedelta(minutes=120) and speed.until == START - timedelta(
        minutes=30
    )
    meta = speed.meta()
    assert meta["source"] == "observed" and meta["window_hours"] == 6.0
    assert 0 < meta["variability"] < 0.1

    found = vessel_future_positions(
        world.runtime.context, world.routing, vessel, previous_port="CNSHA",
        destination_port="NLRTM",
    )  # fmt: skip
    assert found.positions.speed_kn == 16.0
    assert found.positions.speed_source == "observed"
    assert found.positions.speed_variability == pytest.approx(meta["variability"], abs=1e-3)
    answer = found.meta()
    assert answer["speed"]["source"] == "observed"
    assert answer["eta_p10"] <= answer["eta"] < answer["eta_p90"]


def test_speed__reported_then_default(world: World) -> None:
    reported = add_vessel(world, "9500002", speed=12.5)
    add_positions(world, reported, [at_sea(m, 0.3) for m in (10, 20, 30, 40)])  # at anchor
    silent = add_vessel(world, "9500003", speed=None)
    with world.runtime.context.reading() as session:
        first = choose_speed(session, reported, now=START, reported_kn=12.5)
        second = choose_speed(session, silent, now=START, reported_kn=None)
        stopped = choose_speed(session, silent, now=START, reported_kn=0.2)
    assert (first.knots, first.source) == (12.5, "reported")
    assert (second.knots, second.source) == (14.0, "default")
    assert stopped.source == "default"
    assert first.meta() == {"knots": 12.5, "source": "reported"}


def test_speed__given_wins_and_bad_is_refused(world: World) -> None:
    vessel = add_vessel(world, "9500004")
    add_positions(world, vessel, [at_sea(m, 19.0) for m in (10, 20, 30, 40)])
    ctx, caller = world.runtime.context, world.routing
    found = vessel_future_positions(
        ctx, caller, vessel, previous_port="CNSHA", destination_port="NLRTM", speed_kn=11.0
    )
    assert (found.positions.speed_kn, found.positions.speed_source) == (11.0, "given")
    assert found.meta()["speed"] == {"knots": 11.0, "source": "given"}
    for bad in (0.5, 61.0, float("nan"), float("inf")):
        with pytest.raises(InvalidInput) as raised:
            vessel_future_positions(
                ctx, caller, vessel, previous_port="CNSHA", destination_port="NLRTM",
                speed_kn=bad,
            )  # fmt: skip
        assert raised.value.field == "speed_kn"


def test_speed__query_uses_the_vessel_time_index(world: World) -> None:
    """The positions are read by a range scan of the (vessel_id, timestamp) index."""
    query = recent_positions("x", START - timedelta(hours=6), START)
    engine = world.runtime.engine
    compiled = query.compile(engine, compile_kwargs={"literal_binds": True})
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            plan = connection.execute(text(f"EXPLAIN QUERY PLAN {compiled}")).all()
            detail = " ".join(str(row[-1]) for row in plan)
        else:
            connection.execute(text("SET enable_seqscan = off"))  # a tiny table: ask for the plan
            plan = connection.execute(text(f"EXPLAIN {compiled}")).all()
            detail = " ".join(str(row[0]) for row in plan)
    # A search of an index on (vessel_id, timestamp): SQLite's "SEARCH ... USING INDEX
    # uq_vessel_positions_vessel_time (vessel_id=? AND timestamp>? ...)", PostgreSQL's "Index
    # Scan ... Index Cond: ((vessel_id)::text = 'x') AND ..." (on each partition, when the
    # table is partitioned by time).
    assert "index" in detail.lower() and "vessel_id" in detail and "timestamp" in detail, detail
    assert "SCAN vessel_positions" not in detail and "Seq Scan" not in detail, detail
