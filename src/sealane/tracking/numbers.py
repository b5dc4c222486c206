"""Identifier checks: ISO 6346 container numbers and IMO ship numbers (check digits)."""

from __future__ import annotations

import re

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
