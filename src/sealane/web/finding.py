"""Where a deep link ``/shipments/find?q=`` leads, by the application layer's resolution (the
same matching as the API's search): a tracking page, with a container selected for a
container number, or the shipment list with the query filled in."""

from __future__ import annotations

from urllib.parse import quote, urlencode

from ..service.access.gatekeeper import Caller
from ..service.core.context import ServiceContext
from ..service.search import ResolutionKind, resolve


def resolve_link(ctx: ServiceContext, caller: Caller, text: str) -> str:
    """The path to send the browser to for ``text`` (blank: the shipment list)."""
    if not text.strip():
        return "/shipments"
    found = resolve(ctx, caller, text)
    if found.kind is ResolutionKind.NONE or found.shipment_id is None:
        return "/shipments?" + urlencode({"q": found.query})
    path = f"/shipments/{quote(found.shipment_id, safe='')}"
    if found.container_id is not None:
        path += "?" + urlencode({"container": found.container_id})
    return path
