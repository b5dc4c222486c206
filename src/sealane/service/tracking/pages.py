"""One page of a list and the list's total, read in one statement that is built once.

A list's query is the same for every request with the same filters but for the account, the
page's offset and its size; with those as parameters (:data:`ACCOUNT`, and the offset and limit
here) and the query kept per filter (the list functions' caches), SQLAlchemy finds the statement
compiled instead of building and keying it again: about a tenth of a list request before. The
total is a window count beside each row, so a page and its total are one statement; only a page
past the end counts apart.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sqlalchemy import Integer, bindparam, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import BindParameter

from ...store.reading import read_columns
from ..core.paging import PageRequest

#: The account a list's query is for: compare with it instead of the account id itself.
ACCOUNT: BindParameter[str] = bindparam("account_id")
_OFFSET: BindParameter[int] = bindparam("page_offset", type_=Integer)
_LIMIT: BindParameter[int] = bindparam("page_limit", type_=Integer)
#: The column a counted page's rows carry their query's total in.
PAGE_TOTAL = "page_total__"
#: Lists' queries kept with their counted statements (one per filter in use).
KEPT_QUERIES = 256


def _counted(query: Select[Any]) -> Select[Any]:
    """``query`` (over one mapped class) as plain rows of its table typed for reading, each with
    the query's row count, for the offset and limit parameters."""
    entity = query.column_descriptions[0]["entity"]
    counted = query.with_only_columns(
        *read_columns(entity.__table__),
        func.count().over().label(PAGE_TOTAL),
        maintain_column_froms=True,
    )
    return counted.offset(_OFFSET).limit(_LIMIT)


#: :func:`_counted` of the kept queries (one per filter in use).
_kept_counted = lru_cache(maxsize=KEPT_QUERIES)(_counted)


def counted_page(
    session: Session, query: Select[Any], page: PageRequest, account_id: str, *, kept: bool = True
) -> tuple[int, list[Any]]:
    """The row count of ``query`` (which compares with :data:`ACCOUNT`) for ``account_id``, and
    the rows of ``page``; ``kept`` False for a query built for this request only, so it does not
    push the kept ones out of the cache of counted statements."""
    params = {ACCOUNT.key: account_id, _OFFSET.key: page.offset, _LIMIT.key: page.size}
    counted = _kept_counted(query) if kept else _counted(query)
    rows = list(session.connection().execute(counted, params))
    if rows:
        return int(getattr(rows[0], PAGE_TOTAL)), rows
    if page.offset == 0:
        return 0, rows
    count = select(func.count()).select_from(query.order_by(None).subquery())
    return session.connection().execute(count, params).scalar_one(), rows
