"""The resource object of an account as its own keys see it (``GET /v2/account``)."""

from __future__ import annotations

from typing import Any

from ..clock import utc_iso
from ..service.access.accounts import OwnAccount
from .objects import resource


def account_resource(account: OwnAccount, base_url: str) -> dict[str, Any]:
    """An ``account`` resource: its name, and ``features`` with a boolean for every feature."""
    return resource(
        "account",
        account.id,
        {
            "name": account.name,
            "features": dict(account.features),
            "created_at": utc_iso(account.created_at),
        },
        links={"self": f"{base_url}/account"},
    )
