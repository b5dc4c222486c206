"""The ETA range (``Positions.eta_range``, :mod:`sealane.routing.eta_range`): present and ordered
around the ETA, calibrated on the held-out real voyages of the Suez Canal extract, and its model
file's errors named."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

import sealane
from sealane.routing.eta_range import EtaModelError, eta_model, load_model
from tests.fixtures.eta_voyages import estimates, us_coast_voyages, voyages

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
#: How far the held-out coverage of P10-P90 may drift from its 80 % before this fails.
COVERAGE_TOLERANCE = 0.10


@pytest.mark.parametrize(
    ("start", "previous", "destination", "speed"),
    [
        ((60.1, 12.3), "CNSHA", "NLRTM", 18.0),  # Arabian Sea to Rotterdam, through Suez
        ((60.1, 12.3), "CNSHA", "NLRTM", None),  # the default speed
        ((170.0, 40.0), "JPYOK", "USLGB", 14.0),  # open Pacific, no passage
        ((4.2, 51.98), "GBFXT", "NLRTM", 12.0),  # an hour from the port
    ],
)
def test_range__present_and_ordered(
    start: tuple[float, float], previous: str, destination: str, speed: float | None
) -> None:
    p = sealane.future_positions(start, previous, destination, speed_kn=speed, start_time=T0)
    p10, p90 = p.eta_range
    assert p10.tzinfo is not None and p90.tzinfo is not None
    assert p.start_time <= p10 <= p.eta < p90
    assert p.speed_source == ("default" if speed is None else "given")
    properties = p.to_geojson()["properties"]
    assert properties["eta_p10"] <= properties["eta"] < properties["eta_p90"]


def test_range__speed_spread_unknown_is_the_default() -> None:
    """No observed spread (a given or default speed) is the model's default for it."""
    from dataclasses import replace

    p = sealane.future_positions((60.1, 12.3), "CNSHA", "NLRTM", speed_kn=18, start_time=T0)
    spread = {f.name: f.default for f in eta_model().features}.get("speed_cv")
    if spread is None:
        pytest.skip("the model does not use the speed's spread")
    assert replace(p, speed_variability=spread).eta_range == p.eta_range


def test_range__held_out_voyages_calibrated() -> None:
    """On the voyages the model was not fitted on, the actual arrival lies inside P10-P90 about
    80 % of the time (the benchmark prints the same figure: ``benchmarks/eta_range.py``)."""
    held = [e for e in estimates() if e.held_out and e.source == "suez"]
    assert len({(e.vessel, e.arrival) for e in held}) >= 30 and len(held) >= 100
    model = eta_model()
    inside = 0
    for e in held:
        spread = None if np.isnan(e.speed_cv) else e.speed_cv
        p10, p90 = model.eta_range(
            e.at, e.eta, distance_nm=e.distance_nm, passages=e.passages, speed_cv=spread
        )
        assert p10 <= e.eta <= p90
        inside += p10 <= e.arrival <= p90
    coverage = inside / len(held)
    assert abs(coverage - 0.80) <= COVERAGE_TOLERANCE, coverage


def test_range__voyages_split_by_vessel() -> None:
    """No vessel has voyages on both sides of the split, so the held-out score is honest."""
    sides: dict[str, set[bool]] = {}
    for voyage in voyages():
        sides.setdefault(voyage.vessel, set()).add(voyage.held_out)
    assert all(len(found) == 1 for found in sides.values())
    assert 0.25 < sum(v.held_out for v in voyages()) / len(voyages()) < 0.45


def test_range__beyond_the_fitted_voyages_is_clipped() -> None:
    """A voyage far longer than any fitted one gets the ratio of the longest fitted, finite and
    ordered, never an extrapolation."""
    model = eta_model()
    start = T0
    long = model.eta_range(start, start + timedelta(days=40), distance_nm=13_000, passages=6)
    longer = model.eta_range(start, start + timedelta(days=80), distance_nm=26_000, passages=6)
    assert long[0] <= start + timedelta(days=40) <= long[1]
    ratio = (long[1] - start) / timedelta(days=40)
    assert (longer[1] - start) / timedelta(days=80) == pytest.approx(ratio)


def test_range__arrived_is_the_eta() -> None:
    model = eta_model()
    assert model.eta_range(T0, T0, distance_nm=0, passages=0) == (T0, T0)


def test_model__bad_file_named(tmp_path: Path) -> None:
    missing = tmp_path / "eta_range.json"
    with pytest.raises(EtaModelError, match="cannot read"):
        load_model(missing)
    missing.write_text(json.dumps({"features": [{"name": "wind"}]}), encoding="utf-8")
    with pytest.raises(EtaModelError, match="malformed"):
        load_model(missing)
    missing.write_text(
        json.dumps(
            {
                "features": [{"name": "wind", "low": 0, "high": 1, "default": 0}],
                "coefficients": {"p10": [0, 0], "p90": [0, 0]},
            }
        ),
        encoding="utf-8",
    )
    with pytest.raises(EtaModelError, match="features must be among"):
        load_model(missing)


def test_us_coast__voyages_end_at_a_registry_port() -> None:
    """The US coastal runs are cut at their first fix in another registry port's area: each
    ends inside its destination's area after hours under way, and none is fitted on."""
    from sealane.routing.geodesy import distance_m
    from sealane.routing.observed_speed import PORT_RADIUS_M
    from sealane.routing.ports import registry

    found = us_coast_voyages()
    assert len(found) == 7 and len({v.vessel for v in found}) == 7
    for voyage in found:
        port = registry().get(voyage.destination)
        last = voyage.fixes[-1]
        assert distance_m(last.lon, last.lat, port.lon, port.lat) <= PORT_RADIUS_M
        before = voyage.fixes[:-1]
        assert all(distance_m(f.lon, f.lat, port.lon, port.lat) > PORT_RADIUS_M for f in before)
        assert voyage.fixes[-1].time - voyage.fixes[0].time >= timedelta(hours=3)
        assert voyage.held_out and voyage.source == "us_coast"


def test_us_coast__range_ordered_on_every_estimate() -> None:
    """Every estimate of the US coastal voyages has its range around its ETA, and four points
    of each voyage are estimated."""
    model = eta_model()
    coastal = [e for e in estimates() if e.source == "us_coast"]
    assert len(coastal) == 4 * len(us_coast_voyages())
    for e in coastal:
        spread = None if np.isnan(e.speed_cv) else e.speed_cv
        p10, p90 = model.eta_range(
            e.at, e.eta, distance_nm=e.distance_nm, passages=e.passages, speed_cv=spread
        )
        assert p10 <= e.eta <= p90
