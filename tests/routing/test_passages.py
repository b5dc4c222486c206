"""Passage names: parsing, aliases, the default closed set and bit masks."""

from __future__ import annotations

import pytest

from sealane.routing.errors import UnknownPassageError
from sealane.routing.passages import (
    ARCTIC,
    COASTAL,
    NOT_FOR_CONTAINER_SHIPS,
    SMALL_CRAFT,
    Passage,
    closed_passages,
    names_from_mask,
    parse_passage,
    passage_mask,
)

BITS = ("suez", "panama", "northwest", "northeast")


@pytest.mark.parametrize("passage", list(Passage))
def test_parse_passage__canonical(passage: Passage) -> None:
    assert parse_passage(passage.value) is passage
    assert parse_passage(passage) is passage


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Hormuz", Passage.ORMUZ),
        ("bab-el-mandeb", Passage.BABALMANDAB),
        ("Bosphorus", Passage.BOSPORUS),
        ("Cape of Good Hope", Passage.GOOD_HOPE),
        ("English Channel", Passage.DOVER),
        ("Suez Canal", Passage.SUEZ),
        ("northern_sea_route", Passage.NORTHEAST),
        ("Nord-Ostsee-Kanal", Passage.KIEL),
        ("Westerschelde", Passage.SCHELDT),
        ("Strait of Messina", Passage.MESSINA),
        ("Storebaelt", Passage.GREAT_BELT),
        ("The Sound", Passage.ORESUND),
        ("Lombok Strait", Passage.LOMBOK),
        ("Torres Strait", Passage.TORRES),
        ("Johnstone Strait", Passage.INSIDE_PASSAGE),
        ("Inside Passage", Passage.INSIDE_PASSAGE),
    ],
)
def test_parse_passage__alias(name: str, expected: Passage) -> None:
    assert parse_passage(name) is expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("SUEZ", Passage.SUEZ),
        ("Suez", Passage.SUEZ),
        (" suez ", Passage.SUEZ),
        ("Cape_Horn", Passage.CAPE_HORN),
        ("CAPE HORN", Passage.CAPE_HORN),
    ],
)
def test_parse_passage__case_and_spaces(name: str, expected: Passage) -> None:
    assert parse_passage(name) is expected


def test_parse_passage__unknown_lists_known_names() -> None:
    with pytest.raises(UnknownPassageError, match="atlantis") as error:
        parse_passage("atlantis")
    message = str(error.value)
    for passage in Passage:
        assert passage.value in message


def test_parse_passage__empty_string_raises() -> None:
    with pytest.raises(UnknownPassageError, match="''"):
        parse_passage("")


def test_parse_passage__non_string_raises() -> None:
    with pytest.raises(UnknownPassageError, match="3"):
        parse_passage(3)  # type: ignore[arg-type]


def test_closed_passages__arctic_and_not_for_container_ships_closed_by_default() -> None:
    assert closed_passages((), allow_arctic=False) == ARCTIC | NOT_FOR_CONTAINER_SHIPS
    assert closed_passages(("suez",), allow_arctic=False) == (
        ARCTIC | NOT_FOR_CONTAINER_SHIPS | {Passage.SUEZ}
    )


def test_closed_passages__corinth_and_the_inside_passage_closed_kiel_open() -> None:
    assert Passage.CORINTH in SMALL_CRAFT
    assert Passage.INSIDE_PASSAGE in COASTAL
    assert {Passage.CORINTH, Passage.INSIDE_PASSAGE} == NOT_FOR_CONTAINER_SHIPS
    closed = closed_passages((), allow_arctic=False)
    assert {Passage.KIEL, Passage.ORESUND, Passage.LOMBOK, Passage.TORRES}.isdisjoint(closed)


def test_closed_passages__allow_arctic() -> None:
    assert closed_passages((), allow_arctic=True) == NOT_FOR_CONTAINER_SHIPS
    assert closed_passages(["suez", "Hormuz"], allow_arctic=True) == NOT_FOR_CONTAINER_SHIPS | {
        Passage.SUEZ,
        Passage.ORMUZ,
    }


def test_closed_passages__allow_opens_default_closed_passages() -> None:
    opened = ["Corinth Canal", "inside_passage"]
    assert closed_passages((), allow_arctic=True, allow=opened) == frozenset()
    assert closed_passages((), allow_arctic=True, allow=["corinth"]) == COASTAL
    assert closed_passages((), allow_arctic=False, allow="northwest") == {
        Passage.NORTHEAST,
        Passage.CORINTH,
        Passage.INSIDE_PASSAGE,
    }


def test_closed_passages__avoid_wins_over_allow() -> None:
    closed = closed_passages(["corinth"], allow_arctic=True, allow=["corinth", "inside_passage"])
    assert closed == {Passage.CORINTH}


def test_closed_passages__allow_unknown_raises() -> None:
    with pytest.raises(UnknownPassageError, match="narnia"):
        closed_passages((), allow_arctic=False, allow=["narnia"])


def test_closed_passages__explicit_arctic_stays_closed_when_allowed() -> None:
    assert closed_passages(("northeast",), allow_arctic=True) == {
        Passage.NORTHEAST,
        Passage.CORINTH,
        Passage.INSIDE_PASSAGE,
    }


def test_closed_passages__single_string() -> None:
    assert closed_passages("panama", allow_arctic=True, allow="corinth") == {
        Passage.PANAMA,
        Passage.INSIDE_PASSAGE,
    }


def test_closed_passages__unknown_raises() -> None:
    with pytest.raises(UnknownPassageError, match="narnia"):
        closed_passages(("suez", "narnia"), allow_arctic=False)


def test_passage_mask__bits_in_order() -> None:
    assert passage_mask({Passage.SUEZ}, BITS) == 0b0001
    assert passage_mask(ARCTIC, BITS) == 0b1100
    assert passage_mask({Passage.KIEL}, BITS) == 0  # absent from these bits: no bit


def test_names_from_mask__round_trip() -> None:
    mask = passage_mask({Passage.PANAMA, Passage.NORTHEAST}, BITS)
    assert names_from_mask(mask, BITS) == ["panama", "northeast"]
    assert names_from_mask(0, BITS) == []
