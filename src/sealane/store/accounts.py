"""Accounts and API keys: creation, and key lookup by hash (the secret is never stored)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import Account, ApiKey

KEY_PREFIX = "sl_"


def hash_key(secret: str) -> str:
    """SHA-256 hex digest of an API key (keys are 256-bit random, so no salt or KDF is needed)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class NewKey:
    """A freshly created key: the secret is shown once and never again."""

    account_id: str
    key_id: str
    secret: str


def create_account(
    session: Session,
    name: str,
    *,
    routing: bool,
    now: datetime | None = None,
    ingest: bool = False,
) -> NewKey:
    """Create an account with one API key; returns the key's secret."""
    moment = now or datetime.now(UTC)
    account = Account(name=name, routing_enabled=routing, ingest_enabled=ingest, created_at=moment)
    session.add(account)
    session.flush()
    return issue_key(session, account, now=moment)


def issue_key(session: Session, account: Account, *, now: datetime | None = None) -> NewKey:
    """A new API key for ``account``."""
    secret = KEY_PREFIX + secrets.token_urlsafe(32)
    key = ApiKey(
        account_id=account.id,
        prefix=secret[:10],
        key_hash=hash_key(secret),
        created_at=now or datetime.now(UTC),
    )
    session.add(key)
    session.flush()
    return NewKey(account_id=account.id, key_id=key.id, secret=secret)


def account_for_key(session: Session, secret: str) -> Account | None:
    """The account owning the unrevoked key ``secret``, or None (one query: it runs per request)."""
    query = (
        select(Account)
        .join(ApiKey, ApiKey.account_id == Account.id)
        .where(ApiKey.key_hash == hash_key(secret), ApiKey.revoked_at.is_(None))
    )
    return session.scalar(query)
