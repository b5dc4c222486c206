"""The carrier table's codes: patterns that compile, owner codes of the ISO 6346 form each
naming one carrier, alternative SCACs that are no other carrier's own."""

from __future__ import annotations

import csv
import re
from collections import Counter

from sealane.routing.data import data_dir


def rows() -> list[dict[str, str]]:
    with (data_dir() / "shipping_lines.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def codes(text: str) -> list[str]:
    return [code for code in text.split("|") if code]


def test_booking_patterns__compile() -> None:
    for row in rows():
        if row["booking_number_pattern"]:
            re.compile(row["booking_number_pattern"])


def test_owner_codes__iso_6346_form_one_carrier_each() -> None:
    found = Counter(code for row in rows() for code in codes(row["container_owner_codes"]))
    assert found and all(re.fullmatch(r"[A-Z]{3}[UJZ]", code) for code in found)
    assert [code for code, count in found.items() if count > 1] == []


def test_alternative_scacs__not_another_carriers_own() -> None:
    scacs = {row["scac"] for row in rows()}
    alternatives = [code for row in rows() for code in codes(row["alternative_scacs"])]
    assert alternatives and not set(alternatives) & scacs
    assert len(set(alternatives)) == len(alternatives)


def test_support_flags__booleans() -> None:
    for row in rows():
        for name in (
            "bill_of_lading_tracking_support",
            "booking_number_tracking_support",
            "container_number_tracking_support",
        ):
            assert row[name] in ("true", "false"), (row["scac"], name)
