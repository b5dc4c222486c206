"""Many vessels at once: ETAs, positions ahead and port arrivals from a table (``sealane[fleet]``).

A table has one row per vessel: ``lon`` and ``lat`` (degrees; a GeoDataFrame's point geometry
instead), ``previous_port`` and ``destination_port`` (LOCODE or port id), and optionally
``speed_kn`` (knots; missing or under 1 kn: the engine's service speed), ``timestamp`` (the
time of the position; missing: ``at``, else now) and the vessel's ``draft_m``, ``beam_m`` and
``length_m`` (metres, passed on to the engine). Each row's answer is the
engine's: its ETA is ``sealane.future_positions(...).eta`` for that row, to the millisecond,
without placing a position a minute. A row the engine refuses (unknown port, position inland,
no sea route, ...) gets a null ETA and the engine's error ``code`` in ``error``; the others go
on. The work shared by the rows of a port pair (its leg's route and measures) is done once.

Inputs: a pandas DataFrame (a DataFrame back, same index), a pyarrow Table (a Table back), a
GeoDataFrame (geometry kept) or a Dask DataFrame (a lazy Dask DataFrame back, computed partition
by partition; each worker process loads the engine once, see :func:`warm_workers`). Reading and
writing Parquet or GeoParquet is the libraries' own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import numpy as np
import pandas as pd

import sealane

from . import _engine, _tables
from ._batch import Sailed, sail
from ._positions import place_at, place_on_route
from ._profile import Zoned, extra_seconds
from ._tracks import STEP_MS, step_m

Table = TypeVar("Table")

#: Columns :func:`etas` adds: remaining distance (nm), hours to go, ETA (UTC), its range (P10 and
#: P90, UTC: ``sealane.Positions.eta_range``), passages, error.
ETA_COLUMNS = (
    "distance_remaining_nm", "duration_h", "eta", "eta_p10", "eta_p90", "passages", "error",
)  # fmt: skip
#: Columns :func:`positions_at` adds: hours ahead, the position's time (UTC), lon/lat and heading
#: (degrees), whether the vessel has arrived by then, error.
POSITION_COLUMNS = (
    "hours_ahead", "position_time", "position_lon", "position_lat", "heading_deg", "arrived",
    "error",
)  # fmt: skip


def etas(frame: Table, *, at: datetime | None = None, speed_kn: float | None = None) -> Table:
    """Each vessel's remaining distance, hours to go, ETA with its range (``eta_p10``,
    ``eta_p90``: ``sealane.Positions.eta_range`` of the row), passages and error code.

    ``at`` times the rows without a ``timestamp`` (default now); ``speed_kn`` is the speed of
    rows without one (default the engine's 14 kn). Same rows, same order, input columns kept.

    >>> frame = pd.DataFrame({"lon": [60.1, 10.0], "lat": [12.3, 50.0],
    ...                       "previous_port": "CNSHA", "destination_port": "NLRTM"})
    >>> out = etas(frame, at=datetime(2026, 1, 1, tzinfo=UTC), speed_kn=18)
    >>> float(out.distance_remaining_nm.iloc[0].round(1)), str(out.eta.iloc[0])
    (5661.1, '2026-01-14 18:47:26.657000+00:00')
    >>> bool(out.eta_p10.iloc[0] <= out.eta.iloc[0] <= out.eta_p90.iloc[0])
    True
    >>> out.error.iloc[1], bool(out.eta.isna().iloc[1])
    ('on_land', True)
    """
    moment = _moment(at)
    if _tables.is_dask(frame):
        from ._dask import map_partitions

        return map_partitions(frame, _etas_of, at=moment, speed_kn=speed_kn)  # type: ignore[no-any-return]
    return _etas_of(frame, at=moment, speed_kn=speed_kn)  # type: ignore[no-any-return]


def _etas_of(frame: Any, *, at: datetime, speed_kn: float | None) -> Any:
    vessels = _tables.vessels(_tables.as_pandas(frame), at)
    done = sail(vessels, default_speed_kn=speed_kn)
    return _tables.with_columns(frame, _eta_columns(done, vessels.time_ms), None)


def _eta_columns(done: Sailed, time_ms: np.ndarray[Any, Any]) -> dict[str, Any]:
    ok = done.eta_ms >= 0
    to_go_ms = np.where(ok, done.eta_ms - time_ms, 0).astype(np.float64)
    passages = np.array([len(p) if p is not None else 0 for p in done.passages], dtype=float)
    low_s, high_s = _engine.eta_offsets_s(to_go_ms / 1000.0, done.distance_m / 1852.0, passages)
    # As Positions.eta_range: each bound on its side of the ETA, to the millisecond.
    p10_ms = np.minimum(time_ms + np.round(low_s * 1000.0), done.eta_ms)
    p90_ms = np.maximum(time_ms + np.round(high_s * 1000.0), done.eta_ms)

    def instants(ms: np.ndarray[Any, Any]) -> pd.Series:
        moments = pd.to_datetime(np.where(ok, ms, 0).astype(np.int64), unit="ms", utc=True)
        return pd.Series(moments).where(ok).astype("datetime64[ms, UTC]")

    return {
        "distance_remaining_nm": done.distance_m / 1852.0,
        "duration_h": np.where(ok, (done.eta_ms - time_ms) / 3_600_000.0, np.nan),
        "eta": instants(done.eta_ms),
        "eta_p10": instants(p10_ms),
        "eta_p90": instants(p90_ms),
        "passages": [list(p) if p is not None else None for p in done.passages],
        "error": pd.array(done.errors, dtype=pd.StringDtype()),
    }


def positions_at(
    frame: Table,
    hours: Sequence[float],
    *,
    at: datetime | None = None,
    speed_kn: float | None = None,
) -> Table:
    """Each vessel's position, heading and time ``hours`` ahead of its position's time: one
    row per vessel and horizon (vessel by vessel), each the matching position of
    ``sealane.future_positions`` (the last whole minute at or before that time; the destination
    at the ETA once arrived). Input columns kept; a refused row has nulls and its error.
    """
    horizons = [float(h) for h in hours]
    if not horizons or not all(np.isfinite(h) and h >= 0 for h in horizons):
        raise ValueError(f"hours must be one or more finite numbers >= 0, got {hours!r}")
    moment = _moment(at)
    if _tables.is_dask(frame):
        from ._dask import map_partitions

        return map_partitions(  # type: ignore[no-any-return]
            frame, _positions_of, at=moment, speed_kn=speed_kn, hours=horizons
        )
    return _positions_of(frame, at=moment, speed_kn=speed_kn, hours=horizons)  # type: ignore[no-any-return]


def _positions_of(frame: Any, *, at: datetime, speed_kn: float | None, hours: list[float]) -> Any:
    vessels = _tables.vessels(_tables.as_pandas(frame), at)
    done = sail(vessels, default_speed_kn=speed_kn, keep_tracks=True)
    n, m = len(vessels), len(hours)
    steps = np.array([round(h * 3_600_000) // STEP_MS for h in hours], dtype=np.int64)
    lons, lats, headings = np.full(n * m, np.nan), np.full(n * m, np.nan), np.full(n * m, np.nan)
    times = np.full(n * m, -1, dtype=np.int64)
    arrived = np.zeros(n * m, dtype=object)
    arrived[:] = None
    extra = extra_seconds(Zoned(done.zone_m, done.waits_s), np.nan_to_num(done.speed_kn, nan=1.0))
    for row, track in done.tracks.items():
        speed = float(done.speed_kn[row])
        eta = int(done.eta_ms[row] - vessels.time_ms[row])
        if extra[row] > 0.0:  # on the speed profile: placed on the engine's own remaining route
            placed = place_on_route(track, vessels, row, speed, eta, steps)
        else:
            placed = place_at(track, float(step_m(np.array([speed]))[0]), eta, steps)
        span = slice(row * m, row * m + m)
        lons[span], lats[span], headings[span] = placed.lons, placed.lats, placed.headings_deg
        times[span] = vessels.time_ms[row] + placed.offsets_ms
        arrived[span] = placed.arrived.tolist()
    ok = times >= 0
    when = pd.to_datetime(np.where(ok, times, 0), unit="ms", utc=True)
    columns = {
        "hours_ahead": np.tile(np.asarray(hours, dtype=np.float64), n),
        "position_time": pd.Series(when).where(ok).astype("datetime64[ms, UTC]"),
        "position_lon": lons,
        "position_lat": lats,
        "heading_deg": headings,
        "arrived": pd.array(arrived.tolist(), dtype="boolean"),
        "error": pd.array([e for e in done.errors for _ in range(m)], dtype=pd.StringDtype()),
    }
    return _tables.with_columns(frame, columns, np.repeat(np.arange(n), m))


def arrivals(
    frame: Table,
    port: str | sealane.Port,
    *,
    after: datetime | None = None,
    before: datetime | None = None,
    at: datetime | None = None,
    speed_kn: float | None = None,
) -> Table:
    """The vessels bound for ``port`` (LOCODE, id or Port) whose ETA falls in
    [``after``, ``before``), by ETA: :func:`etas`' columns for those rows only (rows the
    engine refuses are left out; :func:`etas` shows them with their error)."""
    target = port if isinstance(port, sealane.Port) else sealane.get_port(port)
    moment = _moment(at)
    window = (_moment(after) if after else None, _moment(before) if before else None)
    if _tables.is_dask(frame):
        from ._dask import map_partitions

        bound = map_partitions(
            frame, _arrivals_of, at=moment, speed_kn=speed_kn, port=target.id, window=window
        )
        return bound.sort_values("eta")  # type: ignore[no-any-return]
    return _arrivals_of(  # type: ignore[no-any-return]
        frame, at=moment, speed_kn=speed_kn, port=target.id, window=window
    )


def _arrivals_of(
    frame: Any,
    *,
    at: datetime,
    speed_kn: float | None,
    port: str,
    window: tuple[datetime | None, datetime | None],
) -> Any:
    table = _tables.as_pandas(frame)
    keys = _tables.vessels(table, at).destination
    ids = {key: _port_id(key) for key in set(keys.tolist())}
    bound = np.flatnonzero([ids[key] == port for key in keys.tolist()])
    rows = _tables.take(frame, bound)
    out = _etas_of(rows, at=at, speed_kn=speed_kn)
    eta = _tables.as_pandas_column(out, "eta")
    keep = eta.notna()
    if window[0] is not None:
        keep &= eta >= window[0]
    if window[1] is not None:
        keep &= eta < window[1]
    order = np.flatnonzero(keep.to_numpy())
    order = order[np.argsort(eta.to_numpy()[order], kind="stable")]
    return _tables.take(out, order)


def _port_id(key: object) -> str | None:
    try:
        return sealane.get_port(key).id if isinstance(key, str) else None
    except sealane.UnknownPortError:
        return None


def warm_workers(client: Any) -> None:
    """Load the engine (network, land mask, ports) once on every worker of a
    ``dask.distributed`` client, now and on workers that join later."""
    from ._dask import warm_workers as register

    register(client)


def _moment(at: datetime | None) -> datetime:
    """``at`` as an aware UTC datetime (a naive one taken as UTC), or now."""
    if at is None:
        return datetime.now(UTC)
    if not isinstance(at, datetime):
        raise sealane.RoutingError(f"expected a datetime, got {at!r}")
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


load_count = _engine.load_count

__all__ = ["ETA_COLUMNS", "POSITION_COLUMNS", "arrivals", "etas", "positions_at", "warm_workers"]
