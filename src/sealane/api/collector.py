"""The garbage collector while the service answers: what start-up built is set aside, and young
objects are examined in larger batches.

A started service holds some 270,000 objects that live as long as it does (the port registry,
the routing graph's index, SQLAlchemy's metadata and compiled statements, the web app). Every
full collection walked all of them again, and a page of 30 shipments with their containers
makes enough short-lived objects to start one every few requests: under load a quarter of the
time went to the collector (measured with ``benchmarks/lists.py``). ``gc.freeze`` moves what
exists once start-up is done out of the collector's sight, and a young generation of
:data:`YOUNG_OBJECTS` lets most of a request's objects be freed by their reference counts before
the collector looks at them. Cycles are still collected; on shutdown the previous state returns
(tests start and stop many apps in one process).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

#: Allocations (less deallocations) between collections of the youngest generation (Python's
#: default is 700).
YOUNG_OBJECTS: Final = 20_000
#: Collections of one generation between collections of the next (Python's default is 10).
OLDER_EVERY: Final = 20


@contextmanager
def service_collector() -> Iterator[None]:
    """Within the block, start-up's objects are frozen and collections are rarer."""
    thresholds = gc.get_threshold()
    gc.freeze()  # without a full collection first: start-up leaves little garbage
    gc.set_threshold(YOUNG_OBJECTS, OLDER_EVERY, OLDER_EVERY)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
