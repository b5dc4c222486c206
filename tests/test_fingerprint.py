"""Typed fingerprints: equal values of the same types print alike, values Python finds equal
across types (``1``, ``True``, ``1.0``) print apart, at any depth."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from decimal import Decimal

import pytest

from sealane.fingerprint import fingerprint


@dataclass(frozen=True, slots=True)
class Row:
    amount: object
    items: tuple[object, ...] = ()


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (1, True),
        (0, False),
        (1, 1.0),
        ({"amount": 1}, {"amount": True}),
        ([(1, "x")], [(1.0, "x")]),
        (Row(1), Row(True)),
        (Row(0, ({"n": 1},)), Row(0, ({"n": 1.0},))),
        (Decimal("1.0"), Decimal("1.00")),
    ],
)
def test_fingerprint__equal_values_of_other_types_differ(a: object, b: object) -> None:
    assert a == b
    assert fingerprint(a) != fingerprint(b)


@pytest.mark.parametrize(
    "value",
    [None, 1, 1.5, "x", (1, "a"), [Row(1, ({"k": [1, 2]},))], {1: "int key"}, b"raw", Decimal(2)],
)
def test_fingerprint__an_equal_value_prints_alike(value: object) -> None:
    assert fingerprint(value) == fingerprint(copy.deepcopy(value))
