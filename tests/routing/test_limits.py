"""Passage limits: the shipped table's figures, its agreement with data/README.md, and which
passages a vessel is refused."""

from __future__ import annotations

import pytest

from sealane.routing.data import data_dir
from sealane.routing.limits import (
    DIMENSION_NAMES,
    PassageLimit,
    Refusal,
    closed_to,
    passage_limits,
    refusals,
)
from sealane.routing.passages import Passage
from sealane.routing.vessel import BOUNDS_M, UNKNOWN, Vessel

# The figures issue 28 names, as published (metres): (passage, way, dimension, limit).
GOLDEN_LIMITS = [
    (Passage.SUEZ, "Suez Canal", "draft_m", 20.1),
    (Passage.PANAMA, "Panama Canal's Neopanamax locks", "draft_m", 15.24),
    (Passage.PANAMA, "Panama Canal's Neopanamax locks", "beam_m", 51.25),
    (Passage.PANAMA, "Panama Canal's Neopanamax locks", "length_m", 366.0),
    (Passage.PANAMA, "Panama Canal's Panamax locks", "draft_m", 12.04),
    (Passage.PANAMA, "Panama Canal's Panamax locks", "beam_m", 32.31),
    (Passage.PANAMA, "Panama Canal's Panamax locks", "length_m", 294.13),
    (Passage.KIEL, "Kiel Canal", "draft_m", 9.5),
    (Passage.KIEL, "Kiel Canal", "beam_m", 32.5),
    (Passage.KIEL, "Kiel Canal", "length_m", 235.5),
    (Passage.ORESUND, "Oresund's Drogden channel", "draft_m", 7.7),
    (Passage.GREAT_BELT, "Great Belt's route T", "draft_m", 15.0),
    (Passage.GREAT_BELT, "Great Belt's route T", "air_draft_m", 65.0),
    (Passage.MALACCA, "Strait of Malacca", "draft_m", 20.5),
    (Passage.SINGAPORE, "Singapore Strait", "draft_m", 20.5),
]


def limit_named(way: str) -> PassageLimit:
    (found,) = [limit for limit in passage_limits() if limit.name == way]
    return found


@pytest.mark.parametrize(("passage", "way", "dimension", "metres"), GOLDEN_LIMITS)
def test_passage_limits__published_figures(
    passage: Passage, way: str, dimension: str, metres: float
) -> None:
    limit = limit_named(way)
    assert limit.passage is passage
    assert getattr(limit, dimension) == metres


def test_passage_limits__each_row_limits_something_within_a_ships_bounds() -> None:
    for limit in passage_limits():
        given = {d: getattr(limit, d) for d in DIMENSION_NAMES if getattr(limit, d) is not None}
        assert given, limit.name
        assert all(0 < metres <= BOUNDS_M[d] for d, metres in given.items()), limit.name
        assert limit.source.strip(), limit.name


def test_passage_limits__each_row_is_in_the_readme_with_its_figures() -> None:
    readme = (data_dir() / "README.md").read_text(encoding="utf-8").splitlines()
    for limit in passage_limits():
        prefix = f"| `{limit.passage.value}` | {limit.name} |"
        (line,) = [text for text in readme if text.startswith(prefix)]
        cells = [cell.strip() for cell in line.split("|")[3:7]]
        expected = [
            "-" if getattr(limit, d) is None else f"{getattr(limit, d):g}" for d in DIMENSION_NAMES
        ]
        assert cells == expected, limit.name


def test_refusals__unknown_vessel_fits_everywhere() -> None:
    assert refusals(UNKNOWN) == ()
    assert closed_to(Vessel(draft_m=7.0)) == frozenset()


def test_refusals__panama_fits_either_set_of_locks() -> None:
    assert Passage.PANAMA not in closed_to(Vessel(beam_m=45.0, length_m=330.0))
    assert Passage.PANAMA not in closed_to(Vessel(beam_m=32.0, length_m=290.0, draft_m=12.0))
    (refused,) = [r for r in refusals(Vessel(beam_m=55.0)) if r.passage is Passage.PANAMA]
    assert refused == Refusal(
        Passage.PANAMA, "Panama Canal's Neopanamax locks", "beam_m", 55.0, 51.25
    )


def test_refusals__each_dimension_beyond_the_limit() -> None:
    kiel = [r for r in refusals(Vessel(10.0, 33.0, 240.0, 41.0)) if r.passage is Passage.KIEL]
    assert [str(r) for r in kiel] == [
        "draft 10 m exceeds the 9.5 m of the Kiel Canal",
        "beam 33 m exceeds the 32.5 m of the Kiel Canal",
        "length 240 m exceeds the 235.5 m of the Kiel Canal",
        "air draft 41 m exceeds the 40 m of the Kiel Canal",
    ]


def test_refusals__a_limit_is_the_most_a_passage_takes() -> None:
    assert Passage.KIEL not in closed_to(Vessel(draft_m=9.5))
    assert Passage.KIEL in closed_to(Vessel(draft_m=9.51))


def test_closed_to__deep_draft_container_ship() -> None:
    assert closed_to(Vessel(draft_m=16.0)) == {
        Passage.CORINTH,
        Passage.ELBE,
        Passage.GREAT_BELT,
        Passage.KIEL,
        Passage.ORESUND,
        Passage.PANAMA,
        Passage.TORRES,
    }
