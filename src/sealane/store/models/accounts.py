"""Accounts, their API keys and browser sessions, the installation's signing secrets,
rate-limit counters, and the parties (customers) an account tracks shipments for."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Integer,
    String,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, UTCDateTime, new_id


class Account(Base):
    """A customer account: owns keys and everything tracked; features switch paid parts on."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    routing_enabled: Mapped[bool] = mapped_column(Boolean, default=False)
    #: May write vessel positions (``POST /v2/vessel_positions``): they are shared by every
    #: account, so this is granted on its own, not with the routing feature.
    ingest_enabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    api_keys: Mapped[list[ApiKey]] = relationship(back_populates="account")


class ApiKey(Base):
    """An API key, stored as the SHA-256 of the secret; ``prefix`` identifies it to humans."""

    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    prefix: Mapped[str] = mapped_column(String(16))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    account: Mapped[Account] = relationship(back_populates="api_keys")


class BrowserSession(Base):
    """A signed-in browser of the web app, under the API key it signed in with.

    Only the SHA-256 of the session id is stored (the id itself is in the browser's signed
    cookie), so a copy of the table signs nobody in; revoking the key ends its sessions.
    """

    __tablename__ = "web_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    api_key_id: Mapped[str] = mapped_column(
        ForeignKey("api_keys.id", ondelete="CASCADE"), index=True
    )
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class InstallationSecret(Base):
    """A secret of the whole installation, by name (``web``: the key signing the web app's
    cookies and form tokens), made once and shared by every process on the database."""

    __tablename__ = "installation_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RateLimitCount(Base):
    """Admitted requests of a rate-limited key (an account, or an address failing to sign in)
    in one whole second of wall-clock time; every server process counts the same rows, and a
    window is the sum of at most its length in seconds of them, however busy the key."""

    __tablename__ = "rate_limit_counts"

    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    #: The second, since the epoch (every process reads the same clock).
    second: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


class Party(Base):
    """A company an account tracks shipments for (a tracking request's ``customer``)."""

    __tablename__ = "parties"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    company_name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
