"""Outputs of the list tools: a page of items, its paging links and totals, and the filters that
were applied and those that could not be (named, never silently dropped)."""

from __future__ import annotations

from pydantic import Field

from .outputs import Container, Output, Shipment, ShippingLine, TrackingRequest

#: Page size of the list tools when none is given, and the largest allowed.
DEFAULT_PAGE_SIZE = 25
MAX_PAGE_SIZE = 100


class Links(Output):
    """API addresses of this page and its neighbours (``None`` where there is none)."""

    self: str | None = None
    first: str | None = None
    prev: str | None = None
    next: str | None = None
    last: str | None = None


class Paging(Output):
    """Where this page is in the whole list."""

    page: int
    page_size: int
    total: int = Field(description="items over all pages")
    total_pages: int
    next_page: int | None = Field(description="pass as `page` for the next page; null on the last")
    links: Links


class NotApplied(Output):
    """A filter that was given but could not be applied, and why."""

    name: str
    value: str
    reason: str


class Listing(Output):
    """What every list output shares."""

    paging: Paging
    filters_applied: dict[str, str] = Field(default_factory=dict)
    filters_not_applied: list[NotApplied] = Field(default_factory=list)

    def footer(self, noun: str, shown: int) -> str:
        """The paging line and any filter that was not applied."""
        p = self.paging
        lines = [f"{shown} of {p.total} {noun} (page {p.page} of {p.total_pages})."]
        if p.next_page is not None:
            lines.append(f"More: call again with page={p.next_page}.")
        if self.filters_applied:
            applied = ", ".join(f"{k}={v}" for k, v in self.filters_applied.items())
            lines.append(f"Filters applied: {applied}.")
        for skipped in self.filters_not_applied:
            lines.append(f"Filter NOT applied: {skipped.name}={skipped.value!r}: {skipped.reason}")
        return "\n".join(lines)


class ShipmentList(Listing):
    """A page of shipments, most recently updated first."""

    items: list[Shipment]

    def summary(self) -> str:
        """One line per shipment, then the paging."""
        lines = [f"- {item.id}: {item.summary()}" for item in self.items]
        return "\n".join([*lines, self.footer("shipments", len(self.items))])


class ContainerList(Listing):
    """A page of containers, most recently updated first."""

    items: list[Container]

    def summary(self) -> str:
        """One line per container, then the paging."""
        lines = [
            f"- {item.id}: {item.number} {item.current_status or ''}".rstrip()
            for item in self.items
        ]
        return "\n".join([*lines, self.footer("containers", len(self.items))])


class TrackingRequestList(Listing):
    """A page of tracking requests, newest first."""

    items: list[TrackingRequest]

    def summary(self) -> str:
        """One line per request, then the paging."""
        lines = [f"- {item.id}: {item.summary()}" for item in self.items]
        return "\n".join([*lines, self.footer("tracking requests", len(self.items))])


class ShippingLineList(Listing):
    """A page of carriers by name."""

    items: list[ShippingLine]

    def summary(self) -> str:
        """One line per carrier, then the paging."""
        lines = [f"- {item.scac}: {item.name}" for item in self.items]
        return "\n".join([*lines, self.footer("shipping lines", len(self.items))])
