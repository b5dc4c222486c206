"""Regular expressions for the text the API accepts, written once for the OpenAPI document and
for the checks: the document's patterns are what FastAPI (query parameters) and the application
layer (request bodies) enforce.

Patterns spell character classes out (no ``\\s`` or ``\\d``): the JSON Schema engines that read
the document, pydantic's Rust engine and Python's ``re`` disagree on what those shorthands match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

#: The characters Python's ``str.strip()`` removes (``str.isspace``), as a character class body.
WHITESPACE = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: Any text without a NUL character (which neither database stores).
NO_NUL = r"^[^\x00]*$"
#: Text with something besides whitespace in it, and no NUL.
NON_BLANK = rf"^[^\x00]*[^\x00{WHITESPACE}][^\x00]*$"
#: An RFC 3339 date-time with a zone, years 0001-9999, seconds 00-59 and any fraction
#: (``2026-11-21T12:00:00Z``).
RFC3339 = (
    r"^([0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)"
    r"-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?"
    r"(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
)

#: What a pattern above means, for error messages.
PATTERN_MEANINGS = {
    NO_NUL: "must not contain a NUL character",
    NON_BLANK: "must not be blank or contain a NUL character",
    RFC3339: "must be an RFC 3339 date-time with a time zone",
}


def stripped(max_chars: int) -> str:
    """Text of 1 to ``max_chars`` characters once surrounding whitespace is stripped (no NUL):
    the pattern of what ``value.strip()`` followed by a length check accepts."""
    inner = f"[^\\x00]{{0,{max_chars - 2}}}" if max_chars > 1 else ""
    solid = f"[^\\x00{WHITESPACE}]"
    middle = f"({inner}{solid})?" if max_chars > 1 else ""
    return f"^[{WHITESPACE}]*{solid}{middle}[{WHITESPACE}]*$"


def one_of(values: Iterable[str]) -> str:
    """A pattern matching exactly one of ``values``."""
    return "^(" + "|".join(re.escape(value) for value in values) + ")$"


def any_case(words: Iterable[str]) -> str:
    """A pattern matching any of ``words`` in any mix of upper and lower case."""
    spelled = (
        "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in word)
        for word in sorted(words)
    )
    return "^(" + "|".join(spelled) + ")$"


def text(max_chars: int, *, blank: bool = True) -> dict[str, Any]:
    """The schema of a string of at most ``max_chars`` characters without NUL (and, unless
    ``blank``, with something besides whitespace)."""
    return {"type": "string", "maxLength": max_chars, "pattern": NO_NUL if blank else NON_BLANK}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or JSON null."""
    return {"anyOf": [schema, {"type": "null"}]}
