"""Accounts and API keys on SQLite and PostgreSQL: secrets are shown once, stored as SHA-256."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from sealane.store.accounts import (
    KEY_PREFIX,
    account_for_key,
    create_account,
    hash_key,
    issue_key,
)
from sealane.store.database import transaction
from sealane.store.models import Account, ApiKey

from .conftest import START


def test_create_account__returns_a_prefixed_secret_stored_only_as_sha256(
    sessions: sessionmaker[Session],
) -> None:
    with transaction(sessions) as session:
        new = create_account(session, "Acme Shipping", routing=True, now=START)
    assert new.secret.startswith(KEY_PREFIX) and new.secret.startswith("sl_")
    assert len(new.secret) > 40  # 32 random bytes, urlsafe base64
    with sessions() as session:
        key = session.get(ApiKey, new.key_id)
        assert key is not None
        assert key.account_id == new.account_id
        assert (
            key.key_hash == hashlib.sha256(new.secret.encode()).hexdigest() == hash_key(new.secret)
        )
        assert key.prefix == new.secret[:10]
        assert key.created_at == START
        assert key.revoked_at is None
        stored = [
            value
            for row in session.execute(select(ApiKey.__table__)).all()
            for value in row
            if isinstance(value, str)
        ]
        assert new.secret not in stored
        assert not any(new.secret in value for value in stored)
        account = session.get(Account, new.account_id)
        assert account is not None
        assert (account.name, account.routing_enabled, account.created_at) == (
            "Acme Shipping",
            True,
            START,
        )


def test_account_for_key__finds_the_account(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        new = create_account(session, "Acme Shipping", routing=False, now=START)
    with sessions() as session:
        account = account_for_key(session, new.secret)
        assert account is not None
        assert account.id == new.account_id
        assert account.name == "Acme Shipping"
        assert account.routing_enabled is False


def test_account_for_key__wrong_key_is_none(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        new = create_account(session, "Acme Shipping", routing=True, now=START)
    with sessions() as session:
        assert account_for_key(session, "sl_not-a-key") is None
        assert account_for_key(session, "") is None
        assert account_for_key(session, new.secret + "x") is None
        assert account_for_key(session, new.secret[:-1]) is None
        assert account_for_key(session, new.secret.upper()) is None
        assert account_for_key(session, hash_key(new.secret)) is None  # the hash is no key


def test_account_for_key__revoked_key_is_none(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        new = create_account(session, "Acme Shipping", routing=True, now=START)
        spare = issue_key(session, session.get_one(Account, new.account_id), now=START)
    with transaction(sessions) as session:
        session.get_one(ApiKey, new.key_id).revoked_at = START + timedelta(hours=1)
    with sessions() as session:
        assert account_for_key(session, new.secret) is None
        other = account_for_key(session, spare.secret)  # the account's other key still works
        assert other is not None and other.id == new.account_id
        assert session.get_one(ApiKey, new.key_id).revoked_at == START + timedelta(hours=1)


def test_two_accounts__distinct_keys_each_finding_its_own_account(
    sessions: sessionmaker[Session],
) -> None:
    with transaction(sessions) as session:
        first = create_account(session, "First Co", routing=True, now=START)
        second = create_account(session, "Second Co", routing=False, now=START)
    assert first.account_id != second.account_id
    assert first.key_id != second.key_id
    assert first.secret != second.secret
    assert hash_key(first.secret) != hash_key(second.secret)
    with sessions() as session:
        found_first = account_for_key(session, first.secret)
        found_second = account_for_key(session, second.secret)
        assert found_first is not None and found_first.name == "First Co"
        assert found_second is not None and found_second.name == "Second Co"
        assert found_first.routing_enabled and not found_second.routing_enabled
        assert session.scalar(select(func.count()).select_from(ApiKey)) == 2


def test_issue_key__adds_a_second_working_key(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        new = create_account(session, "Acme Shipping", routing=True, now=START)
        again = issue_key(session, session.get_one(Account, new.account_id), now=START)
    assert again.account_id == new.account_id and again.secret != new.secret
    with sessions() as session:
        for secret in (new.secret, again.secret):
            account = account_for_key(session, secret)
            assert account is not None and account.id == new.account_id
        account = session.get_one(Account, new.account_id)
        assert {key.id for key in account.api_keys} == {new.key_id, again.key_id}


def test_create_account__without_now_uses_the_current_utc_time(
    sessions: sessionmaker[Session],
) -> None:
    before = datetime.now(UTC)
    with transaction(sessions) as session:
        new = create_account(session, "Clockless Co", routing=False)
    after = datetime.now(UTC)
    with sessions() as session:
        created = session.get_one(Account, new.account_id).created_at
        key_created = session.get_one(ApiKey, new.key_id).created_at
    assert created.tzinfo is UTC
    assert before <= created == key_created <= after


def test_deleting_an_account__cascades_to_its_keys_in_the_database(
    sessions: sessionmaker[Session],
) -> None:
    """ON DELETE CASCADE holds on both backends (on SQLite, thanks to PRAGMA foreign_keys)."""
    with transaction(sessions) as session:
        gone = create_account(session, "Gone Co", routing=False, now=START)
        kept = create_account(session, "Kept Co", routing=False, now=START)
    with transaction(sessions) as session:
        session.execute(delete(Account).where(Account.id == gone.account_id))
    with sessions() as session:
        assert account_for_key(session, gone.secret) is None
        assert session.get(ApiKey, gone.key_id) is None
        assert session.get(ApiKey, kept.key_id) is not None
