"""A value's fingerprint: its JSON bytes, typed, so that two values with equal fingerprints show
alike however they are rendered.

Python's ``==`` takes ``1 == True == 1.0``, and a JSON column or an SQLite column of loose type
can hold any of them, while JSON writes them apart (``1``, ``true``, ``1.0``). What is kept
because the values it was made from are unchanged (a rendered resource, a list page) compares
fingerprints instead: a value another program rewrote from ``1`` to ``true`` changes it.
"""

from __future__ import annotations

import orjson


def fingerprint(value: object) -> bytes:
    """``value`` as JSON bytes. orjson writes dataclasses, tuples, lists, dicts, numbers,
    booleans and date-times natively, each by its own type; a value of any other type (bytes,
    ``Decimal``) is written as its type's name and ``repr``.

    >>> fingerprint((1, "a")) == fingerprint((1, "a")), fingerprint(1) == fingerprint(True)
    (True, False)
    >>> fingerprint({"amount": 1}) == fingerprint({"amount": 1.0})
    False
    """
    return orjson.dumps(value, default=_typed_repr, option=orjson.OPT_NON_STR_KEYS)


def _typed_repr(value: object) -> list[str]:
    return [type(value).__qualname__, repr(value)]
