"""The track filter: stale reports, impossible jumps (and recovery), thinning and course changes."""

from __future__ import annotations

import pytest

from sealane.feeds.ais.reports import PositionReport
from sealane.feeds.ais.tracks import Track, TrackRules, Verdict, distance_nm, judge

RULES = TrackRules()
#: One nautical mile of latitude is one minute of arc.
NM = 1.0 / 60.0


def report(t: float, lat: float = 52.0, *, speed: float | None = 12.0, course: float | None = 0.0):
    return PositionReport(244670316, t, 4.0, lat, speed, course, None, 0)


def run(*reports: PositionReport, rules: TrackRules = RULES) -> list[Verdict]:
    track = Track("v")
    return [judge(track, r, rules) for r in reports]


def test_first_report__is_stored() -> None:
    assert run(report(0.0)) == [Verdict.STORE]


def test_reports_within_a_minute__thinned_then_one_stored_per_minute() -> None:
    # 12 kn northbound, one report every 10 s for three minutes
    reports = [report(t, 52.0 + 12 * NM * t / 3600) for t in range(0, 181, 10)]
    verdicts = run(*reports)
    stored = [r.time_s for r, v in zip(reports, verdicts, strict=True) if v is Verdict.STORE]
    assert stored == [0.0, 60.0, 120.0, 180.0]


def test_course_change__stored_before_the_minute() -> None:
    assert run(report(0.0, course=0.0), report(10.0, course=25.0)) == [Verdict.STORE] * 2


def test_small_course_change__thinned() -> None:
    assert run(report(0.0, course=350.0), report(10.0, course=355.0))[1] is Verdict.THIN


def test_course_change_while_drifting__thinned() -> None:
    verdicts = run(report(0.0, speed=0.8, course=10.0), report(10.0, speed=0.8, course=200.0))
    assert verdicts[1] is Verdict.THIN


def test_standing_still__one_point_per_ten_minutes() -> None:
    reports = [report(t, speed=0.1) for t in range(0, 1201, 60)]
    stored = [r.time_s for r, v in zip(reports, run(*reports), strict=True) if v is Verdict.STORE]
    assert stored == [0.0, 600.0, 1200.0]


@pytest.mark.parametrize("repeat", [0.0, -30.0])
def test_same_or_older_time__stale(repeat: float) -> None:
    assert run(report(100.0), report(100.0 + repeat))[1] is Verdict.STALE


def test_jump_over_60_knots__rejected() -> None:
    # 2 nm in 60 s is 120 kn
    assert run(report(0.0), report(60.0, 52.0 + 2 * NM))[1] is Verdict.JUMP


def test_fast_but_possible__accepted() -> None:
    # 0.9 nm in 60 s is 54 kn
    assert run(report(0.0), report(60.0, 52.0 + 0.9 * NM))[1] is not Verdict.JUMP


def test_jump__rejected_position_does_not_become_the_anchor() -> None:
    verdicts = run(report(0.0), report(60.0, 60.0), report(120.0, 52.0 + 0.1 * NM))
    assert verdicts == [Verdict.STORE, Verdict.JUMP, Verdict.STORE]


def test_three_consistent_jumps__the_track_re_anchors() -> None:
    far = [report(60.0 * k, 60.0 + k * 0.1 * NM) for k in (1, 2, 3, 4)]
    verdicts = run(report(0.0), *far)
    assert verdicts == [Verdict.STORE, Verdict.JUMP, Verdict.JUMP, Verdict.STORE, Verdict.STORE]


def test_three_jumps_within_a_minute__the_new_anchor_is_stored_not_thinned() -> None:
    """Issue 31: a vessel replayed 3 nm from where it was last seen, three reports 10 s apart;
    the third re-anchors the track, and the history gets a point there at once."""
    far = [report(10.0 * k, 52.0 + 3 * NM) for k in (1, 2, 3)]
    assert run(report(0.0), *far) == [Verdict.STORE, Verdict.JUMP, Verdict.JUMP, Verdict.STORE]


def test_distance_nm__close_to_the_geodesic() -> None:
    from sealane.routing.geodesy import GEOD

    _, _, metres = GEOD.inv(4.0, 52.0, 4.7, 52.4)
    assert distance_nm(4.0, 52.0, 4.7, 52.4) == pytest.approx(metres / 1852.0, rel=5e-3)


def test_distance_nm__across_the_antimeridian() -> None:
    assert distance_nm(179.99, 0.0, -179.99, 0.0) == pytest.approx(1.2, abs=0.01)
