"""Dask DataFrames: the same functions, partition by partition, on the workers.

Each partition is a pandas DataFrame handed to the pandas code path on whichever worker holds
it. The engine (network, land mask, ports) and the fleet's legs are kept per process, so a
worker loads them once, on its first partition or when :func:`warm_workers` registers
:class:`WarmEngine`; later partitions reuse them. The result's schema (``meta``) comes from the
same function run on the empty frame Dask keeps, which touches no data and loads nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from . import _engine


def map_partitions(frame: Any, function: Callable[..., Any], **options: Any) -> Any:
    """``function(partition, **options)`` on every partition of a Dask DataFrame, lazily."""
    meta = function(frame._meta, **options)
    return frame.map_partitions(function, meta=meta, **options)


class WarmEngine(WorkerPlugin):
    """Loads the engine on a worker when it starts (or joins), before any partition."""

    name = "sealane-fleet-warm-engine"

    def setup(self, worker: Any) -> None:
        """Called by the worker once, in its own process."""
        _engine.warm()


def warm_workers(client: Any) -> None:
    """Register :class:`WarmEngine` with ``client``: every worker, present or future, loads the
    engine once."""
    client.register_plugin(WarmEngine())
