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
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Integer, bindparam, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import BindParameter

from ...store.reading import ReadLog, read_columns
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


class KeptPages:
    """Shown list pages by key, each with the :class:`ReadLog` of what it was made from.

    A page is handed out again while its reads give the rows they gave (read from the database
    each time, so what another process changed is seen); else it is made again. Least recently
    used pages go first beyond ``max_entries`` or ``max_weight`` (bytes kept plus values read).
    """

    def __init__(self, max_entries: int = MAX_PAGES, max_weight: int = MAX_WEIGHT) -> None:
        self.max_entries = max_entries
        self.max_weight = max_weight
        self.weight = 0
        self._kept: OrderedDict[Hashable, tuple[ReadLog, bytes, int]] = OrderedDict()
        self._lock = threading.Lock()
        #: Pages handed out again, and pages made (for the benchmark and the tests).
        self.reused = 0
        self.made = 0

    def __len__(self) -> int:
        return len(self._kept)

    def find(self, key: Hashable, session: Session) -> bytes | None:
        """The page kept for ``key`` if its reads still give the same rows."""
        with self._lock:
            found = self._kept.get(key)
        if found is None or not found[0].replay(session.connection()):
            return None
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
            self.reused += 1
        return found[1]

    def keep(self, key: Hashable, log: ReadLog, body: bytes) -> None:
        """Keep ``body`` made from what ``log`` read."""
        weight = len(body) + VALUE_WEIGHT * log.weight()
        with self._lock:
            self.made += 1
            replaced = self._kept.pop(key, None)
            if replaced is not None:
                self.weight -= replaced[2]
            if weight > self.max_weight:
                return
            self._kept[key] = (log, body, weight)
            self.weight += weight
            while len(self._kept) > self.max_entries or self.weight > self.max_weight:
                _, (_, _, dropped) = self._kept.popitem(last=False)
                self.weight -= dropped


def shown_page(
    session: Session,
    caller: Caller,
    shown: Shown,
    load: Callable[[ReadLog], Page[Any]],
) -> bytes:
    """The page ``load`` reads (logging its reads) as ``shown`` renders it, or the bytes kept
    from an earlier request whose reads give the same rows again."""
    key = (caller.account_id, shown.key)
    found = shown.pages.find(key, session)
    if found is not None:
        return found
    log = ReadLog()
    body = shown.render(load(log))
    shown.pages.keep(key, log, body)
    return body
