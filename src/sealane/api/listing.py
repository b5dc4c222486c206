"""What every router shares: parameter declarations, paging a query, account ownership."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from fastapi import Body, Query
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from .auth import Caller
from .errors import NotFound
from .jsonapi import Page

T = TypeVar("T")

#: ``page[number]`` / ``page[size]`` as declared in OpenAPI (checked again by ``parse_page``).
PageNumber = Annotated[str | None, Query(alias="page[number]", pattern=r"^[0-9]{1,7}$")]
PageSize = Annotated[str | None, Query(alias="page[size]", pattern=r"^[0-9]{1,3}$")]
Include = Annotated[str | None, Query()]
#: A JSON:API request document.
Payload = Annotated[Any, Body(media_type="application/vnd.api+json")]


def paged(session: Session, query: Select[Any], page: Page) -> tuple[int, list[Any]]:
    """The total row count of ``query`` and the rows of ``page``."""
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = session.scalars(query.offset(page.offset).limit(page.size)).all()
    return total, list(rows)


def owned(session: Session, model: type[T], object_id: str, caller: Caller, kind: str) -> T:
    """The caller's object ``object_id``; another account's object is a 404, like a missing one."""
    obj = session.get(model, object_id)
    if obj is None or getattr(obj, "account_id", None) != caller.account_id:
        raise NotFound(f"no {kind} with id {object_id!r}", code="not_found")
    return obj
