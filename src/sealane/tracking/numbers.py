"""Identifier checks (ISO 6346 container numbers, IMO ship numbers) and number inference: the
kind of a tracking number and the carriers that likely issued it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

_OWNER = re.compile(r"[A-Z]{3}[UJZ][0-9]{7}")
#: ISO 6346 letter values: A=10, then skipping multiples of 11 (11, 22, 33).
_LETTER_VALUES = {}
_value = 10
for _letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
    if _value % 11 == 0:
        _value += 1
    _LETTER_VALUES[_letter] = _value
    _value += 1


def normalize_container_number(text: str) -> str:
    """Upper case without spaces or dashes (``msku 123456-7`` -> ``MSKU1234567``)."""
    return re.sub(r"[\s-]", "", text).upper()


def container_check_digit(first_ten: str) -> int:
    """ISO 6346 check digit of owner code, category and serial (10 characters).

    >>> container_check_digit("CSQU305438")
    3
    """
    total = 0
    for position, char in enumerate(first_ten):
        value = _LETTER_VALUES[char] if char.isalpha() else int(char)
        total += value * 2**position
    return total % 11 % 10


def is_container_number(text: str) -> bool:
    """Whether ``text`` (normalised) is a well-formed ISO 6346 number with a valid check digit.

    >>> is_container_number("CSQU 305438-3"), is_container_number("CSQU3054384")
    (True, False)
    """
    number = normalize_container_number(text)
    return bool(_OWNER.fullmatch(number)) and container_check_digit(number[:10]) == int(number[10])


def imo_check_digit(first_six: str) -> int:
    """IMO ship number check digit: digits weighted 7..2, sum mod 10.

    >>> imo_check_digit("907472")
    9
    """
    return sum(int(d) * w for d, w in zip(first_six, range(7, 1, -1), strict=True)) % 10


# -- inference: what kind of number a text is, and which carriers likely issued it -------------

#: Confidence of a carrier found by its bill of lading prefix, its container owner code, or the
#: format of its booking numbers (shared evenly when several carriers match the same way).
BL_PREFIX_CONFIDENCE = 0.95
OWNER_CODE_CONFIDENCE = 0.9
BOOKING_FORMAT_CONFIDENCE = 0.6
#: A single candidate at least this confident is selected without asking.
AUTO_SELECT_CONFIDENCE = 0.8
_CONTAINER_SHAPE = re.compile(r"[A-Z]{3}[UJZ][0-9]{6,7}")
_SHIPMENT_NUMBER = re.compile(r"[A-Z0-9][A-Z0-9-]{3,63}")

NumberType = Literal["container", "bill_of_lading", "booking"]
Decision = Literal["auto_select", "needs_confirmation", "no_prediction"]
#: The tracking request type of each number type.
REQUEST_TYPE: dict[str, str] = {
    "container": "container",
    "bill_of_lading": "bill_of_lading",
    "booking": "booking_number",
}


@dataclass(frozen=True, slots=True)
class CarrierCodes:
    """What identifies a carrier's numbers, and the request types its tracking supports."""

    scac: str
    name: str
    bill_of_lading_prefixes: tuple[str, ...]
    container_owner_codes: tuple[str, ...]
    booking_number_pattern: str
    supported_request_types: frozenset[str]


@dataclass(frozen=True, slots=True)
class CarrierGuess:
    """A carrier that likely issued the number, with a confidence in [0, 1]."""

    scac: str
    name: str
    confidence: float


@dataclass(frozen=True, slots=True)
class NumberInference:
    """A number's type, whether it is well formed, and the carriers that likely issued it."""

    number_type: NumberType
    parsed_number: str
    is_valid: bool
    check_digit_passed: bool | None
    reason: str | None
    candidates: tuple[CarrierGuess, ...]

    @property
    def request_type(self) -> str:
        """The ``request_type`` of a tracking request for this number."""
        return REQUEST_TYPE[self.number_type]

    @property
    def decision(self) -> Decision:
        """``auto_select`` for one confident candidate of a valid number, ``needs_confirmation``
        for others with candidates, ``no_prediction`` without any."""
        if not self.candidates:
            return "no_prediction"
        best = self.candidates[0]
        alone = len(self.candidates) == 1
        if self.is_valid and alone and best.confidence >= AUTO_SELECT_CONFIDENCE:
            return "auto_select"
        return "needs_confirmation"

    @property
    def selected(self) -> CarrierGuess | None:
        """The carrier chosen without asking, if any."""
        return self.candidates[0] if self.decision == "auto_select" else None


def infer_number(text: str, carriers: Sequence[CarrierCodes]) -> NumberInference:
    """Classify ``text`` as a container, bill of lading or booking number and guess its carrier.

    >>> maersk = CarrierCodes("MAEU", "Maersk", ("MAEU",), ("MSKU",), "[0-9]{9}",
    ...                       frozenset({"container", "bill_of_lading", "booking_number"}))
    >>> found = infer_number("msku 123456-5", [maersk])
    >>> found.number_type, found.parsed_number, found.check_digit_passed, found.decision
    ('container', 'MSKU1234565', True, 'auto_select')
    >>> infer_number("221876618", [maersk]).number_type
    'booking'
    """
    compact = normalize_container_number(text)
    cleaned = re.sub(r"\s", "", text).upper()
    by_prefix = [c for c in carriers if _prefixed(cleaned, c.bill_of_lading_prefixes)]
    if _CONTAINER_SHAPE.fullmatch(compact):
        container = _container(compact, carriers)
        if container.is_valid or not by_prefix:  # else a carrier's BL that looks like one
            return container
    valid = bool(_SHIPMENT_NUMBER.fullmatch(cleaned))
    reason = None if valid else "expected 4 to 64 letters, digits or dashes"
    if by_prefix:
        guesses = _guesses(by_prefix, "bill_of_lading", BL_PREFIX_CONFIDENCE)
        return NumberInference("bill_of_lading", cleaned, valid, None, reason, guesses)
    by_format = [c for c in carriers if _booking_format(cleaned, c.booking_number_pattern)]
    kind: NumberType = "booking" if by_format or cleaned.isdigit() else "bill_of_lading"
    guesses = _guesses(by_format, "booking_number", BOOKING_FORMAT_CONFIDENCE)
    return NumberInference(kind, cleaned, valid, None, reason, guesses)


def _container(number: str, carriers: Sequence[CarrierCodes]) -> NumberInference:
    owners = [c for c in carriers if number[:4] in c.container_owner_codes]
    guesses = _guesses(owners, "container", OWNER_CODE_CONFIDENCE)
    if len(number) == 10:
        missing = f"the check digit is missing (it would be {container_check_digit(number)})"
        return NumberInference("container", number, False, None, missing, guesses)
    expected = container_check_digit(number[:10])
    passed = expected == int(number[10])
    reason = None if passed else f"the check digit is {number[10]}, ISO 6346 gives {expected}"
    return NumberInference("container", number, passed, passed, reason, guesses)


def _guesses(
    found: Sequence[CarrierCodes], request_type: str, confidence: float
) -> tuple[CarrierGuess, ...]:
    """Carriers whose tracking supports ``request_type``, sharing ``confidence`` evenly."""
    able = [c for c in found if request_type in c.supported_request_types]
    share = round(confidence / len(able), 3) if able else 0.0
    return tuple(CarrierGuess(c.scac, c.name, share) for c in sorted(able, key=lambda c: c.scac))


def _prefixed(number: str, prefixes: Sequence[str]) -> bool:
    """Whether ``number`` is one of ``prefixes`` followed by at least four more characters."""
    return any(number.startswith(p) and len(number) >= len(p) + 4 for p in prefixes if p)


def _booking_format(number: str, pattern: str) -> bool:
    if not pattern:
        return False
    try:
        return re.fullmatch(pattern, number) is not None
    except re.error:  # a bad pattern in the carrier data matches nothing
        return False
