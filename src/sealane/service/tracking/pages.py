"""One page of a list and the list's total, read by statements that are built once.

A list's query is the same for every request with the same filters but for the account, the
page's place and its size; with those as parameters (:data:`ACCOUNT`, and the offset, key and
limit here) and the query kept per filter (the list functions' caches), SQLAlchemy finds the
statement compiled instead of building and keying it again.

Lists in the order of an index ``(account_id, time, id)`` (a :class:`Keyset`: newest first, ties
by the highest id) are read by key: a page asked for after a key (:class:`~..core.paging.
PageKey`, the previous page's last row) reads the index from there, whatever the page's number,
so its cost does not grow with the list and a client walking the pages misses no row and sees
none twice while rows come and go. A page asked for by number alone skips the rows before it
in the index only (ids, not rows). The total is a count of its own, answered from the account's
index entries, never by holding the rows.

A page can also be read with what it read (:func:`read_page`: the records and their
:class:`Reads`), so that a shell that keeps its rendering of the page (the API's
:mod:`~sealane.api.kept_pages`) can ask later whether reading again gives the same raw rows
(:func:`reads_the_same`), without converting them to records, or whether nothing a list shows
was committed since (:func:`change_stamp`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, Generic, TypeVar

from sqlalchemy import ColumnElement, Integer, String, bindparam, func, select, tuple_
from sqlalchemy.orm import QueryableAttribute, Session
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import BindParameter

from ...store.models import UTCDateTime
from ...store.reading import ReadLog, read_columns
from ...store.stamps import list_stamp
from ..core.context import ServiceContext
from ..core.paging import Page, PageKey, PageRequest

#: The account a list's query is for: compare with it instead of the account id itself.
ACCOUNT: BindParameter[str] = bindparam("account_id")
_OFFSET: BindParameter[int] = bindparam("page_offset", type_=Integer)
_LIMIT: BindParameter[int] = bindparam("page_limit", type_=Integer)
_AFTER_TIME: BindParameter[datetime] = bindparam("after_time", type_=UTCDateTime())
_AFTER_ID: BindParameter[str] = bindparam("after_id", type_=String)
T = TypeVar("T")
#: Lists' queries kept with their statements (one per filter in use).
KEPT_QUERIES = 256


@dataclass(frozen=True, slots=True)
class Keyset:
    """The order of a list read by key: newest ``time`` first, ties by the highest ``id`` (an
    index ``(account_id, time, id)`` read backwards)."""

    time: QueryableAttribute[datetime]
    id: QueryableAttribute[str]

    def order(self) -> tuple[ColumnElement[Any], ColumnElement[Any]]:
        """The ORDER BY of the list."""
        return self.time.desc(), self.id.desc()

    def key_of(self, row: Any) -> PageKey:
        """The key of a row read by :func:`counted_page`."""
        return PageKey(getattr(row, self.time.key), getattr(row, self.id.key))


def _columns(query: Select[Any]) -> Select[Any]:
    """``query`` (over one mapped class) as plain rows of its table typed for reading."""
    entity = query.column_descriptions[0]["entity"]
    return query.with_only_columns(*read_columns(entity.__table__), maintain_column_froms=True)


def _by_offset(query: Select[Any]) -> Select[Any]:
    """The rows of ``query`` from the offset parameter."""
    return _columns(query).offset(_OFFSET).limit(_LIMIT)


def _by_key(query: Select[Any], keyset: Keyset) -> Select[Any]:
    """The rows of ``query`` (in ``keyset``'s order) after the key parameters."""
    after = tuple_(keyset.time, keyset.id) < tuple_(_AFTER_TIME, _AFTER_ID)
    return _columns(query.where(after)).limit(_LIMIT)


def _skipping_ids(query: Select[Any], keyset: Keyset) -> Select[Any]:
    """The rows of ``query`` from the offset parameter, the rows before it skipped among the
    index's ids (``id IN (the page's ids)``) rather than read and dropped."""
    ids = query.with_only_columns(keyset.id).offset(_OFFSET).limit(_LIMIT)
    return _columns(query.where(keyset.id.in_(ids.scalar_subquery())))


def _count(query: Select[Any]) -> Select[Any]:
    """The row count of ``query``."""
    return select(func.count().label("total")).select_from(query.order_by(None).subquery())


#: The statements of the kept queries (one per filter in use).
_kept_by_offset = lru_cache(maxsize=KEPT_QUERIES)(_by_offset)
_kept_by_key = lru_cache(maxsize=KEPT_QUERIES)(_by_key)
_kept_skipping = lru_cache(maxsize=KEPT_QUERIES)(_skipping_ids)
_kept_count = lru_cache(maxsize=KEPT_QUERIES)(_count)


def counted_page(
    session: Session,
    query: Select[Any],
    page: PageRequest,
    account_id: str,
    *,
    keyset: Keyset | None = None,
    kept: bool = True,
    log: ReadLog | None = None,
) -> tuple[int, list[Any], PageKey | None]:
    """The row count of ``query`` (which compares with :data:`ACCOUNT`) for ``account_id``, the
    rows of ``page``, and the key the next page begins after (for a list in ``keyset``'s order,
    when the page is full). ``kept`` False for a query built for this request only, so it does
    not push the kept ones out of the caches of statements. With ``log``, what is read is logged
    there (only for kept queries: the log holds their statements)."""
    params: dict[str, Any] = {
        ACCOUNT.key: account_id,
        _OFFSET.key: page.offset,
        _LIMIT.key: page.size,
    }
    if keyset is not None and page.after is not None:
        params[_AFTER_TIME.key] = page.after.moment
        params[_AFTER_ID.key] = page.after.id
        rows_of = _kept_by_key(query, keyset) if kept else _by_key(query, keyset)
    elif keyset is not None and page.offset > 0:
        rows_of = _kept_skipping(query, keyset) if kept else _skipping_ids(query, keyset)
    else:
        rows_of = _kept_by_offset(query) if kept else _by_offset(query)
    rows = _read(session, rows_of, params, log)
    count = _kept_count(query) if kept else _count(query)
    total = int(_read(session, count, {ACCOUNT.key: account_id}, log)[0][0])
    after = keyset.key_of(rows[-1]) if keyset is not None and len(rows) == page.size else None
    return total, rows, after


def _read(
    session: Session, statement: Select[Any], params: dict[str, Any], log: ReadLog | None
) -> list[Any]:
    connection = session.connection()
    if log is not None:
        return log.read(connection, statement, params)
    return list(connection.execute(statement, params))


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
