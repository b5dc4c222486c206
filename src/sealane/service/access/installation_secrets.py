"""Secrets of the whole installation, kept in the database: made by the first process that
asks for one, then read by every process, so they sign alike on any number of machines."""

from __future__ import annotations

import secrets

from sqlalchemy.exc import IntegrityError

from ...store.models import InstallationSecret
from ..core.context import ServiceContext


def installation_secret(context: ServiceContext, name: str) -> str:
    """The secret called ``name``: a random 256-bit key (URL-safe text), made on first use."""
    with context.reading() as session:
        found = session.get(InstallationSecret, name)
        if found is not None:
            return found.value
    made = secrets.token_urlsafe(32)
    try:
        with context.writing() as session:
            session.add(InstallationSecret(name=name, value=made, created_at=context.clock.now()))
    except IntegrityError:  # another process made it first: theirs is the one
        with context.reading() as session:
            found = session.get(InstallationSecret, name)
            assert found is not None
            return found.value
    return made
