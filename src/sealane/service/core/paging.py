"""Page requests and pages of results, shared by every list query and every shell."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from .errors import InvalidInput

T = TypeVar("T")

DEFAULT_PAGE_SIZE = 30
MAX_PAGE_SIZE = 100
MAX_PAGE_NUMBER = 1_000_000
#: Longest ``after`` key a page request takes, in characters.
MAX_AFTER_CHARS = 200


@dataclass(frozen=True, slots=True)
class PageKey:
    """Where a page read by key begins: after the row at ``moment`` with ``id`` in a list
    ordered newest first (ties by id, highest first)."""

    moment: datetime
    id: str

    def encode(self) -> str:
        """The key as an opaque URL-safe text (a link's ``page[after]``)."""
        raw = f"{self.moment.isoformat()}|{self.id}".encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> PageKey:
        """The key :meth:`encode` wrote; anything else is invalid input."""
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
            moment, key = raw.split("|", 1)
            found = cls(datetime.fromisoformat(moment), key)
        except (ValueError, binascii.Error, UnicodeDecodeError):
            raise InvalidInput(
                "page[after] is not a key this service gave (take it from a next link)",
                field="page_after",
                code="invalid_parameter",
            ) from None
        if found.moment.tzinfo is None or not 0 < len(key) <= 64 or "\x00" in key:
            raise InvalidInput(
                "page[after] is not a key this service gave (take it from a next link)",
                field="page_after",
                code="invalid_parameter",
            )
        return found


@dataclass(frozen=True, slots=True)
class PageRequest:
    """Which page to return: 1-based ``number`` and ``size`` (1 to ``MAX_PAGE_SIZE`` items);
    ``after``, where a list read by key has it, is the key of the previous page's last row
    (the page then begins after it, whatever was inserted or deleted before it meanwhile, and
    ``number`` only names it)."""

    number: int = 1
    size: int = DEFAULT_PAGE_SIZE
    after: PageKey | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.number <= MAX_PAGE_NUMBER:
            raise InvalidInput(
                f"the page number must be between 1 and {MAX_PAGE_NUMBER}, got {self.number}",
                field="page_number",
                code="invalid_parameter",
            )
        if not 1 <= self.size <= MAX_PAGE_SIZE:
            raise InvalidInput(
                f"the page size must be between 1 and {MAX_PAGE_SIZE}, got {self.size}",
                field="page_size",
                code="invalid_parameter",
            )

    @property
    def offset(self) -> int:
        """Items to skip before this page."""
        return (self.number - 1) * self.size


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list: its ``items``, the ``total`` over all pages, and the request;
    ``next_after`` the key the next page begins after, for a list read by key."""

    items: tuple[T, ...]
    total: int
    request: PageRequest
    next_after: PageKey | None = None

    @property
    def last_number(self) -> int:
        """Number of the last page (1 for an empty list)."""
        return max(1, -(-self.total // self.request.size))
