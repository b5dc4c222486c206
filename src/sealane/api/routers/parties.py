"""``/parties``: the companies an account tracks shipments for."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...jsonapi import Included
from ...jsonapi.fields import party_resource
from ...service.access.gatekeeper import Caller
from ...service.tracking import parties
from ...service.tracking.records import PartyRecord
from .. import bodies
from ..bodies import body
from ..documents import attributes_of
from ..jsonapi import JsonApiResponse
from ..listing import Paging
from ..operations import ApiRoute
from ..params import authenticated
from ..render import many, one
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["parties"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]


def render(included: Included, record: PartyRecord) -> dict[str, Any]:
    """A party."""
    return party_resource(record, included.base)


@router.get("/parties", response_class=JsonApiResponse, responses=ERRORS)
def list_parties(request: Request, caller: Auth, page: Paging) -> JsonApiResponse:
    """The account's parties by company name."""
    found = parties.list_parties(context_of(request), caller, page)
    return many(request, found, "parties", render)


@router.post("/parties", status_code=201, response_class=JsonApiResponse, responses=ERRORS)
def create_party(
    request: Request, caller: Auth, payload: Annotated[Any, body(bodies.NEW_PARTY)]
) -> JsonApiResponse:
    """A new party (``company_name``)."""
    changes = parties.PartyChanges.of(attributes_of(payload, "party"))
    created = parties.create_party(context_of(request), caller, changes)
    return one(request, created, render, status_code=201)


@router.get("/parties/{party_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_party(request: Request, party_id: str, caller: Auth) -> JsonApiResponse:
    """One party."""
    return one(request, parties.get_party(context_of(request), caller, party_id), render)


@router.patch("/parties/{party_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_party(
    request: Request,
    party_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.PARTY_CHANGES)],
) -> JsonApiResponse:
    """Rename a party."""
    changes = parties.PartyChanges.of(attributes_of(payload, "party", id_=party_id))
    found = parties.update_party(context_of(request), caller, party_id, changes)
    return one(request, found, render)
