"""List pages the API keeps rendered while what they were read from is unchanged.

The application layer reads a page with what it read (``read_shipments`` and the like, through
:func:`~sealane.service.tracking.pages.read_page`); the API renders it and keeps the bytes
(:class:`KeptPages`) with those reads. The next request for the same page is answered with the
kept bytes when nothing a list shows was committed since (the rate limiter's and other
bookkeeping writes do not count; :func:`~sealane.service.tracking.pages.
change_stamp`), or when reading again gives the same raw rows (``reads_the_same``), without
converting them to records or rendering them again: most of a list request's cost.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from ..service.core.context import ServiceContext
from ..service.core.paging import Page
from ..service.tracking.pages import ReadPage, Reads, change_stamp, reads_the_same

T = TypeVar("T")
#: Pages kept at most, and their weight at most (bytes, plus :data:`VALUE_WEIGHT` a value
#: read): a page of 30 shipments with their containers is about 200 kB and 3,000 values.
MAX_PAGES = 256
MAX_WEIGHT = 48 * 1024 * 1024
VALUE_WEIGHT = 64
#: Database stamps a kept page remembers: the latest under which it was found true (a stamp
#: does not come back once the database has moved on, but requests still in flight carry it).
STAMPS_KEPT = 32


class _Kept:
    """A kept page: its bytes, what was read to make them, their weight, and the database
    stamps under which those reads were made or found to give the same rows."""

    __slots__ = ("body", "reads", "stamps", "weight")

    def __init__(self, body: bytes, reads: Reads, weight: int, stamp: Hashable | None) -> None:
        self.body = body
        self.reads = reads
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
    """Rendered list pages by key, each with the :class:`~sealane.service.tracking.pages.Reads`
    of what it was made from.

    A page is handed out again while its reads give the rows they gave (read from the database
    each time, so what another process changed is seen); else it is made again. When the
    database says nothing a list shows was committed since the page was last found true
    (:func:`~sealane.service.tracking.pages.change_stamp`), it is handed out without reading it
    again. Least recently used pages go first beyond ``max_entries`` or ``max_weight`` (bytes
    kept plus values read).
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
        """The page kept for ``key`` if nothing a list shows was committed since it was found
        true (the database's list ``stamp``, taken before any read of this request)."""
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
        self, key: Hashable, stamp: Hashable | None, still_true: Callable[[Reads], bool]
    ) -> bytes | None:
        """The page kept for ``key`` if it is true :meth:`at_once`, or if ``still_true`` (asked
        only then) says its reads still give the same rows."""
        body = self.at_once(key, stamp)
        if body is not None:
            return body
        with self._lock:
            found = self._kept.get(key)
        if found is None or not still_true(found.reads):
            return None
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
            found.vouch(stamp)
            self.reused += 1
        return found.body

    def keep(self, key: Hashable, reads: Reads, body: bytes, stamp: Hashable | None) -> None:
        """Keep ``body`` made from what ``reads`` read after the database's ``stamp``."""
        weight = len(body) + VALUE_WEIGHT * reads.weight()
        with self._lock:
            self.made += 1
            replaced = self._kept.pop(key, None)
            if replaced is not None:
                self.weight -= replaced.weight
            if weight > self.max_weight:
                return
            self._kept[key] = _Kept(body, reads, weight, stamp)
            self.weight += weight
            while len(self._kept) > self.max_entries or self.weight > self.max_weight:
                _, dropped = self._kept.popitem(last=False)
                self.weight -= dropped.weight


def kept_page(
    pages: KeptPages,
    key: Hashable,
    ctx: ServiceContext,
    read: Callable[[], ReadPage[T]],
    render: Callable[[Page[T]], bytes],
) -> bytes:
    """The page ``read`` reads as ``render`` renders it, or the bytes kept for ``key`` from an
    earlier request while the database is unchanged or its reads give the same rows.

    The stamp is asked before anything is read, so a page found at once costs no connection of
    the pool (on PostgreSQL its pre-ping, ``BEGIN`` and ``ROLLBACK``). A page not found at once
    is checked, or made, by one request at a time: those that come with the same stamp
    meanwhile find it vouched for and take it at once, so a commit does not send every request
    in flight to read the page again."""
    stamp = change_stamp(ctx)  # before anything is read: it vouches for it
    found = pages.at_once(key, stamp)
    if found is not None:
        return found
    with pages.making(key):
        found = pages.find(key, stamp, lambda reads: reads_the_same(ctx, reads))
        if found is not None:
            return found
        fresh = read()
        body = render(fresh.page)
        pages.keep(key, fresh.reads, body, stamp)
        return body
