"""The passages added for issue 28 (the Lombok Strait, the Torres Strait, the Inside Passage) and
the default vessel: a container ship, which never takes the Corinth Canal or the Inside Passage
and otherwise fits every passage container ships use (issue 28, items 2 and 4)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sealane
from sealane.routing.limits import DIMENSION_NAMES, passage_limits
from sealane.routing.passages import ARCTIC, NOT_FOR_CONTAINER_SHIPS

#: What the README says the default vessel stands for: a feeder that fits every passage open by
#: default (the Oresund's Drogden channel sets the draft, the Kiel Canal the rest).
FEEDER = {"draft_m": 7.7, "beam_m": 32.5, "length_m": 235.5, "air_draft_m": 40.0}


def test_default_vessel__the_feeder_is_the_smallest_of_the_open_passages() -> None:
    closed = NOT_FOR_CONTAINER_SHIPS | ARCTIC
    largest: dict[str, float] = {}
    for dimension in DIMENSION_NAMES:
        ways: dict[str, float] = {}
        for limit in passage_limits():
            if limit.passage in closed:
                continue
            metres = getattr(limit, dimension)
            fits = math.inf if metres is None else float(metres)
            # A vessel fits a passage when it fits any of its ways: the widest way counts.
            ways[limit.passage.value] = max(ways.get(limit.passage.value, 0.0), fits)
        largest[dimension] = min(ways.values())
    assert largest == FEEDER


@pytest.mark.parametrize(
    ("origin", "destination"),
    [("DEHAM", "PLGDN"), ("CNSHA", "NLRTM"), ("JPYOK", "CAVAN"), ("SGSIN", "AUBNE")],
)
def test_default_vessel__routes_as_the_feeder(origin: str, destination: str) -> None:
    default = sealane.route(origin, destination)
    feeder = sealane.route(
        origin,
        destination,
        draft_m=FEEDER["draft_m"],
        beam_m=FEEDER["beam_m"],
        length_m=FEEDER["length_m"],
        air_draft_m=FEEDER["air_draft_m"],
    )
    np.testing.assert_array_equal(feeder.coordinates, default.coordinates)


def test_default_vessel__hamburg_to_gdansk_by_kiel() -> None:
    assert "kiel" in sealane.route("DEHAM", "PLGDN").passages


def test_route__yokohama_to_vancouver_by_juan_de_fuca_not_the_inside_passage() -> None:
    default = sealane.route("JPYOK", "CAVAN")
    assert "inside_passage" not in default.passages
    opened = sealane.route("JPYOK", "CAVAN", allow=["inside_passage"])
    assert "inside_passage" in opened.passages
    assert opened.distance_nm < default.distance_nm


def test_route__torres_strait_takes_up_to_its_published_draft() -> None:
    assert "torres" in sealane.route("SGSIN", "AUBNE").passages
    assert "torres" in sealane.route("SGSIN", "AUBNE", draft_m=12.5).passages
    deeper = sealane.route("SGSIN", "AUBNE", draft_m=12.6)
    assert "torres" not in deeper.passages
    assert deeper.distance_nm > sealane.route("SGSIN", "AUBNE").distance_nm


def test_route__too_deep_for_malacca_goes_by_lombok() -> None:
    passages = sealane.route("CNSHA", "NLRTM", draft_m=21).passages
    assert "lombok" in passages
    assert not {"malacca", "singapore", "suez"} & set(passages)


def test_route__lombok_avoided_goes_round_by_another_strait() -> None:
    deep = sealane.route("CNSHA", "NLRTM", draft_m=21, avoid=["lombok"])
    assert "lombok" not in deep.passages
