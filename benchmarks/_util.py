"""Small helpers shared by the benchmark scripts: timing, table rendering and machine facts."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Collection, Sequence
from importlib import metadata
from pathlib import Path

#: What a table cell shows when a tool does not support a case.
NA = "n/a"
#: What a table cell shows when a tool raised on a case.
ERROR = "error"
#: What a table cell shows when there is nothing to compare with.
NONE = "-"


def anchors_dir(name: str) -> Path:
    """Where the anchors' data ``name`` is kept (a non-empty ``shared/anchors/<name>`` beside the
    checkout, or beside a directory above it: a worktree under ``wt/`` finds main's copy)."""
    here = Path(__file__).resolve().parents[1]
    for parent in here.parents:
        candidate = parent / "shared" / "anchors" / name
        if candidate.is_dir() and any(candidate.iterdir()):
            return candidate
    return here.parent / "shared" / "anchors" / name


def timed_s(fn: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds one call of ``fn`` takes, by ``clock`` (``time.perf_counter``; or
    ``time.process_time``, this process's CPU time, which a shared machine's load stretches
    far less than the wall clock)."""
    start = clock()
    fn()
    return clock() - start


def warm_median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``repeat`` calls of ``fn`` after one untimed warm-up call."""
    fn()
    return statistics.median(timed_s(fn) for _ in range(repeat)) * 1e3


def median(values: Sequence[float]) -> float | None:
    """The median of ``values``, or None when there are none."""
    return statistics.median(values) if values else None


def fmt(value: float | str | None, digits: int = 0, suffix: str = "") -> str:
    """A number with ``digits`` decimals and ``suffix``; strings pass through, None shows '-'."""
    if value is None:
        return NONE
    if isinstance(value, str):
        return value
    return f"{value:,.{digits}f}{suffix}"


def fmt_ms(value: float | str | None) -> str:
    """Milliseconds with a precision that suits their size."""
    if isinstance(value, float) and value < 0.1:
        return fmt(value, 4)
    if isinstance(value, float) and value < 10:
        return fmt(value, 3)
    return fmt(value, 1)


def fmt_pct(value: float | str | None) -> str:
    """A signed percentage with one decimal."""
    if isinstance(value, float):
        return f"{value:+.1f}%"
    return fmt(value)


def render_table(
    title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], left: Collection[int] = (0,)
) -> str:
    """A plain-text table; the columns numbered in ``left`` are left-aligned, the rest right."""
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        """One row, padded to the column widths."""
        parts = [
            cell.ljust(width) if i in left else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * width for width in widths)
    body = [line(row) for row in rows]
    return "\n".join([title, "=" * len(title), line(headers), rule, *body, ""])


def package_version(name: str) -> str:
    """The installed version of distribution ``name``, or 'not installed'."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def machine_lines(packages: Sequence[str]) -> list[str]:
    """Lines describing the machine, the interpreter and the versions of ``packages``."""
    versions = ", ".join(f"{name} {package_version(name)}" for name in packages)
    return [
        f"machine : {platform.platform()} ({platform.machine()}), {os.cpu_count()} CPUs, "
        f"processor '{platform.processor() or 'unknown'}'",
        f"python  : {platform.python_implementation()} {platform.python_version()}",
        f"packages: {versions}",
    ]
