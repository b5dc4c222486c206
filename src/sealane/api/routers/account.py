"""``/account``: the caller's own account and the features it has, so that a client (the MCP
server over HTTP, a script) reads what it may do instead of inferring it from a 403."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...jsonapi import Included
from ...jsonapi.accounts import account_resource
from ...service.access.accounts import OwnAccount, own_account
from ...service.access.features import FEATURES
from ...service.access.gatekeeper import Caller
from ..jsonapi import JsonApiResponse
from ..operations import ApiRoute
from ..params import authenticated
from ..render import one
from ..state import context_of
from .responses import ERRORS, resource_answer

router = APIRouter(tags=["account"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]

#: The ``attributes`` of an ``account`` resource, as the OpenAPI document declares them.
ACCOUNT_ATTRIBUTES: dict[str, Any] = {
    "type": "object",
    "required": ["name", "features", "created_at"],
    "properties": {
        "name": {"type": "string"},
        "features": {
            "type": "object",
            "description": "Whether the account has each feature: "
            + "; ".join(f"{name}, {meaning}" for name, meaning in FEATURES.items()),
            "required": list(FEATURES),
            "properties": {name: {"type": "boolean"} for name in FEATURES},
            "additionalProperties": False,
        },
        "created_at": {"type": "string", "format": "date-time"},
    },
}


def render(included: Included, account: OwnAccount) -> dict[str, Any]:
    """The account."""
    return account_resource(account, included.base)


@router.get(
    "/account",
    response_class=JsonApiResponse,
    responses={**ERRORS, **resource_answer("account", ACCOUNT_ATTRIBUTES, "The caller's account")},
)
def get_account(request: Request, caller: Auth) -> JsonApiResponse:
    """The account of the key that calls: its name and which features it has."""
    return one(request, own_account(context_of(request), caller), render)
