"""Tests of the shapely geometries and GeoPandas frames, and that ``import sealane`` never loads
shapely, geopandas or pandas (they come with the optional ``geo`` extra)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import UTC, datetime

import numpy as np
import pytest

import sealane
from sealane.routing.geodesy import segment_lengths_m

GEO_PACKAGES = ("shapely", "geopandas", "pandas")
T0 = datetime(2026, 3, 1, tzinfo=UTC)


def test_route_to_shapely__linestring_through_the_route_vertices() -> None:
    """Every vertex, in order, with points added along long geodesic segments (no straight step
    over 100 km, so the line drawn follows the geodesic)."""
    route = sealane.route("CNSHA", "NLRTM")
    line = route.to_shapely()
    assert line.geom_type == "LineString"
    coords = np.asarray(line.coords)
    vertices = [tuple(p) for p in route.coordinates.tolist()]
    found = iter(tuple(p) for p in coords.tolist())
    assert all(vertex in found for vertex in vertices)  # a subsequence
    assert segment_lengths_m(coords[:, 0], coords[:, 1]).max() <= 100_000.0 + 1.0


def test_route_to_shapely__multilinestring_across_the_antimeridian() -> None:
    route = sealane.route("JPYOK", "USLGB")
    lines = route.to_shapely()
    assert lines.geom_type == "MultiLineString"
    parts = [np.asarray(part.coords) for part in lines.geoms]
    assert len(parts) == 2
    for part in parts:
        assert np.all(np.abs(part[:, 0]) <= 180.0)
        assert np.all(np.abs(np.diff(part[:, 0])) < 180.0)
    assert parts[0][-1, 0] == 180.0 and parts[1][0, 0] == -180.0
    assert parts[0][-1, 1] == parts[1][0, 1]


def test_positions_to_shapely__the_track_through_the_positions() -> None:
    positions = sealane.future_positions(
        (60.1, 12.3), "CNSHA", "NLRTM", speed_kn=18, start_time=T0, step_s=3600
    )
    line = positions.to_shapely()
    assert line.geom_type == "LineString"
    coords = np.asarray(line.coords)
    # The positions through Suez's convoy wait lie on one point, which the line has once.
    still = (np.diff(positions.lons) == 0) & (np.diff(positions.lats) == 0)
    moved = np.concatenate([[True], ~still])
    assert moved.sum() < len(positions)
    np.testing.assert_array_equal(coords[:, 0], positions.lons[moved])
    np.testing.assert_array_equal(coords[:, 1], positions.lats[moved])
    pacific = sealane.future_positions((170.0, 40.0), "JPYOK", "USLGB", start_time=T0, step_s=3600)
    assert pacific.to_shapely().geom_type == "MultiLineString"


def test_itinerary_to_geodataframe__one_row_per_leg() -> None:
    trip = sealane.itinerary(["CNSHA", "SGSIN", "ESALG", "NLRTM"], speed_kn=18, departed_at=T0)
    frame = trip.to_geodataframe()
    assert frame.crs.to_epsg() == 4326
    assert list(frame["sequence"]) == [1, 2, 3]
    assert list(frame["origin"]) == ["CNSHA", "SGSIN", "ESALG"]
    assert list(frame["destination"]) == ["SGSIN", "ESALG", "NLRTM"]
    assert frame["distance_nm"].sum() == pytest.approx(trip.distance_nm, rel=1e-12)
    assert list(frame.geometry.geom_type) == ["LineString"] * 3
    assert frame["arrival_at"].iloc[-1] == trip.eta


def test_progress_to_geodataframe__pieces_of_the_map() -> None:
    trip = sealane.itinerary(["CNSHA", "SGSIN", "ESALG", "NLRTM"], speed_kn=18, departed_at=T0)
    now = trip.at_sea(1, (48.5, 12.3), datetime(2026, 3, 18, tzinfo=UTC))
    frame = now.to_geodataframe()
    assert list(frame["feature_type"]) == [
        "past_vessel_locations",
        "past_vessel_locations",
        "estimated_partial_leg",
        "estimated_full_legs",
    ]
    assert list(frame["ports_sequence"]) == [1, 2, 2, 3]
    partial = frame.geometry.iloc[2]
    assert tuple(partial.coords[0]) == (48.5, 12.3) == tuple(frame.geometry.iloc[1].coords[-1])


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_import_sealane__loads_no_geo_packages() -> None:
    done = run_python(
        f"""
        import sys
        import sealane

        trip = sealane.itinerary(["CNSHA", "SGSIN", "NLRTM"], speed_kn=18)
        trip.at_sea(1, (60.1, 12.3), __import__("datetime").datetime(2026, 3, 10)).to_geojson()
        print(sorted(m for m in sys.modules if m.partition(".")[0] in {GEO_PACKAGES!r}))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_to_shapely__without_the_geo_extra_says_what_to_install() -> None:
    done = run_python(
        """
        import sys

        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.partition(".")[0] == "shapely":
                    raise ImportError("shapely blocked by the test")
                return None

        sys.meta_path.insert(0, Block())
        import sealane

        sealane.route("CNSHA", "NLRTM").to_shapely()
        """
    )
    assert done.returncode != 0
    assert "pip install 'sealane[geo]'" in done.stderr
