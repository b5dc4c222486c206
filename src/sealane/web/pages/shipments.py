"""The shipment list (search, filters, arrival order, pages) and the deep link that resolves a
number to its tracking page."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ...service.core.context import ServiceContext
from ...service.core.errors import InvalidInput
from ...service.core.paging import PageRequest
from ...service.tracking.browse import ArrivalWindow, ShipmentOrder, filter_choices
from ...service.tracking.filters import FilterTerms, TrackingFilter, read_filter
from ...service.tracking.requests import RequestFilter, list_requests
from ...service.tracking.shipments import list_shipments
from ...vocabulary.statuses import ContainerStatus
from ..finding import resolve_link
from ..guard import signed_in
from ..state import web_of
from .track import track_form_context

PAGE_SIZE = 25
MAX_QUERY_CHARS = 200


@dataclass(frozen=True, slots=True)
class ListQuery:
    """The list's inputs as the page's form sends them (blank: not filtered)."""

    q: str = ""
    status: str = ""
    carrier: str = ""
    pod: str = ""
    arriving: str = ""
    sort: str = ShipmentOrder.UPDATED.value
    page: int = 1

    @classmethod
    def of(cls, params: QueryParams) -> ListQuery:
        """Read from the query string; :class:`InvalidInput` names a bad value."""
        q = params.get("q", "").strip()
        if len(q) > MAX_QUERY_CHARS:
            raise InvalidInput(f"the search is longer than {MAX_QUERY_CHARS} characters", field="q")
        page = params.get("page", "1")
        if not (page.isascii() and page.isdigit()) or not 1 <= int(page) <= 100_000:
            raise InvalidInput("page must be a page number", field="page")
        return cls(
            q=q,
            status=params.get("status", "").strip(),
            carrier=params.get("carrier", "").strip().upper(),
            pod=params.get("pod", "").strip().upper(),
            arriving=params.get("arriving", "").strip(),
            sort=params.get("sort", ShipmentOrder.UPDATED.value).strip(),
            page=int(page),
        )

    def filters(self, ctx: ServiceContext) -> TrackingFilter:
        """The application layer's filter, parsed as every shell parses it (a port or carrier
        by code or name; one that names nothing is kept as written and matches nothing)."""
        status = None
        if self.status:
            try:
                status = ContainerStatus(self.status)
            except ValueError:
                raise InvalidInput("unknown container status", field="status") from None
        terms = FilterTerms(
            status=status,
            port=self.pod or None,
            carrier=self.carrier or None,
            number=self.q or None,
        )
        return read_filter(ctx, terms)

    def window(self) -> ArrivalWindow | None:
        """The arrival window, if one was chosen."""
        if not self.arriving:
            return None
        if not (self.arriving.isascii() and self.arriving.isdigit()):
            raise InvalidInput("arriving within must be a number of days", field="arriving")
        return ArrivalWindow(int(self.arriving))

    def order(self) -> ShipmentOrder:
        """The order chosen."""
        try:
            return ShipmentOrder(self.sort)
        except ValueError:
            raise InvalidInput("unknown order", field="sort") from None

    def link(self, **changes: str | int) -> str:
        """This list's address with ``changes`` (blank values left out)."""
        values = {
            "q": self.q,
            "status": self.status,
            "carrier": self.carrier,
            "pod": self.pod,
            "arriving": self.arriving,
            "sort": self.sort if self.sort != ShipmentOrder.UPDATED.value else "",
            "page": self.page if self.page != 1 else "",
            **changes,
        }
        query = urlencode({k: v for k, v in values.items() if v not in ("", None)})
        return "/shipments" + (f"?{query}" if query else "")


def shipments_page(request: Request) -> Response:
    """The account's shipments, filtered, ordered and paged, with the tracking form."""
    caller = signed_in(request)
    web = web_of(request)
    query = ListQuery.of(request.query_params)
    page = list_shipments(
        web.context,
        caller,
        query.filters(web.context),
        PageRequest(query.page, PAGE_SIZE),
        ("containers",),
        arriving=query.window(),
        order=query.order(),
    )
    requests = list_requests(web.context, caller, RequestFilter(), PageRequest(1, 5))
    return web.pages.render(
        request,
        "shipments.html",
        title="Shipments",
        query=query,
        page=page,
        choices=filter_choices(web.context, caller),
        statuses=[s.value for s in ContainerStatus],
        orders=[o.value for o in ShipmentOrder],
        requests=requests.items,
        **track_form_context(web.context),
    )


def find(request: Request) -> Response:
    """``/shipments/find?q=``: the tracking page the number leads to, or the list searched."""
    caller = signed_in(request)
    text = request.query_params.get("q", "")
    target = resolve_link(web_of(request).context, caller, text)
    return RedirectResponse(target, status_code=303, headers={"Cache-Control": "no-store"})
