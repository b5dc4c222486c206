"""One page of a list and the list's total, read in one statement that is built once.

A list's query is the same for every request with the same filters but for the account, the
page's offset and its size; with those as parameters (:data:`ACCOUNT`, and the offset and limit
here) and the query kept per filter (the list functions' caches), SQLAlchemy finds the statement
compiled instead of building and keying it again: about a tenth of a list request before. The
total is a window count beside each row, so a page and its total are one statement; only a page
past the end counts apart.

A page can also be read with what it read (:func:`read_page`: the records and their
:class:`Reads`), so that a shell that keeps its rendering of the page (the API's
:mod:`~sealane.api.kept_pages`) can ask later whether reading again gives the same raw rows
(:func:`reads_the_same`), without converting them to records, or whether nothing at all was
committed since (:func:`change_stamp`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar

from sqlalchemy import Integer, bindparam, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import BindParameter

from ...store.reading import ReadLog, read_columns
from ...store.stamps import list_stamp
from ..core.context import ServiceContext
from ..core.paging import Page, PageRequest

#: The account a list's query is for: compare with it instead of the account id itself.
ACCOUNT: BindParameter[str] = bindparam("account_id")
_OFFSET: BindParameter[int] = bindparam("page_offset", type_=Integer)
_LIMIT: BindParameter[int] = bindparam("page_limit", type_=Integer)
T = TypeVar("T")
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
    session: Session,
    query: Select[Any],
    page: PageRequest,
    account_id: str,
    *,
    kept: bool = True,
    log: ReadLog | None = None,
) -> tuple[int, list[Any]]:
    """The row count of ``query`` (which compares with :data:`ACCOUNT`) for ``account_id``, and
    the rows of ``page``; ``kept`` False for a query built for this request only, so it does not
    push the kept ones out of the cache of counted statements. With ``log``, what is read is
    logged there (only for kept queries: the log holds their statements)."""
    params = {ACCOUNT.key: account_id, _OFFSET.key: page.offset, _LIMIT.key: page.size}
    counted = _kept_counted(query) if kept else _counted(query)
    rows = _read(session, counted, params, log)
    if rows:
        return int(getattr(rows[0], PAGE_TOTAL)), rows
    if page.offset == 0:
        return 0, rows
    count = (_kept_count if kept else _count)(query)
    return int(_read(session, count, params, log)[0][0]), rows


def _read(
    session: Session, statement: Select[Any], params: dict[str, Any], log: ReadLog | None
) -> list[Any]:
    connection = session.connection()
    if log is not None:
        return log.read(connection, statement, params)
    return list(connection.execute(statement, params))


def _count(query: Select[Any]) -> Select[Any]:
    """The row count of ``query``."""
    return select(func.count().label("total")).select_from(query.order_by(None).subquery())


#: :func:`_count` of the kept queries.
_kept_count = lru_cache(maxsize=KEPT_QUERIES)(_count)


class Reads:
    """What one page's reading read (its statements, their parameters and the raw rows they
    gave), for a shell that keeps what it made of the page: :func:`reads_the_same` says whether
    reading again would give the same rows, so the shell's rendering of them is still true."""

    __slots__ = ("_log",)

    def __init__(self, log: ReadLog) -> None:
        self._log = log

    def weight(self) -> int:
        """About how many values were read."""
        return self._log.weight()


@dataclass(frozen=True, slots=True)
class ReadPage(Generic[T]):
    """A page of records, with what was read to make it (:class:`Reads`)."""

    page: Page[T]
    reads: Reads


def read_page(ctx: ServiceContext, load: Callable[[Session, ReadLog], Page[T]]) -> ReadPage[T]:
    """The page ``load`` reads in a new session, logging its reads."""
    log = ReadLog()
    with ctx.reading() as session:
        return ReadPage(load(session, log), Reads(log))


def change_stamp(ctx: ServiceContext) -> Hashable | None:
    """A value the next call gives again only if nothing a list page shows was committed in
    between, by anyone (None where the database cannot tell cheaply); bookkeeping writes such
    as the rate limiter's leave it. Taken before a page is read, it vouches for that page
    while it comes back unchanged."""
    return list_stamp(ctx.engine)


def reads_the_same(ctx: ServiceContext, reads: Reads) -> bool:
    """Whether every statement of ``reads`` gives the rows it gave, read again now."""
    with ctx.reading() as session:
        return reads._log.replay(session.connection())
