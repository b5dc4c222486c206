"""Text patterns of custom fields, run by RE2: linear in the text, whatever the pattern.

A pattern is written by a tenant and matched in the request path, so Python's backtracking
``re`` is never used for it: ``(a+)+$`` against 26 ``a`` and a ``b`` held the interpreter for
seconds, and every other account's requests with it. RE2 cannot express back-references or
look-around; a pattern it cannot run is refused when the definition is written.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

#: Longest pattern accepted, and the memory RE2 may use for one compiled pattern.
MAX_PATTERN_CHARS = 1000
_MAX_MEMORY = 1 << 20


class UnsupportedPattern(ValueError):
    """The text is not a pattern RE2 can run (syntax, back-references, too large)."""


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # a refused pattern is the tenant's error, not a log line
    options.max_mem = _MAX_MEMORY
    return options


@lru_cache(maxsize=512)
def compiled(pattern: str) -> Any:
    """``pattern`` compiled by RE2 (kept for the next value); :class:`UnsupportedPattern` if it
    cannot be."""
    if len(pattern) > MAX_PATTERN_CHARS:
        raise UnsupportedPattern(f"longer than {MAX_PATTERN_CHARS} characters")
    try:
        return re2.compile(pattern, _options())
    except re2.error as error:
        reason = error.args[0] if error.args else error
        text = reason.decode(errors="replace") if isinstance(reason, bytes) else str(reason)
        raise UnsupportedPattern(text) from None


def full_match(pattern: str, text: str) -> bool:
    """Whether all of ``text`` matches ``pattern`` (time linear in the text)."""
    return compiled(pattern).fullmatch(text) is not None
