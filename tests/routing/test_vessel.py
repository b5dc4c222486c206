"""A vessel's dimensions: checked on the way in, and the passages they close on routes, future
positions and itineraries (issue 28, items 1 and 2)."""

from __future__ import annotations

import math
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

import sealane
from sealane.routing.errors import InvalidVesselError, NoRouteError, RoutingError
from sealane.routing.vessel import BOUNDS_M, UNKNOWN, Vessel, as_vessel

START = datetime(2026, 3, 1, tzinfo=UTC)
#: Off Oman, on the Shanghai -> Rotterdam leg (the README's future-positions example).
ARABIAN_SEA = (60.1, 12.3)

# --- checked on the way in -----------------------------------------------------------------------

BAD_VALUES: list[tuple[str, Any]] = [
    (name, value)
    for name in BOUNDS_M
    for value in (-1.0, 0, math.nan, math.inf, -math.inf, "12", True, [12.0])
] + [(name, bound + 0.1) for name, bound in BOUNDS_M.items()]


@pytest.mark.parametrize(("parameter", "value"), BAD_VALUES, ids=repr)
def test_vessel__bad_dimension_names_its_parameter(parameter: str, value: Any) -> None:
    with pytest.raises(InvalidVesselError) as caught:
        Vessel(**{parameter: value})
    assert caught.value.parameter == parameter
    assert parameter in str(caught.value)
    assert caught.value.code == "invalid_vessel"
    assert isinstance(caught.value, RoutingError)


@pytest.mark.parametrize("parameter", list(BOUNDS_M))
def test_route__bad_dimension_is_refused_before_routing(parameter: str) -> None:
    with pytest.raises(InvalidVesselError, match=parameter) as caught:
        sealane.route("DEHAM", "PLGDN", **{parameter: -2.0})
    assert caught.value.parameter == parameter


@pytest.mark.parametrize("parameter", list(BOUNDS_M))
def test_future_positions__bad_dimension(parameter: str) -> None:
    with pytest.raises(InvalidVesselError, match=parameter):
        sealane.future_positions(ARABIAN_SEA, "CNSHA", "NLRTM", **{parameter: math.nan})


@pytest.mark.parametrize("parameter", list(BOUNDS_M))
def test_itinerary__bad_dimension(parameter: str) -> None:
    with pytest.raises(InvalidVesselError, match=parameter):
        sealane.itinerary(["DEHAM", "PLGDN"], **{parameter: 1e6})


def test_vessel__bounds_and_numpy_scalars_accepted() -> None:
    largest = Vessel(**BOUNDS_M)
    assert asdict(largest) == BOUNDS_M
    assert asdict(Vessel(draft_m=np.float32(12.5), beam_m=np.int64(40))) == {
        "draft_m": 12.5,
        "beam_m": 40.0,
        "length_m": None,
        "air_draft_m": None,
    }


def test_as_vessel__nothing_known_is_the_unknown_vessel() -> None:
    assert as_vessel() is UNKNOWN
    assert not UNKNOWN.known
    assert Vessel(air_draft_m=30).known


def test_as_vessel__the_keywords_made_into_one_vessel_once() -> None:
    given = Vessel(draft_m=14.5, beam_m=51)
    assert as_vessel(given) is given
    assert as_vessel(None, 14.5, 51) == given
    assert hash(as_vessel(None, 14.5, 51)) == hash(given)  # one cache entry per vessel


def test_as_vessel__a_vessel_and_keywords_both_refused() -> None:
    with pytest.raises(InvalidVesselError, match="not both") as refused:
        as_vessel(Vessel(draft_m=12), draft_m=12)
    assert refused.value.parameter == "vessel"


def test_as_vessel__not_a_vessel_refused() -> None:
    with pytest.raises(InvalidVesselError, match="must be a Vessel") as refused:
        as_vessel({"draft_m": 12})  # type: ignore[arg-type]
    assert refused.value.parameter == "vessel"


def test_route__vessel_or_its_keywords_alike() -> None:
    by_vessel = sealane.route("CNSHA", "NLRTM", vessel=Vessel(draft_m=21))
    assert by_vessel.passages == sealane.route("CNSHA", "NLRTM", draft_m=21).passages
    assert "suez" not in by_vessel.passages


def test_route__vessel_and_its_keywords_together_refused() -> None:
    with pytest.raises(InvalidVesselError, match="not both"):
        sealane.route("CNSHA", "NLRTM", vessel=Vessel(draft_m=21), beam_m=40)


def test_future_positions_and_itinerary__take_the_vessel() -> None:
    ship = Vessel(draft_m=21)
    positions = sealane.future_positions(ARABIAN_SEA, "CNSHA", "NLRTM", vessel=ship)
    assert positions.route.passages == ("good_hope", "dover", "maas")
    trip = sealane.itinerary(["DEHAM", "DKAAR", "PLGDN"], vessel=Vessel(draft_m=10.5))
    assert [leg.route.passages for leg in trip.legs] == [("elbe",), ("great_belt",)]
    assert trip.vessel == Vessel(draft_m=10.5)


def test_route__unhashable_passage_name_is_an_unknown_passage() -> None:
    """Regression: a list among the names reached the remembered closures as a TypeError (and
    a second, unremembered call); it is refused as what it is."""
    with pytest.raises(sealane.UnknownPassageError, match="strings"):
        sealane.route("CNSHA", "NLRTM", avoid=[["suez"]])  # type: ignore[list-item]


# --- the passages a vessel's size closes (issue 28, "Done when") -------------------------------

# (origin, destination, dimensions, avoid, passages it must sail, passages it must not, why)
GOLDEN_PASSAGES: list[tuple[str, str, dict[str, float], tuple[str, ...], set[str], set[str], str]]
GOLDEN_PASSAGES = [
    ("DEHAM", "PLGDN", {}, (), {"kiel"}, set(), "without dimensions: as before"),
    ("DEHAM", "PLGDN", {"draft_m": 10.5}, (), set(), {"kiel"}, "Kiel takes 9.5 m"),
    (
        "DEHAM",
        "PLGDN",
        {"draft_m": 14.0},
        ("kiel",),
        {"great_belt"},
        {"kiel", "oresund"},
        "round Skagen, Drogden takes 7.7 m, route T about 15 m",
    ),
    ("DEHAM", "PLGDN", {"draft_m": 7.0}, ("kiel",), {"oresund"}, set(), "7 m fits Drogden"),
    ("DEHAM", "PLGDN", {"draft_m": 7.0}, (), {"kiel"}, set(), "7 m fits Kiel"),
    (
        "DEHAM",
        "PLGDN",
        {"draft_m": 7.0, "air_draft_m": 66.0},
        (),
        {"oresund"},
        {"kiel", "great_belt"},
        "too tall for Kiel's 40 m and the East Bridge's 65 m; Drogden has a tunnel",
    ),
    (
        "CNSHA",
        "NLRTM",
        {"draft_m": 21.0},
        (),
        {"good_hope", "maas"},
        {"suez", "malacca", "singapore", "sunda", "panama"},
        "Suez takes 20.1 m, Malaccamax 20.5 m; Rotterdam 22.5 m",
    ),
    (
        "USNYC",
        "USLAX",
        {"beam_m": 45.0, "length_m": 330.0},
        (),
        {"panama"},
        set(),
        "fits the Neopanamax locks (51.25 m, 366 m)",
    ),
    (
        "USNYC",
        "USLAX",
        {"draft_m": 12.0, "beam_m": 32.0, "length_m": 290.0},
        (),
        {"panama"},
        set(),
        "a Panamax fits both sets of locks",
    ),
    ("USNYC", "USLAX", {"beam_m": 55.0}, (), set(), {"panama"}, "wider than 51.25 m"),
    ("USNYC", "USLAX", {"length_m": 370.0}, (), set(), {"panama"}, "longer than 366 m"),
]


@pytest.mark.parametrize(
    ("origin", "destination", "dimensions", "avoid", "sails", "avoids", "why"),
    GOLDEN_PASSAGES,
    ids=[f"{o}-{d}-{dims or 'default'}-{'-'.join(a)}" for o, d, dims, a, *_ in GOLDEN_PASSAGES],
)
def test_route__passages_for_the_vessel(
    origin: str,
    destination: str,
    dimensions: dict[str, float],
    avoid: tuple[str, ...],
    sails: set[str],
    avoids: set[str],
    why: str,
) -> None:
    passages = set(sealane.route(origin, destination, avoid=avoid, **dimensions).passages)
    assert sails <= passages, why
    assert not avoids & passages, why


def test_route__a_vessel_that_fits_everywhere_sails_the_default_route() -> None:
    small = sealane.route("DEHAM", "PLGDN", draft_m=5, beam_m=15, length_m=100, air_draft_m=30)
    default = sealane.route("DEHAM", "PLGDN")
    np.testing.assert_array_equal(small.coordinates, default.coordinates)


def test_route__allow_does_not_open_a_passage_the_vessel_does_not_fit() -> None:
    assert "corinth" in sealane.route("ITBRI", "TRIST", allow=["corinth"]).passages
    assert "corinth" not in sealane.route("ITBRI", "TRIST", allow=["corinth"], beam_m=30).passages


# --- nothing left: the error says which limit refused what ---------------------------------------


def test_route__deep_draft_out_of_hamburg_names_the_draft() -> None:
    with pytest.raises(RoutingError) as caught:
        sealane.route("DEHAM", "USNYC", draft_m=30)
    assert isinstance(caught.value, NoRouteError)
    assert "draft 30 m exceeds the 15.4 m of the Elbe" in str(caught.value)


def test_route__into_a_port_up_a_closed_passage() -> None:
    with pytest.raises(NoRouteError, match=r"NLRTM .*draft 23 m exceeds the 22\.5 m of the Maas"):
        sealane.route("CNSHA", "NLRTM", draft_m=23)


def test_route__no_way_out_names_the_limit_on_the_way() -> None:
    with pytest.raises(NoRouteError, match="air draft 66 m exceeds the 64 m of the Bosporus"):
        sealane.route("UAODS", "GRPIR", air_draft_m=66)


def test_route__no_route_for_other_reasons_keeps_its_message() -> None:
    with pytest.raises(NoRouteError, match="no sea route joins these points") as caught:
        sealane.route("UAODS", "GRPIR", avoid=["bosporus"], draft_m=12)
    assert "for this vessel" not in str(caught.value)


# --- future positions and itineraries ------------------------------------------------------------


def test_future_positions__deep_draft_sails_round_the_cape() -> None:
    default = sealane.future_positions(ARABIAN_SEA, "CNSHA", "NLRTM", start_time=START)
    deep = sealane.future_positions(ARABIAN_SEA, "CNSHA", "NLRTM", start_time=START, draft_m=21)
    assert "suez" in default.route.passages
    assert "suez" not in deep.route.passages
    assert "good_hope" in deep.route.passages
    assert deep.distance_remaining_nm > default.distance_remaining_nm + 3_000


def test_itinerary__every_leg_routed_for_the_vessel() -> None:
    default = sealane.itinerary(["DEHAM", "DKAAR", "PLGDN"])
    feeder = sealane.itinerary(["DEHAM", "DKAAR", "PLGDN"], draft_m=10.5)
    assert [leg.route.passages for leg in default.legs] == [
        ("elbe", "kiel", "great_belt"),
        ("oresund",),
    ]
    assert [leg.route.passages for leg in feeder.legs] == [("elbe",), ("great_belt",)]
    assert feeder.vessel == Vessel(draft_m=10.5)


def test_itinerary__at_sea_keeps_the_vessel() -> None:
    in_the_belt = (10.95, 55.2)
    default = sealane.itinerary(["DEHAM", "DKAAR", "PLGDN"]).at_sea(1, in_the_belt, START)
    feeder = sealane.itinerary(["DEHAM", "DKAAR", "PLGDN"], draft_m=10.5).at_sea(
        1, in_the_belt, START
    )
    assert default.underway is not None and feeder.underway is not None
    assert "oresund" in default.underway.remaining.passages
    assert "oresund" not in feeder.underway.remaining.passages
