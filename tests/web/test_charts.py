"""The server-drawn charts: named and described, text escaped, bars within the plot, and no
style attribute or script for the Content-Security-Policy to refuse."""

from __future__ import annotations

import re

from sealane.web import charts


def numbers(svg: str, attribute: str) -> list[float]:
    return [float(v) for v in re.findall(rf'\b{attribute}="(-?[0-9.]+)"', svg)]


def test_share_bars__named_described_escaped_and_in_bounds() -> None:
    bars = [charts.Bar("<b>MAEU</b>", 0.5, "3/6"), charts.Bar("ONEY", 1.7, "9/9")]
    svg = str(charts.share_bars("k", "On <time>", "desc & more", bars))
    assert 'role="img"' in svg and 'aria-labelledby="chart-k-title chart-k-desc"' in svg
    assert '<title id="chart-k-title">On &lt;time&gt;</title>' in svg
    assert "desc &amp; more" in svg and "&lt;b&gt;MAEU&lt;/b&gt;" in svg
    widths = numbers(svg, "width")
    plot = charts.WIDTH - charts.LEFT - charts.RIGHT
    assert max(widths) == plot  # a share over 1 is drawn full, never past the plot
    assert plot / 2 in widths
    assert "style=" not in svg and "<script" not in svg


def test_ranges__too_few_values_is_a_note_not_a_bar() -> None:
    rows = [
        charts.Range("MAEU", 30.0, 32.0, 35.0, "median 32.0 d, n 9"),
        charts.Range("ONEY", None, None, None, "n 2: too few"),
    ]
    svg = str(charts.ranges("t", "Transit", "", rows, "d"))
    assert svg.count('class="bar"') == 1 and svg.count('class="mark"') == 1
    assert "n 2: too few" in svg


def test_lines__reversed_axis_and_one_line_per_series() -> None:
    series = [charts.Series("MAEU", ((30.0, 12.0), (0.0, 0.0))), charts.Series("ONEY", ())]
    svg = str(charts.lines("d", "Drift", "", series, "days before arrival", "hours"))
    assert svg.count("<polyline") == 2
    first = re.search(r'points="([0-9.]+),', svg)
    assert first is not None and float(first.group(1)) == 60.0  # 30 days before: on the left


def test_columns__heights_scale_to_the_largest() -> None:
    svg = str(charts.columns("w", "Waiting", "", [("1 Jul", 5.0), ("2 Jul", 10.0)], "h"))
    heights = numbers(svg, "height")
    assert heights[-1] == 2 * heights[-2]
