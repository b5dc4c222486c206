"""Reading a batch's columns from a pandas DataFrame, a GeoDataFrame or an Arrow table, and
writing results next to the input's own columns.

A GeoDataFrame's point geometry stands for ``lon``/``lat`` (in degrees: other CRSs are
transformed to WGS84 for reading, the frame's geometry is kept as it is). Missing optional
columns are missing values; missing required ones are an error naming them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._batch import Vessels
from ._engine import DIMENSIONS

#: The columns a batch must have (a GeoDataFrame's geometry stands for lon and lat).
REQUIRED = ("lon", "lat", "previous_port", "destination_port")


def is_arrow(frame: object) -> bool:
    """Whether ``frame`` is a pyarrow Table (without importing pyarrow for other inputs)."""
    return type(frame).__module__.startswith("pyarrow") and hasattr(frame, "schema")


def is_dask(frame: object) -> bool:
    """Whether ``frame`` is a Dask DataFrame (without importing dask for other inputs)."""
    return type(frame).__module__.startswith("dask") and hasattr(frame, "map_partitions")


def is_geo(frame: object) -> bool:
    """Whether ``frame`` is a GeoDataFrame with an active geometry column."""
    return type(frame).__module__.startswith("geopandas") and hasattr(frame, "geometry")


def as_pandas(frame: Any) -> pd.DataFrame:
    """The columns a batch reads, as a pandas DataFrame (an Arrow table is left as it is)."""
    if not is_arrow(frame):
        return frame
    read = {*REQUIRED, "speed_kn", "timestamp", *DIMENSIONS}
    return frame.select([name for name in frame.column_names if name in read]).to_pandas()


def vessels(frame: pd.DataFrame, at: datetime) -> Vessels:
    """The batch's columns of a pandas (or Geo) DataFrame; ``at`` times rows without a
    ``timestamp``."""
    lons, lats = _coordinates(frame)
    missing = [name for name in REQUIRED[2:] if name not in frame.columns]
    if missing:
        raise ValueError(f"the table has no column {', '.join(missing)} (needs {REQUIRED})")
    return Vessels(
        lons,
        lats,
        _keys(frame["previous_port"]),
        _keys(frame["destination_port"]),
        _floats(frame, "speed_kn"),
        _times_ms(frame, at),
        {name: _floats(frame, name) for name in DIMENSIONS if name in frame.columns},
    )


def _coordinates(frame: pd.DataFrame) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    if is_geo(frame):
        geometry = frame.geometry
        if geometry.crs is not None and not geometry.crs.equals("EPSG:4326"):
            geometry = geometry.to_crs("EPSG:4326")
        points = np.asarray(geometry.geom_type == "Point") & ~np.asarray(geometry.is_empty)
        lons, lats = np.full(len(frame), np.nan), np.full(len(frame), np.nan)
        lons[points] = np.asarray(geometry[points].x, dtype=np.float64)
        lats[points] = np.asarray(geometry[points].y, dtype=np.float64)
        return lons, lats
    missing = [name for name in REQUIRED[:2] if name not in frame.columns]
    if missing:
        raise ValueError(f"the table has no column {', '.join(missing)} (needs {REQUIRED})")
    return _floats(frame, "lon"), _floats(frame, "lat")


def _floats(frame: pd.DataFrame, name: str) -> npt.NDArray[np.float64]:
    """A numeric column as float64, missing (or absent) values as NaN."""
    if name not in frame.columns:
        return np.full(len(frame), np.nan)
    values = pd.to_numeric(frame[name], errors="coerce")
    return np.asarray(values.astype("float64").to_numpy(na_value=np.nan), dtype=np.float64)


def _keys(column: pd.Series) -> npt.NDArray[np.object_]:
    """Port keys as Python strings, ``None`` where missing."""
    out = np.empty(len(column), dtype=object)
    out[:] = [value if isinstance(value, str) else None for value in column.tolist()]
    return out


def _times_ms(frame: pd.DataFrame, at: datetime) -> npt.NDArray[np.int64]:
    """Each position's time as UTC milliseconds since the epoch (``timestamp``, a naive one
    taken as UTC, to the millisecond as the engine keeps it); ``at`` where missing."""
    fallback = np.datetime64(at.astimezone(UTC).replace(tzinfo=None), "ms").astype(np.int64)
    if "timestamp" not in frame.columns:
        return np.full(len(frame), fallback, dtype=np.int64)
    times = pd.to_datetime(frame["timestamp"], utc=True)
    millis = times.dt.tz_localize(None).to_numpy(dtype="datetime64[ms]").astype(np.int64)
    return np.where(times.isna().to_numpy(), fallback, millis).astype(np.int64)


def with_columns(frame: Any, columns: Mapping[str, Any], rows: npt.NDArray[np.int64] | None) -> Any:
    """``frame`` (its rows ``rows`` in that order, when given) with ``columns`` set, as the same
    kind of table: pandas and GeoPandas keep their index and geometry, Arrow its schema."""
    if is_arrow(frame):
        return _arrow_with(frame if rows is None else frame.take(rows), columns)
    out = frame.copy() if rows is None else frame.iloc[rows].copy()
    for name, values in columns.items():  # by position: the index may repeat (positions_at)
        array = values.array if isinstance(values, pd.Series) else values
        out[name] = pd.Series(array, index=out.index)
    return out


def _arrow_with(table: Any, columns: Mapping[str, Any]) -> Any:
    import pyarrow as pa

    for name, values in columns.items():
        array = pa.Array.from_pandas(pd.Series(values))
        where = table.schema.get_field_index(name)
        if where >= 0:
            table = table.set_column(where, name, array)
        else:
            table = table.append_column(name, array)
    return table


def take(frame: Any, rows: npt.NDArray[np.int64]) -> Any:
    """Rows ``rows`` of a pandas, GeoPandas or Arrow table, in that order."""
    return frame.take(rows) if is_arrow(frame) else frame.iloc[rows]


def as_pandas_column(frame: Any, name: str) -> pd.Series:
    """One column of a pandas, GeoPandas or Arrow table as a pandas Series (position index)."""
    column = frame.column(name).to_pandas() if is_arrow(frame) else frame[name]
    return column.reset_index(drop=True)
