"""Routes through a named passage (``route(..., via=["suez"])``) and the route options side by
side (``sealane.route_options``)."""

from __future__ import annotations

import pytest

import sealane
from sealane.routing.graph import default_graph
from sealane.routing.options import MAJOR_PASSAGES


def test_via__a_passage_is_sailed() -> None:
    direct = sealane.route("NLRTM", "SGSIN")
    around = sealane.route("NLRTM", "SGSIN", via=["good_hope"])
    assert "suez" in direct.passages and "good_hope" not in direct.passages
    assert "good_hope" in around.passages and "suez" not in around.passages
    assert around.distance_nm > direct.distance_nm + 1_000


def test_via__aliases_and_the_enum() -> None:
    for way in ("kiel_canal", "Kiel", sealane.Passage.KIEL):
        found = sealane.route("NLRTM", "PLGDN", via=[way], draft_m=8.0)
        assert "kiel" in found.passages


def test_via__a_passage_on_the_way_costs_nothing() -> None:
    direct = sealane.route("CNSHA", "NLRTM")
    through = sealane.route("CNSHA", "NLRTM", via=["suez"])
    assert through.passages == direct.passages
    assert through.distance_nm == pytest.approx(direct.distance_nm, abs=1.0)


def test_via__opens_a_passage_closed_by_default() -> None:
    assert "corinth" in sealane.route("ITGOA", "GRPIR", via=["corinth"]).passages


def test_via__mixed_with_ports() -> None:
    found = sealane.route("CNSHA", "NLRTM", via=["SGSIN", "good_hope"])
    assert "good_hope" in found.passages and "suez" not in found.passages


def test_via__a_passage_that_cannot_be_sailed() -> None:
    with pytest.raises(sealane.NoRouteError, match="suez is closed"):
        sealane.route("NLRTM", "SGSIN", avoid=["suez"], via=["suez"])
    with pytest.raises(sealane.NoRouteError):
        sealane.route("CNSHA", "NLRTM", via=["suez"], draft_m=21.0)  # too deep for the canal


def test_via__an_unknown_passage_is_a_clear_error() -> None:
    with pytest.raises(sealane.UnknownPassageError, match=r"did you mean 'suez'\?"):
        sealane.route("CNSHA", "NLRTM", via=["suezz"])
    with pytest.raises(sealane.UnknownPassageError, match="known passages: suez"):
        sealane.route("CNSHA", "NLRTM", via=["atlantis strait"])
    with pytest.raises(sealane.UnknownPortError, match="nor a passage"):
        sealane.route("CNSHA", "NLRTM", via=["XXZZZ"])


def test_route_options__ordered_by_time_each_avoiding_what_it_says() -> None:
    options = sealane.route_options("CNSHA", "NLRTM", speed_kn=16)
    hours = [option.duration_h for option in options]
    assert hours == sorted(hours)
    assert options[0].label == "shortest" and options[0].avoided == ()
    assert options[0].route.passages == sealane.route("CNSHA", "NLRTM").passages
    labels = {option.label: option for option in options}
    assert {"avoiding suez", "avoiding malacca", "avoiding panama, suez"} <= set(labels)
    assert "good_hope" in labels["avoiding panama, suez"].passages  # Suez or the Cape
    for option in options:
        assert not set(option.avoided) & set(option.passages)
        assert option.duration_h == pytest.approx(option.route.duration_h(16), rel=1e-12)
        assert option.distance_nm == option.route.distance_nm
        expected = sealane.route("CNSHA", "NLRTM", avoid=option.avoided)
        assert option.distance_nm == pytest.approx(expected.distance_nm, rel=1e-12)


def test_route_options__panama_or_magellan() -> None:
    options = sealane.route_options("USNYC", "CLSAI")
    assert "panama" in options[0].passages
    other = next(o for o in options if o.avoided == ("panama",))
    assert {"magellan", "cape_horn"} & set(other.passages)


def test_route_options__no_major_passage_no_alternative() -> None:
    options = sealane.route_options("NLRTM", "DEHAM")
    assert [option.label for option in options] == ["shortest"]


def test_route_options__callers_avoid_applies_to_every_option() -> None:
    for option in sealane.route_options("CNSHA", "NLRTM", avoid=["Suez Canal"]):
        assert "suez" in option.avoided and "suez" not in option.passages


def test_route_options__unknown_passage_and_bad_speed() -> None:
    with pytest.raises(sealane.UnknownPassageError):
        sealane.route_options("CNSHA", "NLRTM", avoid=["atlantis"])
    with pytest.raises(sealane.InvalidSpeedError):
        sealane.route_options("CNSHA", "NLRTM", speed_kn=float("nan"))


def test_major_passages__named_by_the_network() -> None:
    names = default_graph().passage_names
    assert all(p.value in names for group in MAJOR_PASSAGES for p in group)
