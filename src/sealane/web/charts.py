"""Charts drawn on the server as inline SVG: no script, nothing from another host.

Each chart is an ``<svg role="img">`` named by its ``<title>`` and described by its ``<desc>``
(screen readers read those; the page shows the figures in a table beside each chart too). Colours
come from the stylesheet's classes, so the Content-Security-Policy's ``style-src 'self'`` holds;
geometry is in SVG user units over a fixed ``viewBox`` that scales with the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH = 640
ROW_H = 28
LEFT = 170
RIGHT = 60


@dataclass(frozen=True, slots=True)
class Bar:
    """A labelled share (0 to 1), with a note shown after it (``5/6``)."""

    label: str
    share: float
    note: str


@dataclass(frozen=True, slots=True)
class Range:
    """A labelled spread: P10 to P90 with the median (None: too few values, ``note`` says)."""

    label: str
    p10: float | None
    median: float | None
    p90: float | None
    note: str


@dataclass(frozen=True, slots=True)
class Series:
    """A labelled line of (x, y) points."""

    label: str
    points: tuple[tuple[float, float], ...]


def _frame(key: str, title: str, description: str, height: float, body: list[str]) -> Markup:
    """The ``<svg>`` around ``body``, named and described for assistive technology (``key``
    makes its element ids unique in the page)."""
    n = escape(key)
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height:.0f}" role="img" '
        f'aria-labelledby="chart-{n}-title chart-{n}-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="chart-{n}-title">{escape(title)}</title>'
        f'<desc id="chart-{n}-desc">{escape(description)}</desc>{"".join(body)}</svg>'
    )


def _text(x: float, y: float, text: str, css: str = "label", anchor: str = "start") -> str:
    return (
        f'<text class="{css}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{escape(text)}</text>'
    )


def share_bars(key: str, title: str, description: str, bars: Sequence[Bar]) -> Markup:
    """Horizontal bars of shares on a 0-100 % axis."""
    plot = WIDTH - LEFT - RIGHT
    body = [_text(LEFT + plot * t, 14, f"{t:.0%}", "axis", "middle") for t in (0, 0.5, 1)]
    for i, bar in enumerate(bars):
        y = 24 + i * ROW_H
        body.append(_text(LEFT - 8, y + 17, bar.label, anchor="end"))
        body.append(f'<rect class="track" x="{LEFT}" y="{y + 4}" width="{plot}" height="18"/>')
        width = max(0.0, min(1.0, bar.share)) * plot
        body.append(f'<rect class="bar" x="{LEFT}" y="{y + 4}" width="{width:.1f}" height="18"/>')
        body.append(_text(LEFT + plot + 6, y + 17, bar.note))
    return _frame(key, title, description, 32 + len(bars) * ROW_H, body)


def ranges(key: str, title: str, description: str, rows: Sequence[Range], unit: str) -> Markup:
    """P10-P90 bars with the median marked, on an axis around the spreads shown, each row's
    note in a column on the right."""
    note_w = 170
    plot = WIDTH - LEFT - note_w - 10
    known = [r for r in rows if r.p10 is not None and r.p90 is not None and r.median is not None]
    lows = [r.p10 for r in known if r.p10 is not None]
    highs = [r.p90 for r in known if r.p90 is not None]
    low, high = (min(lows), max(highs)) if known else (0.0, 1.0)
    margin = max((high - low) * 0.1, 0.5)
    low, high = max(0.0, low - margin), high + margin

    def x(value: float) -> float:
        return LEFT + (value - low) / (high - low) * plot

    body = [
        _text(x(low), 14, f"{low:.0f} {unit}", "axis", "start"),
        _text(x(high), 14, f"{high:.0f} {unit}", "axis", "end"),
    ]
    for i, row in enumerate(rows):
        y = 24 + i * ROW_H
        body.append(_text(LEFT - 8, y + 17, row.label, anchor="end"))
        body.append(_text(LEFT + plot + 10, y + 17, row.note, "axis"))
        if row.p10 is None or row.p90 is None or row.median is None:
            continue
        left, right = x(row.p10), x(row.p90)
        body.append(
            f'<rect class="bar" x="{left:.1f}" y="{y + 6}" width="{max(2.0, right - left):.1f}" '
            'height="14"/>'
        )
        mid = x(row.median)
        body.append(f'<rect class="mark" x="{mid - 1.5:.1f}" y="{y + 2}" width="3" height="22"/>')
    return _frame(key, title, description, 32 + len(rows) * ROW_H, body)


def lines(
    key: str, title: str, description: str, series: Sequence[Series], x_label: str, y_label: str
) -> Markup:
    """Lines over a reversed x axis (the largest x on the left), with a zero line."""
    height, top, bottom, left, right = 260.0, 20.0, 40.0, 60.0, 150.0
    xs = [p[0] for s in series for p in s.points] or [0.0, 1.0]
    ys = [p[1] for s in series for p in s.points] or [0.0]
    x_max, x_min = max(xs), min(xs)
    y_min, y_max = min([0.0, *ys]), max([0.0, *ys])
    span_x, span_y = (x_max - x_min) or 1.0, (y_max - y_min) or 1.0
    plot_w, plot_h = WIDTH - left - right, height - top - bottom

    def at(px: float, py: float) -> tuple[float, float]:
        return left + (x_max - px) / span_x * plot_w, top + (y_max - py) / span_y * plot_h

    zero = at(x_max, 0.0)[1]
    body = [
        f'<line class="zero" x1="{left}" y1="{zero:.1f}" x2="{left + plot_w}" y2="{zero:.1f}"/>',
        _text(left - 6, top + 4, f"{y_max:+.0f}", "axis", "end"),
        _text(left - 6, top + plot_h + 4, f"{y_min:+.0f}", "axis", "end"),
        _text(left, height - 8, f"{x_max:.0f}", "axis", "start"),
        _text(left + plot_w, height - 8, f"{x_min:.0f}", "axis", "end"),
        _text(left + plot_w / 2, height - 8, x_label, "axis", "middle"),
        _text(4, 12, y_label, "axis"),
    ]
    for i, line in enumerate(series):
        css = f"series series-{i % 6}"
        points = " ".join("{:.1f},{:.1f}".format(*at(px, py)) for px, py in line.points)
        body.append(f'<polyline class="{css}" points="{points}"/>')
        body.append(
            f'<rect class="{css} key" x="{WIDTH - right + 12}" y="{top + i * 20}" '
            'width="14" height="4"/>'
        )
        body.append(_text(WIDTH - right + 32, top + i * 20 + 6, line.label))
    return _frame(key, title, description, height, body)


def columns(
    key: str, title: str, description: str, values: Sequence[tuple[str, float]], unit: str
) -> Markup:
    """One column per labelled value (a day), from zero up."""
    height, top, bottom, left = 220.0, 20.0, 40.0, 50.0
    plot_w, plot_h = WIDTH - left - 20, height - top - bottom
    high = max([1.0, *(v for _, v in values)])
    step = plot_w / max(1, len(values))
    body = [
        _text(left - 6, top + 4, f"{high:.0f} {unit}", "axis", "end"),
        _text(left - 6, top + plot_h + 4, f"0 {unit}", "axis", "end"),
    ]
    for i, (label, value) in enumerate(values):
        h = value / high * plot_h
        x = left + i * step
        body.append(
            f'<rect class="bar" x="{x + step * 0.1:.1f}" y="{top + plot_h - h:.1f}" '
            f'width="{step * 0.8:.1f}" height="{h:.1f}"/>'
        )
        if len(values) <= 16 or i % max(1, len(values) // 8) == 0:
            body.append(_text(x + step / 2, height - 8, label, "axis", "middle"))
    return _frame(key, title, description, height, body)
