"""Accounts and their API keys, as the operator manages them (``sealane accounts ...``):
create an account, list accounts, issue and revoke keys, switch the paid routing feature; and an
account as its own keys see it (``GET /v2/account``): its name and the features it has."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from ...store.accounts import NewKey, issue_key
from ...store.accounts import create_account as create_account_row
from ...store.models import Account, ApiKey
from ..core.context import ServiceContext
from ..core.errors import InvalidInput, ObjectNotFound, Unprocessable
from .features import FEATURES
from .gatekeeper import Caller


@dataclass(frozen=True, slots=True)
class KeySummary:
    """An API key as the operator sees it: never the secret, only its first characters."""

    id: str
    account_id: str
    prefix: str
    created_at: datetime
    revoked_at: datetime | None


@dataclass(frozen=True, slots=True)
class AccountSummary:
    """An account, its routing feature and its keys, oldest first."""

    id: str
    name: str
    routing_enabled: bool
    ingest_enabled: bool
    created_at: datetime
    keys: tuple[KeySummary, ...]


@dataclass(frozen=True, slots=True)
class OwnAccount:
    """The account behind a caller, as its keys see it: its name, and whether it has each
    feature of :data:`~.features.FEATURES` (a client reads this, never infers it from a 403)."""

    id: str
    name: str
    created_at: datetime
    features: Mapping[str, bool]


def own_account(ctx: ServiceContext, caller: Caller) -> OwnAccount:
    """The caller's account, read now (a feature switched a moment ago shows at once)."""
    with ctx.reading() as session:
        account = session.get(Account, caller.account_id)
        if account is None:  # deleted while its key was still remembered
            raise ObjectNotFound("account", caller.account_id)
        enabled = {"routing": account.routing_enabled, "ingest": account.ingest_enabled}
        return OwnAccount(
            account.id, account.name, account.created_at, {name: enabled[name] for name in FEATURES}
        )


def create_account(
    ctx: ServiceContext, name: str, *, routing: bool, ingest: bool = False
) -> NewKey:
    """A new account and its first API key (the secret is shown once, here); ``ingest`` lets
    it write vessel positions (``POST /v2/vessel_positions``)."""
    if not name.strip() or len(name) > 200:
        raise InvalidInput("an account name is 1 to 200 characters", field="name")
    with ctx.writing() as session:
        return create_account_row(
            session, name.strip(), routing=routing, ingest=ingest, now=ctx.clock.now()
        )


def list_accounts(ctx: ServiceContext) -> list[AccountSummary]:
    """Every account with its keys, oldest account first."""
    with ctx.reading() as session:
        accounts = session.scalars(select(Account).order_by(Account.created_at, Account.id))
        keys: dict[str, list[KeySummary]] = {}
        for key in session.scalars(select(ApiKey).order_by(ApiKey.created_at, ApiKey.id)):
            keys.setdefault(key.account_id, []).append(_key_summary(key))
        return [_summary(a, keys.get(a.id, [])) for a in accounts]


def issue_account_key(ctx: ServiceContext, account_id: str) -> NewKey:
    """Another API key for the account (to rotate keys: issue, switch clients, revoke the old)."""
    with ctx.writing() as session:
        account = session.get(Account, account_id)
        if account is None:
            raise ObjectNotFound("account", account_id)
        return issue_key(session, account, now=ctx.clock.now())


def revoke_key(ctx: ServiceContext, key: str) -> KeySummary:
    """Revoke the key whose id or prefix is ``key``: API requests with it are refused once the
    key caches expire, and web sessions signed in with it end at once. Revoking twice is a
    no-op; a prefix shared by several keys is refused (give the id)."""
    with ctx.writing() as session:
        found = list(
            session.scalars(select(ApiKey).where((ApiKey.id == key) | (ApiKey.prefix == key)))
        )
        if not found:
            raise ObjectNotFound("API key", key, by="id or prefix")
        if len(found) > 1:
            raise Unprocessable("several keys have this prefix: give the key's id", field="key")
        if found[0].revoked_at is None:
            found[0].revoked_at = ctx.clock.now()
        return _key_summary(found[0])


def set_feature(
    ctx: ServiceContext, account_id: str, feature: str, *, enabled: bool
) -> AccountSummary:
    """Switch one of :data:`FEATURES` on or off for the account."""
    if feature not in FEATURES:
        raise InvalidInput(f"features are {', '.join(FEATURES)}", field="feature")
    with ctx.writing() as session:
        account = session.get(Account, account_id)
        if account is None:
            raise ObjectNotFound("account", account_id)
        if feature == "routing":
            account.routing_enabled = enabled
        else:
            account.ingest_enabled = enabled
        keys = session.scalars(select(ApiKey).where(ApiKey.account_id == account_id))
        return _summary(account, [_key_summary(k) for k in keys])


def _summary(account: Account, keys: list[KeySummary]) -> AccountSummary:
    return AccountSummary(
        account.id,
        account.name,
        account.routing_enabled,
        account.ingest_enabled,
        account.created_at,
        tuple(keys),
    )


def _key_summary(key: ApiKey) -> KeySummary:
    return KeySummary(key.id, key.account_id, key.prefix, key.created_at, key.revoked_at)
