"""``/search``: shipments, containers and tracking requests matching a number."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from ...jsonapi.lookups import search_hit_resource
from ...service import search
from ...service.access.gatekeeper import Caller
from ..jsonapi import JsonApiResponse
from ..listing import required_text
from ..operations import ApiRoute
from ..params import authenticated
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["search"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]


@router.get("/search", response_class=JsonApiResponse, responses=ERRORS)
def search_all(
    request: Request,
    caller: Auth,
    query: Annotated[
        str, required_text(search.MAX_QUERY_CHARS, description="a number or part of one")
    ],
) -> JsonApiResponse:
    """Up to 25 shipments, containers (``cargo``) and not yet found tracking requests whose
    numbers match ``query``: shipments first, exact matches first, newest first."""
    hits = search.search(context_of(request), caller, query.strip())
    data = [search_hit_resource(hit) for hit in hits]
    return JsonApiResponse({"data": data, "meta": {"total": len(data)}})
