"""Page requests and pages of results, shared by every list query and every shell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .errors import InvalidInput

T = TypeVar("T")

DEFAULT_PAGE_SIZE = 30
MAX_PAGE_SIZE = 100
MAX_PAGE_NUMBER = 1_000_000


@dataclass(frozen=True, slots=True)
class PageRequest:
    """Which page to return: 1-based ``number`` and ``size`` (1 to ``MAX_PAGE_SIZE`` items)."""

    number: int = 1
    size: int = DEFAULT_PAGE_SIZE

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
    """One page of a list: its ``items``, the ``total`` over all pages, and the request."""

    items: tuple[T, ...]
    total: int
    request: PageRequest

    @property
    def last_number(self) -> int:
        """Number of the last page (1 for an empty list)."""
        return max(1, -(-self.total // self.request.size))
