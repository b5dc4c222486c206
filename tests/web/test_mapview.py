"""The map drawing from map features: centring, antimeridian, view box, feature kinds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import sealane
from sealane.web.mapview import centre_longitude, map_view, path_data, wrap


@pytest.mark.parametrize(
    ("lons", "centre"),
    [
        ([4.0, 121.0], 62.5),  # Rotterdam - Shanghai: over the Indian Ocean
        ([121.0, -118.0], -178.5),  # Shanghai - Los Angeles: over the Pacific
        ([-170.0, 170.0], -180.0),
        ([10.0], 10.0),
        ([], 0.0),
    ],
)
def test_centre_longitude__middle_of_the_smallest_range(lons: list[float], centre: float) -> None:
    assert centre_longitude(lons) == pytest.approx(centre)


def test_wrap__into_half_open_range() -> None:
    assert [wrap(v) for v in (180.0, -180.0, 190.0, -190.0, 0.0)] == [
        -180.0,
        -180.0,
        -170.0,
        170.0,
        0.0,
    ]


def test_path_data__unwraps_across_the_antimeridian() -> None:
    d = path_data([(179.0, 10.0), (-179.0, 11.0), (-178.0, 12.0)], centre=180.0)
    assert d == "M179.00 -10.00L181.00 -11.00L182.00 -12.00"


def pacific_features() -> dict[str, object]:
    trip = sealane.itinerary(
        ["CNSHA", "USLAX"], speed_kn=18, departed_at=datetime(2026, 3, 1, tzinfo=UTC)
    )
    return trip.at_sea(0, (180.0, 38.0), datetime(2026, 3, 8, tzinfo=UTC)).to_geojson()


def test_map_view__pacific_route_is_continuous_in_one_frame() -> None:
    view = map_view(pacific_features())
    assert [p.label for p in view.ports] == ["POL", "POD"]
    assert {line.kind for line in view.lines} == {"sailed", "ahead"}
    assert view.vessel is not None
    xs = [
        float(v)
        for line in view.lines
        for v in line.d.replace("M", " ").replace("L", " ").split()[0::2]
    ]
    steps = []
    for line in view.lines:
        coords = [float(v) for v in line.d.replace("M", " ").replace("L", " ").split()]
        steps += [abs(b - a) for a, b in zip(coords[0:-2:2], coords[2::2], strict=True)]
    assert max(steps) < 10.0  # no stroke jumps across the map
    assert 110.0 < max(xs) - min(xs) < 135.0  # Shanghai to Los Angeles the short way, unbroken
    x, _y, width, height = view.view_box
    assert x <= min(xs) and max(xs) <= x + width
    assert width == pytest.approx(2 * height)
    assert view.eta is not None


def test_map_view__ports_only() -> None:
    collection = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [4.0, 51.9]},
                "properties": {
                    "feature_type": "port",
                    "label": "POD",
                    "name": "Rotterdam",
                    "locode": "NLRTM",
                },
            },
            {"type": "Feature", "geometry": None, "properties": {"feature_type": "port"}},
            {
                "type": "Feature",
                "geometry": {"type": "Polygon", "coordinates": []},
                "properties": {"feature_type": "estimated_full_legs"},
            },
        ],
    }
    view = map_view(collection)
    assert [(p.label, p.x, p.y) for p in view.ports] == [("POD", 4.0, -51.9)]
    assert view.lines == () and view.vessel is None
    assert view.view_box[2] >= 24.0


def test_map_view__empty_is_the_whole_world() -> None:
    assert map_view({"type": "FeatureCollection", "features": []}).view_box == (
        -180.0,
        -90.0,
        360.0,
        180.0,
    )
