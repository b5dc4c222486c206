"""The database's unique constraints of custom fields, turned into the ``duplicate`` error.

The look-up before an insert gives the quick answer; two identical requests at once both pass
it, and the constraint refuses the second insert. That refusal is the caller's duplicate (422),
not a server error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import UniqueConstraint
from sqlalchemy.exc import IntegrityError

from ...store.models import Base
from ..core.errors import InvalidInput


def violates(error: IntegrityError, model: type[Base], name: str) -> bool:
    """Whether ``error`` is the refusal by ``model``'s unique constraint ``name``: PostgreSQL
    names the constraint, SQLite lists its columns (``table.column, ...``)."""
    message = str(error.orig)
    if name in message:
        return True
    table = model.__table__
    for constraint in table.constraints:  # type: ignore[attr-defined]
        if isinstance(constraint, UniqueConstraint) and constraint.name == name:
            columns = ", ".join(f"{table.name}.{column.name}" for column in constraint.columns)  # type: ignore[attr-defined]
            return f"UNIQUE constraint failed: {columns}" in message
    return False


@contextmanager
def unique(model: type[Base], name: str, duplicate: Callable[[], InvalidInput]) -> Iterator[None]:
    """Around a writing transaction: the constraint ``name`` refusing a row raises
    ``duplicate()``; any other integrity error goes on."""
    try:
        yield
    except IntegrityError as error:
        if not violates(error, model, name):
            raise
        raise duplicate() from None
