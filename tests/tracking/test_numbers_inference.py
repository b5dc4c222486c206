"""Number inference: container numbers by ISO 6346 shape and check digit, bills of lading by
carrier prefix, bookings by carrier format; candidates only among carriers that support the
request type; one confident candidate is selected."""

from __future__ import annotations

import pytest

from sealane.tracking.numbers import (
    AUTO_SELECT_CONFIDENCE,
    CarrierCodes,
    container_check_digit,
    infer_number,
)

EVERY = frozenset({"bill_of_lading", "booking_number", "container"})
MAERSK = CarrierCodes("MAEU", "Maersk", ("MAEU",), ("MAEU", "MSKU"), "[0-9]{9}", EVERY)
MSC = CarrierCodes("MSCU", "MSC", ("MEDU", "MSCU"), ("MSCU", "MEDU"), "EBKG[0-9]{8}", EVERY)
HMM = CarrierCodes("HDMU", "HMM", ("HDMU",), ("HDMU",), "", frozenset({"bill_of_lading"}))
COSCO = CarrierCodes("COSU", "COSCO", ("COSU",), ("CSNU",), "[0-9]{10}", EVERY)
CARRIERS = (MAERSK, MSC, HMM, COSCO)


def valid(first_ten: str) -> str:
    return f"{first_ten}{container_check_digit(first_ten)}"


def test_container__owner_code_selects_the_carrier() -> None:
    found = infer_number(valid("MSKU123456"), CARRIERS)
    assert (found.number_type, found.request_type) == ("container", "container")
    assert (found.is_valid, found.check_digit_passed, found.reason) == (True, True, None)
    assert found.decision == "auto_select"
    assert found.selected is not None and found.selected.scac == "MAEU"
    assert found.selected.confidence >= AUTO_SELECT_CONFIDENCE


def test_container__spaces_dashes_and_case_are_ignored() -> None:
    number = valid("CSNU765432")
    spaced = f"{number[:4].lower()} {number[4:10]}-{number[10]}"
    assert infer_number(spaced, CARRIERS).parsed_number == number


def test_container__wrong_check_digit_is_invalid_and_not_selected() -> None:
    number = valid("MSKU123456")
    wrong = number[:10] + str((int(number[10]) + 1) % 10)
    found = infer_number(wrong, CARRIERS)
    assert (found.number_type, found.is_valid, found.check_digit_passed) == (
        "container",
        False,
        False,
    )
    assert found.reason is not None and number[10] in found.reason
    assert found.decision == "needs_confirmation" and found.selected is None


def test_container__missing_check_digit() -> None:
    found = infer_number("MSKU123456", CARRIERS)
    assert (found.number_type, found.is_valid, found.check_digit_passed) == (
        "container",
        False,
        None,
    )
    assert found.reason is not None and "missing" in found.reason


def test_container__leasing_owner_no_prediction() -> None:
    found = infer_number(valid("TGHU123456"), CARRIERS)
    assert (found.is_valid, found.decision, found.candidates) == (True, "no_prediction", ())


def test_container__carrier_without_container_tracking_is_no_candidate() -> None:
    assert infer_number(valid("HDMU123456"), CARRIERS).candidates == ()


def test_bill_of_lading__prefix() -> None:
    found = infer_number("MAEU221876618", CARRIERS)
    assert (found.number_type, found.request_type, found.decision) == (
        "bill_of_lading",
        "bill_of_lading",
        "auto_select",
    )
    assert found.selected is not None and found.selected.scac == "MAEU"


def test_bill_of_lading__prefix_needs_more_than_itself() -> None:
    assert infer_number("MEDU", CARRIERS).candidates == ()


def test_bill_of_lading__container_shaped_but_a_carriers_prefix() -> None:
    """MEDU + 7 digits with a wrong check digit is taken as MSC's bill of lading."""
    number = valid("MEDU123456")
    wrong = number[:10] + str((int(number[10]) + 1) % 10)
    found = infer_number(wrong, CARRIERS)
    assert (found.number_type, found.selected and found.selected.scac) == ("bill_of_lading", "MSCU")


def test_booking__format_is_a_candidate_to_confirm() -> None:
    found = infer_number("221876618", CARRIERS)
    assert (found.number_type, found.request_type) == ("booking", "booking_number")
    assert [c.scac for c in found.candidates] == ["MAEU"]
    assert found.decision == "needs_confirmation" and found.selected is None


def test_booking__msc_format() -> None:
    assert [c.scac for c in infer_number("EBKG01234567", CARRIERS).candidates] == ["MSCU"]


def test_unknown__digits_are_a_booking_letters_a_bill_without_prediction() -> None:
    assert infer_number("12345", CARRIERS).number_type == "booking"
    found = infer_number("XYZ12345", CARRIERS)
    assert (found.number_type, found.decision) == ("bill_of_lading", "no_prediction")


@pytest.mark.parametrize("text", ["a b", "A*B*C*D", "x" * 70])
def test_unknown__malformed_is_invalid(text: str) -> None:
    found = infer_number(text, CARRIERS)
    assert found.is_valid is False and found.reason


def test_several_candidates__confidence_shared_none_selected() -> None:
    twin = CarrierCodes("SEAU", "Sealand", ("MAEU",), (), "", EVERY)
    found = infer_number("MAEU221876618", (*CARRIERS, twin))
    assert sorted(c.scac for c in found.candidates) == ["MAEU", "SEAU"]
    assert found.decision == "needs_confirmation"
    assert sum(c.confidence for c in found.candidates) == pytest.approx(0.95, abs=0.01)


def test_bad_booking_pattern_in_the_data_matches_nothing() -> None:
    broken = CarrierCodes("BRKN", "Broken", (), (), "[0-9", EVERY)
    assert infer_number("12345678", (broken,)).candidates == ()
