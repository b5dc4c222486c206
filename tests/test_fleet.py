"""sealane.fleet: every input kind, each row against the single-vessel engine calls, bad rows
flagged while the others are computed, and Dask on a two-process cluster."""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import geopandas as gpd
import pandas as pd
import pyarrow as pa
import pytest

import sealane
from sealane import fleet

T0 = datetime(2026, 3, 1, 6, 30, 15, 123456, tzinfo=UTC)
PAIRS = [
    ("CNSHA", "NLRTM"), ("SGSIN", "USLAX"), ("NLRTM", "USNYC"), ("JPTYO", "AUSYD"),
    ("USNYC", "BRSSZ"), ("DEHAM", "NOOSL"), ("AEJEA", "INNSA"), ("USLAX", "CNSHA"),
]  # fmt: skip
#: Rows the engine refuses, and the code each gets.
BAD = [
    ({"lon": 10.0, "lat": 50.0, "previous_port": "CNSHA", "destination_port": "NLRTM"},
     "on_land"),
    ({"lon": 14.42, "lat": 50.08, "previous_port": "DEHAM", "destination_port": "NLRTM"},
     "on_land"),  # Prague: near a port, but one flagged inland
    ({"lon": 6.76, "lat": 51.43, "previous_port": "DEHAM", "destination_port": "NLRTM"},
     "on_land"),  # Duisburg, likewise
    ({"lon": 3.5, "lat": 51.8, "previous_port": "GBFXT", "destination_port": "DEDUI"},
     "no_route"),  # bound for a port flagged inland: no sea route reaches it
    ({"lon": 60.0, "lat": 12.0, "previous_port": "XXXXX", "destination_port": "NLRTM"},
     "unknown_port"),
    ({"lon": 60.0, "lat": 12.0, "previous_port": "CNSHA", "destination_port": None},
     "invalid_coordinate"),
    ({"lon": 260.0, "lat": 12.0, "previous_port": "CNSHA", "destination_port": "NLRTM"},
     "invalid_coordinate"),
    ({"lon": 60.0, "lat": 12.0, "previous_port": "CNSHA", "destination_port": "NLRTM",
      "speed_kn": float("inf")}, "invalid_speed"),
]  # fmt: skip


def _fleet(per_pair: int, seed: int) -> pd.DataFrame:
    """Vessels on real legs: the engine's own positions at random minutes of each pair's
    voyage (on the lane), some moved a little off it, with a mix of speeds and times."""
    rng = random.Random(seed)
    rows = []
    for previous, destination in PAIRS:
        track = sealane.future_positions(
            sealane.get_port(previous).coordinates, previous, destination, speed_kn=20,
            start_time=T0,
        )  # fmt: skip
        for _ in range(per_pair):
            j = rng.randrange(len(track))
            off = rng.choice([0.0, 0.0, 0.02, 0.3])
            rows.append({
                "lon": float(track.lons[j]) + rng.uniform(-off, off),
                "lat": float(track.lats[j]) + rng.uniform(-off, off),
                "previous_port": previous,
                "destination_port": rng.choice([destination, sealane.get_port(destination).id]),
                "speed_kn": rng.choice([None, 0.4, 11.5, 18.0, 22.3]),
                "timestamp": rng.choice([None, T0 + timedelta(seconds=rng.uniform(0, 86400))]),
            })  # fmt: skip
    return pd.DataFrame(rows)


#: A vessel at sea whose previous port is flagged inland (Duisburg): no sea leg leaves it, so it
#: is routed on its own from where it is, by the fleet as by ``future_positions``.
FROM_INLAND = {"lon": 3.5, "lat": 51.8, "previous_port": "DEDUI", "destination_port": "GBFXT"}


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    good = pd.concat([_fleet(12, seed=7), pd.DataFrame([FROM_INLAND])], ignore_index=True)
    bad = pd.DataFrame([row for row, _ in BAD])
    return pd.concat([good, bad], ignore_index=True).set_index(
        pd.Index(range(1000, 1000 + len(good) + len(bad)))
    )


def _single(row: pd.Series, **extra: object) -> sealane.Positions:
    """The engine's answer for one row, called as a user would."""
    speed = None if pd.isna(row.speed_kn) else float(row.speed_kn)
    start = T0 if pd.isna(row.timestamp) else pd.Timestamp(row.timestamp).to_pydatetime()
    return sealane.future_positions(
        (row.lon, row.lat), row.previous_port, row.destination_port, speed_kn=speed,
        start_time=start, **extra,
    )  # fmt: skip


def test_etas__equal_future_positions_row_by_row(frame: pd.DataFrame) -> None:
    out = fleet.etas(frame, at=T0)
    assert list(out.index) == list(frame.index)
    good = out[out.error.isna()]
    assert len(good) == len(frame) - len(BAD)
    for _, row in good.iterrows():
        p = _single(row)
        assert row.eta == pd.Timestamp(p.eta), row
        assert row.distance_remaining_nm == p.distance_remaining_nm
        assert tuple(row.passages) == p.route.passages
        assert row.duration_h == pytest.approx((p.eta - p.start_time).total_seconds() / 3600)
        p10, p90 = p.eta_range  # the engine's range, to the millisecond the columns keep
        assert abs(row.eta_p10 - pd.Timestamp(p10)) <= pd.Timedelta(1, "ms"), row
        assert abs(row.eta_p90 - pd.Timestamp(p90)) <= pd.Timedelta(1, "ms"), row
        assert row.eta_p10 <= row.eta < row.eta_p90


def test_etas__range_ordered_on_a_dask_frame(frame: pd.DataFrame) -> None:
    """A Dask frame (its default scheduler, no cluster) gets the same range columns, ordered
    around the ETA; a refused row has none."""
    dd = pytest.importorskip("dask.dataframe")
    out = fleet.etas(dd.from_pandas(frame, npartitions=3), at=T0).compute()
    good, bad = out[out.error.isna()], out[out.error.notna()]
    assert (good.eta_p10 <= good.eta).all() and (good.eta <= good.eta_p90).all()
    assert (good.eta_p90 > good.eta_p10).all()
    assert bad.eta_p10.isna().all() and bad.eta_p90.isna().all()
    assert out.eta_p10.dtype == out.eta_p90.dtype == "datetime64[ms, UTC]"
    plain = fleet.etas(frame, at=T0)
    assert out.eta_p90.tolist() == plain.eta_p90.tolist()


def test_etas__bad_rows_flagged_and_others_computed(frame: pd.DataFrame) -> None:
    out = fleet.etas(frame, at=T0)
    flagged = out.tail(len(BAD))
    assert flagged.error.tolist() == [code for _, code in BAD]
    assert flagged.eta.isna().all()
    assert flagged.distance_remaining_nm.isna().all()
    assert out.head(len(out) - len(BAD)).eta.notna().all()
    for (row, code), (_, got) in zip(BAD, flagged.iterrows(), strict=True):
        with pytest.raises(sealane.RoutingError) as raised:
            sealane.future_positions(
                (row["lon"], row["lat"]), row["previous_port"], row["destination_port"],
                speed_kn=row.get("speed_kn"),
            )  # fmt: skip
        assert raised.value.code == code == got.error


def test_etas__defaults_speed_and_time() -> None:
    frame = pd.DataFrame({"lon": [60.1], "lat": [12.3], "previous_port": ["CNSHA"],
                          "destination_port": ["NLRTM"]})  # fmt: skip
    out = fleet.etas(frame, at=T0, speed_kn=17.0)
    p = sealane.future_positions((60.1, 12.3), "CNSHA", "NLRTM", speed_kn=17.0, start_time=T0)
    assert out.eta.iloc[0] == pd.Timestamp(p.eta)
    assert fleet.etas(frame).eta.iloc[0] > pd.Timestamp(T0)  # now


def test_etas__arrow_table_in_table_out(frame: pd.DataFrame) -> None:
    table = pa.Table.from_pandas(frame.head(40), preserve_index=False)
    out = fleet.etas(table, at=T0)
    assert isinstance(out, pa.Table)
    assert out.column_names == table.column_names + list(fleet.ETA_COLUMNS)
    assert out.schema.field("eta").type == pa.timestamp("ms", tz="UTC")
    expected = fleet.etas(frame.head(40).reset_index(drop=True), at=T0)
    assert out.column("eta").to_pandas().equals(expected.eta)


def test_etas__geodataframe_keeps_geometry(frame: pd.DataFrame) -> None:
    head = frame.head(30)
    geo = gpd.GeoDataFrame(
        head.drop(columns=["lon", "lat"]), geometry=gpd.points_from_xy(head.lon, head.lat),
        crs="EPSG:4326",
    )  # fmt: skip
    out = fleet.etas(geo, at=T0)
    assert isinstance(out, gpd.GeoDataFrame)
    assert out.geometry.equals(geo.geometry)
    assert out.eta.equals(fleet.etas(head, at=T0).eta)
    mercator = fleet.etas(geo.to_crs("EPSG:3857"), at=T0)
    assert (mercator.eta - out.eta).abs().max() <= pd.Timedelta(seconds=1)


def test_etas__missing_column_is_named() -> None:
    with pytest.raises(ValueError, match="destination_port"):
        fleet.etas(pd.DataFrame({"lon": [1.0], "lat": [1.0], "previous_port": ["NLRTM"]}))


def test_etas__empty_frame() -> None:
    empty = pd.DataFrame({"lon": [], "lat": [], "previous_port": [], "destination_port": []})
    out = fleet.etas(empty, at=T0)
    assert len(out) == 0
    assert list(out.columns)[-len(fleet.ETA_COLUMNS) :] == list(fleet.ETA_COLUMNS)


@pytest.mark.skipif(
    not {"draft_m", "beam_m", "length_m"}
    <= set(inspect.signature(sealane.future_positions).parameters),
    reason="the engine does not take vessel dimensions yet (issue 28)",
)
def test_etas__vessel_dimensions_reach_the_engine() -> None:
    frame = pd.DataFrame({
        "lon": [60.1, 60.1, 60.1], "lat": [12.3, 12.3, 12.3],
        "previous_port": "CNSHA", "destination_port": "NLRTM",
        "draft_m": [21.0, None, 12.0], "beam_m": [None, None, 40.0],
        "length_m": [None, None, 300.0],
    })  # fmt: skip
    out = fleet.etas(frame, at=T0)
    assert "suez" not in out.passages.iloc[0] and "suez" in out.passages.iloc[1]
    assert fleet.etas(frame.assign(draft_m=50.0), at=T0).error.tolist() == ["invalid_vessel"] * 3
    for (_, row), extra in zip(out.iterrows(), [
        {"draft_m": 21.0}, {}, {"draft_m": 12.0, "beam_m": 40.0, "length_m": 300.0}
    ], strict=True):  # fmt: skip
        p = sealane.future_positions((60.1, 12.3), "CNSHA", "NLRTM", start_time=T0, **extra)
        assert row.eta == pd.Timestamp(p.eta)
        assert tuple(row.passages) == p.route.passages


def test_positions_at__matching_positions_of_future_positions(frame: pd.DataFrame) -> None:
    sample = frame.iloc[::5]
    hours = [0, 0.5, 1, 24, 24 * 7, 24 * 60]
    out = fleet.positions_at(sample, hours, at=T0)
    assert len(out) == len(sample) * len(hours)
    for i, (_, row) in enumerate(sample.iterrows()):
        chunk = out.iloc[i * len(hours) : (i + 1) * len(hours)]
        assert (chunk.index == row.name).all()
        if row.name in frame.tail(len(BAD)).index:
            assert chunk.error.notna().all() and chunk.position_lon.isna().all()
            continue
        p = _single(row)
        for (_, got), h in zip(chunk.iterrows(), hours, strict=True):
            k = min(int(h * 60), len(p) - 1)
            assert got.position_time == pd.Timestamp(p.times[k], tz="UTC")
            assert got.arrived == (k == len(p) - 1)
            assert got.position_lon == pytest.approx(p.lons[k], abs=1e-7)  # 1 cm
            assert got.position_lat == pytest.approx(p.lats[k], abs=1e-7)
            turn = (got.heading_deg - p.headings_deg[k] + 180) % 360 - 180
            assert abs(turn) < 1e-5


def test_positions_at__rejects_negative_hours(frame: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="hours"):
        fleet.positions_at(frame, [-1])


def test_arrivals__bound_for_the_port_by_eta(frame: pd.DataFrame) -> None:
    after, before = T0 + timedelta(days=2), T0 + timedelta(days=20)
    board = fleet.arrivals(frame, "NLRTM", after=after, before=before, at=T0)
    everyone = fleet.etas(frame, at=T0)
    port_id = sealane.get_port("NLRTM").id
    bound = everyone[everyone.destination_port.isin(["NLRTM", port_id]) & everyone.eta.notna()]
    expected = bound[(bound.eta >= after) & (bound.eta < before)].sort_values("eta", kind="stable")
    assert len(board) > 0
    assert list(board.index) == list(expected.index)
    assert board.eta.is_monotonic_increasing
    for _, row in board.iterrows():
        assert row.eta == pd.Timestamp(_single(row).eta)
    table = fleet.arrivals(pa.Table.from_pandas(frame), "nlrtm", after=after, before=before, at=T0)
    assert table.column("eta").to_pylist() == board.eta.tolist()


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A two-process local cluster, one thread each, no dashboard."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.mark.slow
def test_dask__two_processes_give_the_pandas_answers(frame: pd.DataFrame, client: Any) -> None:
    dd = pytest.importorskip("dask.dataframe")
    lazy = dd.from_pandas(frame, npartitions=6)
    etas = fleet.etas(lazy, at=T0)
    assert isinstance(etas, dd.DataFrame)
    # Dask keeps strings as Arrow strings (missing: NA, not NaN); the values are the same.
    same = {"check_dtype": False}
    pd.testing.assert_frame_equal(etas.compute(), fleet.etas(frame, at=T0), **same)
    assert etas.compute().eta.dtype == "datetime64[ms, UTC]"
    hours = [0, 24]
    pd.testing.assert_frame_equal(
        fleet.positions_at(lazy, hours, at=T0).compute(),
        fleet.positions_at(frame, hours, at=T0),
        **same,
    )
    board = fleet.arrivals(lazy, "NLRTM", at=T0).compute()
    assert board.index.tolist() == fleet.arrivals(frame, "NLRTM", at=T0).index.tolist()
    # Six partitions and three computations, yet each worker process loaded the engine once.
    loads = client.run(_engine_loads)
    assert len(loads) == 2
    assert all(count == (1, 1) for count in loads.values()), loads


def _engine_loads() -> tuple[int, int]:
    """In a worker: how often the fleet warmed the engine, and how often the engine's network
    was read from its file (the graph's cache misses)."""
    from sealane.fleet import _engine
    from sealane.routing.graph import default_graph

    return _engine.load_count(), default_graph.cache_info().misses


def test_etas__in_the_suez_canal_is_afloat() -> None:
    """A real position in the canal, a land cell of the mask, is a vessel under way."""
    frame = pd.DataFrame(
        {"lon": [32.3244], "lat": [30.657], "previous_port": "SGSIN", "destination_port": "NLRTM"}
    )
    out = fleet.etas(frame, at=T0, speed_kn=14)
    assert pd.isna(out.error.iloc[0])
    single = sealane.future_positions((32.3244, 30.657), "SGSIN", "NLRTM", start_time=T0)
    assert out.distance_remaining_nm.iloc[0] == pytest.approx(single.distance_remaining_nm, 1e-6)
