"""One page of a list and the list's total, read in one statement that is built once.

A list's query is the same for every request with the same filters but for the account, the
page's offset and its size; with those as parameters (:data:`ACCOUNT`, and the offset and limit
here) and the query kept per filter (the list functions' caches), SQLAlchemy finds the statement
compiled instead of building and keying it again: about a tenth of a list request before. The
total is a window count beside each row, so a page and its total are one statement; only a page
past the end counts apart.

A shell's rendering of a page is kept (:class:`KeptPages`) with the log of the rows it was made
from, raw; the next request for the same page reads those rows again, without converting them,
and gets the kept bytes while they are equal (:func:`shown_page`). Converting rows to records
and rendering them cost most of a list request before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Integer, bindparam, func, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import BindParameter

from ...store.reading import ReadLog, read_columns
from ...store.stamps import database_stamp
from ..access.gatekeeper import Caller
from ..core.paging import Page, PageRequest

#: The account a list's query is for: compare with it instead of the account id itself.
ACCOUNT: BindParameter[str] = bindparam("account_id")
_OFFSET: BindParameter[int] = bindparam("page_offset", type_=Integer)
_LIMIT: BindParameter[int] = bindparam("page_limit", type_=Integer)
#: The column a counted page's rows carry their query's total in.
PAGE_TOTAL = "page_total__"
#: Lists' queries kept with their counted statements (one per filter in use).
KEPT_QUERIES = 256
#: Shown pages kept at most, and their weight at most (bytes, plus :data:`VALUE_WEIGHT` a value
#: read): a page of 30 shipments with their containers is about 200 kB and 3,000 values.
MAX_PAGES = 256
MAX_WEIGHT = 48 * 1024 * 1024
VALUE_WEIGHT = 64
#: Database stamps a kept page remembers: the latest under which it was found true (a stamp
#: does not come back once the database has moved on, but requests still in flight carry it).
STAMPS_KEPT = 32


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


@dataclass(frozen=True, slots=True)
class Shown:
    """How a shell shows a list page, for :func:`shown_page`: ``render`` makes its bytes from
    the page, kept in ``pages`` under ``key`` (the shell's words for everything besides the
    database that the bytes depend on: the path, the query string, the base URL)."""

    pages: KeptPages
    key: Hashable
    render: Callable[[Page[Any]], bytes]


class _Kept:
    """A kept page: its bytes, the log of what they were made from, their weight, and the
    database stamps under which that log was read or replayed with the same rows."""

    __slots__ = ("body", "log", "stamps", "weight")

    def __init__(self, body: bytes, log: ReadLog, weight: int, stamp: Hashable | None) -> None:
        self.body = body
        self.log = log
        self.weight = weight
        self.stamps: OrderedDict[Hashable, None] = OrderedDict()
        self.vouch(stamp)

    def vouch(self, stamp: Hashable | None) -> None:
        """Remember that the page was true under ``stamp`` (the latest few are kept)."""
        if stamp is not None:
            self.stamps[stamp] = None
            self.stamps.move_to_end(stamp)
            if len(self.stamps) > STAMPS_KEPT:
                self.stamps.popitem(last=False)


class KeptPages:
    """Shown list pages by key, each with the :class:`ReadLog` of what it was made from.

    A page is handed out again while its reads give the rows they gave (read from the database
    each time, so what another process changed is seen); else it is made again. When the
    database says nothing at all was committed since the page was last found true
    (:func:`~sealane.store.stamps.database_stamp`), it is handed out without reading it again.
    Least recently used pages go first beyond ``max_entries`` or ``max_weight`` (bytes kept plus
    values read).
    """

    def __init__(self, max_entries: int = MAX_PAGES, max_weight: int = MAX_WEIGHT) -> None:
        self.max_entries = max_entries
        self.max_weight = max_weight
        self.weight = 0
        self._kept: OrderedDict[Hashable, _Kept] = OrderedDict()
        self._lock = threading.Lock()
        #: Pages handed out again (``unread`` of them without reading their rows again), and
        #: pages made (for the benchmark and the tests).
        self.reused = 0
        self.unread = 0
        self.made = 0
        #: A lock for each page being made, with the number of requests holding or awaiting it.
        self._making: dict[Hashable, tuple[threading.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._kept)

    @contextmanager
    def making(self, key: Hashable) -> Iterator[None]:
        """Held while the page of ``key`` is replayed or made: requests that miss it at once
        wait for the first, then find it (one reading and rendering instead of one each)."""
        with self._lock:
            lock, waiting = self._making.get(key, (threading.Lock(), 0))
            self._making[key] = (lock, waiting + 1)
        try:
            with lock:
                yield
        finally:
            with self._lock:
                lock, waiting = self._making[key]
                if waiting == 1:
                    del self._making[key]
                else:
                    self._making[key] = (lock, waiting - 1)

    def at_once(self, key: Hashable, stamp: Hashable | None) -> bytes | None:
        """The page kept for ``key`` if nothing was committed since it was found true (the
        database's ``stamp``, taken before any read of this request)."""
        if stamp is None:
            return None
        with self._lock:
            found = self._kept.get(key)
            if found is None or stamp not in found.stamps:
                return None
            self._kept.move_to_end(key)
            self.reused += 1
            self.unread += 1
            return found.body

    def find(
        self, key: Hashable, stamp: Hashable | None, connect: Callable[[], Connection]
    ) -> bytes | None:
        """The page kept for ``key`` if it is true :meth:`at_once`, or if its reads, on the
        connection ``connect`` gives (asked only then), still give the same rows."""
        body = self.at_once(key, stamp)
        if body is not None:
            return body
        with self._lock:
            found = self._kept.get(key)
        if found is None or not found.log.replay(connect()):
            return None
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
            found.vouch(stamp)
            self.reused += 1
        return found.body

    def keep(self, key: Hashable, log: ReadLog, body: bytes, stamp: Hashable | None) -> None:
        """Keep ``body`` made from what ``log`` read after the database's ``stamp``."""
        weight = len(body) + VALUE_WEIGHT * log.weight()
        with self._lock:
            self.made += 1
            replaced = self._kept.pop(key, None)
            if replaced is not None:
                self.weight -= replaced.weight
            if weight > self.max_weight:
                return
            self._kept[key] = _Kept(body, log, weight, stamp)
            self.weight += weight
            while len(self._kept) > self.max_entries or self.weight > self.max_weight:
                _, dropped = self._kept.popitem(last=False)
                self.weight -= dropped.weight


def shown_page(
    session: Session,
    caller: Caller,
    shown: Shown,
    load: Callable[[ReadLog], Page[Any]],
) -> bytes:
    """The page ``load`` reads (logging its reads) as ``shown`` renders it, or the bytes kept
    from an earlier request while the database is unchanged or its reads give the same rows.

    The stamp is asked before the session has a connection, so a page found at once costs no
    connection of the pool (on PostgreSQL its pre-ping, ``BEGIN`` and ``ROLLBACK``). A page
    not found at once is replayed, or made, by one request at a time: those that come with the
    same stamp meanwhile find it vouched for and take it at once, so a commit does not send
    every request in flight to replay the page."""
    key, pages = (caller.account_id, shown.key), shown.pages
    stamp = database_stamp(session.get_bind())  # before anything is read: it vouches for it
    found = pages.at_once(key, stamp)
    if found is not None:
        return found
    with pages.making(key):
        found = pages.find(key, stamp, session.connection)
        if found is not None:
            return found
        log = ReadLog()
        body = shown.render(load(log))
        pages.keep(key, log, body, stamp)
        return body
