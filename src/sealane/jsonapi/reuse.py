"""Rendered resource objects kept beside the fingerprint of the record they were rendered from,
reused while the record a request reads has the same fingerprint.

A page of 30 shipments with their containers is about a hundred resource objects of some forty
members each; building them again for every request cost more than reading their rows. A record
is a frozen value of everything its resource shows (its row and what the loader found for it),
so a record of the same fingerprint (equal values of the same types) renders to an equal
object: the object kept is handed out again, and
rendering happens only for what changed. The objects are shared between requests and must not be
changed by whoever receives them (documents are only serialised). Each is kept serialised too:
:meth:`RenderedResources.serialised` gives a document its bytes to copy as they are.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import orjson

from ..fingerprint import fingerprint

#: Resource objects kept at most, least recently used dropped first (a shipment or container
#: object is one to two kB).
MAX_ENTRIES = 8192


class RenderedResources:
    """Resource objects by key (type, id, base URL), each with the record it shows."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        #: Each key's record fingerprint and the object rendered from it.
        self._kept: OrderedDict[Hashable, tuple[bytes, dict[str, Any]]] = OrderedDict()
        #: The JSON of each object kept, by the object's id (removed with the object).
        self._json: dict[int, orjson.Fragment] = {}
        self._lock = threading.Lock()
        #: Objects handed out again, and objects rendered (for the benchmark and the tests).
        self.reused = 0
        self.rendered = 0

    def __len__(self) -> int:
        return len(self._kept)

    def resource(
        self, key: Hashable, record: object, render: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """The object kept for ``key`` if it was rendered from a record of the same
        :func:`fingerprint` as ``record``, else ``render()``, kept from now on."""
        printed = fingerprint(record)
        with self._lock:
            found = self._kept.get(key)
            if found is not None and found[0] == printed:
                self._kept.move_to_end(key)
                self.reused += 1
                return found[1]
        obj = render()
        serialised = orjson.Fragment(orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS))
        with self._lock:
            replaced = self._kept.pop(key, None)
            if replaced is not None:
                self._json.pop(id(replaced[1]), None)
            self._kept[key] = (printed, obj)
            self._json[id(obj)] = serialised
            self.rendered += 1
            while len(self._kept) > self.max_entries:
                _, (_, dropped) = self._kept.popitem(last=False)
                self._json.pop(id(dropped), None)
        return obj

    def serialised(self, obj: dict[str, Any]) -> Any:
        """``obj``'s JSON if it is an object kept here (to be written as it is), else ``obj``."""
        with self._lock:
            return self._json.get(id(obj), obj)
