"""ISO 6346 container numbers and IMO ship numbers: golden tables of check digits."""

from __future__ import annotations

import pytest

from sealane.tracking.numbers import (
    container_check_digit,
    imo_check_digit,
    is_container_number,
    normalize_container_number,
)

#: ISO 6346 letter values, written out from the standard (multiples of 11 skipped).
LETTERS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                                  23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 34,
                                                  35, 36, 37, 38), strict=True))  # fmt: skip


def reference_check_digit(first_ten: str) -> int:
    """Check digit by the textbook rule, independent of the code under test."""
    total = sum((LETTERS[c] if c.isalpha() else int(c)) * 2**i for i, c in enumerate(first_ten))
    return total % 11 % 10


#: First ten characters, check digit. CSQU3054383 is the standard's worked example:
#: 13*1 + 30*2 + 28*4 + 32*8 + 3*16 + 0*32 + 5*64 + 4*128 + 3*256 + 8*512 = 6185 = 562*11 + 3.
#: BICU1234565 is the BIC's own example; the others are real owner codes (Maersk, Textainer,
#: Hapag-Lloyd, Triton, MSC) with serials whose digits were computed by hand from LETTERS.
GOLDEN = (
    ("CSQU305438", 3),
    ("BICU123456", 5),
    ("MSKU907032", 3),
    ("TGHU882247", 5),
    ("HLXU123456", 1),
    ("TCLU123456", 8),
    ("MSCU663987", 0),
    ("MSKU000008", 0),  # remainder 10: the check digit is 0
)


@pytest.mark.parametrize(("first_ten", "digit"), GOLDEN)
def test_container_check_digit__golden(first_ten: str, digit: int) -> None:
    assert reference_check_digit(first_ten) == digit
    assert container_check_digit(first_ten) == digit


@pytest.mark.parametrize(("first_ten", "digit"), GOLDEN)
def test_is_container_number__valid(first_ten: str, digit: int) -> None:
    assert is_container_number(f"{first_ten}{digit}")


@pytest.mark.parametrize(("first_ten", "digit"), GOLDEN)
def test_is_container_number__every_wrong_check_digit(first_ten: str, digit: int) -> None:
    wrong = [d for d in range(10) if d != digit]
    assert not any(is_container_number(f"{first_ten}{d}") for d in wrong)


def test_is_container_number__csqu3054384_bad_check_digit() -> None:
    assert not is_container_number("CSQU3054384")


@pytest.mark.parametrize("category", ["J", "Z"])
def test_is_container_number__other_categories(category: str) -> None:
    first_ten = f"CSQ{category}305438"
    assert is_container_number(f"{first_ten}{reference_check_digit(first_ten)}")


@pytest.mark.parametrize("category", ["X", "A", "0"])
def test_is_container_number__wrong_category_letter(category: str) -> None:
    first_ten = f"CSQ{category}305438"
    assert not is_container_number(f"{first_ten}{container_check_digit(first_ten)}")


@pytest.mark.parametrize(
    "text",
    ["csqu3054383", "CSQU 305438 3", "CSQU-305438-3", " csqu 305438-3 ", "CSQU\t3054383"],
)
def test_is_container_number__normalised(text: str) -> None:
    assert is_container_number(text)
    assert normalize_container_number(text) == "CSQU3054383"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "CSQU305438",  # ten characters
        "CSQU30543833",  # twelve
        "CSQ3054383",  # owner code too short
        "CS1U3054383",  # digit in the owner code
        "CSQU30543A3",  # letter in the serial
        "CSQU.305438.3",  # dots are not separators
    ],
)
def test_is_container_number__malformed(text: str) -> None:
    assert not is_container_number(text)


@pytest.mark.parametrize(
    ("imo", "name"),
    [
        ("9074729", "the IMO's worked example"),
        ("9811000", "Ever Given"),
        ("9893890", "Ever Ace"),
        ("9456769", "Maersk Essen"),
        ("9839131", "CMA CGM Jacques Saade"),
    ],
)
def test_imo_check_digit__golden(imo: str, name: str) -> None:
    expected = sum(int(d) * w for d, w in zip(imo[:6], (7, 6, 5, 4, 3, 2), strict=True)) % 10
    assert imo_check_digit(imo[:6]) == int(imo[6]) == expected, name


def test_imo_check_digit__9074729_by_hand() -> None:
    # 9*7 + 0*6 + 7*5 + 4*4 + 7*3 + 2*2 = 63 + 0 + 35 + 16 + 21 + 4 = 139 -> 9
    assert imo_check_digit("907472") == 9


def test_imo_check_digit__wrong_digit_detected() -> None:
    assert imo_check_digit("907472") != 8
