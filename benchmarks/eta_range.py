"""The ETA range against real voyages: coverage of P10-P90 and the ETA's error on held-out voyages.

Run ``.venv/bin/python benchmarks/eta_range.py`` to score the shipped model
(``data/eta_range.json``), or with ``--fit`` to refit it first and write the file. The voyages
are the Suez Canal AIS extract of ``tests/fixtures/ais/`` read as voyages to the port past the
canal (``tests/fixtures/eta_voyages.py`` says how); one vessel in three is held out of the fit.
The seven US coastal voyages of the same folder (to the registry port each reaches) are never
fitted on: their row checks the range on voyages unlike the canal's.

The fit is a linear quantile regression (10 % and 90 %, by linear programming: scipy's HiGHS)
of log(actual hours to go / the engine's predicted hours to go) on the features that vary among
the fitted voyages: the log of the predicted hours, the log of the remaining distance, the
passages on the remaining route, and the spread of the observed speed (an unknown spread, where
no speed was observed, is taken as the largest seen). The range always holds the ETA, which
widens it where the ETA is biased, so each quantile is moved towards the median until, held to
the ETA's side, 10 % of the fitted arrivals fall before P10 and 10 % after P90. Because the
predicted hours are ``Positions.eta``'s, refitting after a change to the ETA (a speed profile,
say) fits the range to the new ETA: run ``--fit`` again.

Printed, by source: the coverage of P10-P90 on the held-out voyages (the target is 80 %), the
shares below P10 and above P90, and the median absolute ETA error, in hours and as a share of the
time to go, of the plain ETA (the route's length at 14 kn) and of ``Positions.eta`` (at the
observed speed).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import linprog

from _util import fmt, machine_lines, render_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fixtures.eta_voyages import Estimate, estimates, voyages

from sealane.routing.data.files import data_dir
from sealane.routing.eta_range import (
    FEATURES,
    MODEL_FILE,
    EtaRangeModel,
    feature_columns,
    load_model,
)
from sealane.routing.voyage import DEFAULT_SPEED_KN

QUANTILES = {"p10": 0.1, "p90": 0.9}


def columns_of(points: list[Estimate]) -> dict[str, np.ndarray]:
    """Each candidate feature's values over ``points`` (speed_cv NaN where unknown), read as
    the model reads them."""
    return feature_columns(
        np.array([p.predicted_h for p in points]),
        np.array([p.distance_nm for p in points]),
        np.array([float(p.passages) for p in points]),
        np.array([p.speed_cv for p in points]),
    )


def quantile_fit(x: np.ndarray, y: np.ndarray, tau: float) -> np.ndarray:
    """Coefficients b minimising the pinball loss of y - x @ b at quantile ``tau``."""
    n, k = x.shape
    # Variables: b (free), u >= 0, v >= 0 with x @ b + u - v = y; cost tau*u + (1-tau)*v.
    cost = np.concatenate([np.zeros(k), np.full(n, tau), np.full(n, 1 - tau)])
    equality = np.hstack([x, np.eye(n), -np.eye(n)])
    bounds = [(None, None)] * k + [(0, None)] * (2 * n)
    found = linprog(cost, A_eq=equality, b_eq=y, bounds=bounds, method="highs")
    if not found.success:
        raise SystemExit(f"quantile fit failed: {found.message}")
    return np.asarray(found.x[:k])


def calibrated_fit(x: np.ndarray, y: np.ndarray, tau: float) -> np.ndarray:
    """The quantile fit whose bound, once held to the ETA's side (P10 at most the ETA, P90 at
    least it), leaves a share ``tau`` of the fitted points below it: the held bound is wider than
    the plain quantile wherever the quantile falls on the ETA's wrong side, so the quantile
    fitted is moved (by steps of 0.01, towards the median) until the share is met."""
    best, best_gap = quantile_fit(x, y, tau), math.inf
    steps = np.arange(tau, 0.5, 0.01) if tau < 0.5 else np.arange(tau, 0.5, -0.01)
    for level in steps:
        b = quantile_fit(x, y, float(level))
        bound = np.minimum(x @ b, 0.0) if tau < 0.5 else np.maximum(x @ b, 0.0)
        gap = abs(float(np.mean(y < bound)) - tau)
        if gap < best_gap - 1e-9:
            best, best_gap = b, gap
    return best


def fit(points: list[Estimate]) -> dict[str, object]:
    """The model document fitted on ``points``."""
    columns = columns_of(points)
    features, rows = [], [np.ones(len(points))]
    for name in FEATURES:
        values = columns[name]
        known = values[~np.isnan(values)]
        if known.size == 0 or float(known.max() - known.min()) < 1e-9:
            continue  # a feature that does not vary among the voyages says nothing
        low, high = float(known.min()), float(known.max())
        features.append({"name": name, "low": low, "high": high, "default": high})
        rows.append(np.where(np.isnan(values), high, values))
    x = np.stack(rows, axis=-1)
    y = np.log([p.actual_h / p.predicted_h for p in points])
    coefficients = {
        key: calibrated_fit(x, y, tau).round(6).tolist() for key, tau in QUANTILES.items()
    }
    fitted = voyages()
    return {
        "features": features,
        "coefficients": coefficients,
        "fitted_on": {
            "source": "tests/fixtures/ais/suez_canal_2021-03.csv (tests/fixtures/eta_voyages.py)",
            "voyages": sum(not v.held_out for v in fitted),
            "estimates": len(points),
            "target": "log(actual hours to go / Positions.eta hours to go)",
            "command": "python benchmarks/eta_range.py --fit",
        },
    }


def score(model: EtaRangeModel, points: list[Estimate]) -> dict[str, float]:
    """Coverage and errors of ``model`` on ``points``."""
    inside = below = above = 0
    for p in points:
        p10, p90 = model.eta_range(
            p.at, p.eta, distance_nm=p.distance_nm, passages=p.passages, speed_cv=_cv(p.speed_cv)
        )
        if p.arrival < p10:
            below += 1
        elif p.arrival > p90:
            above += 1
        else:
            inside += 1
    plain_h = [p.distance_nm / DEFAULT_SPEED_KN for p in points]
    plain = [abs(h - p.actual_h) for h, p in zip(plain_h, points, strict=True)]
    engine = [abs(p.predicted_h - p.actual_h) for p in points]
    n = len(points)
    actual = [p.actual_h for p in points]
    return {
        "coverage": inside / n,
        "below": below / n,
        "above": above / n,
        "plain_h": statistics.median(plain),
        "plain_share": statistics.median(e / a for e, a in zip(plain, actual, strict=True)),
        "eta_h": statistics.median(engine),
        "eta_share": statistics.median(e / a for e, a in zip(engine, actual, strict=True)),
    }


def _cv(value: float) -> float | None:
    return None if math.isnan(value) else value


def coastal_leave_one_out(
    train: list[Estimate], held: list[Estimate], coastal: list[Estimate]
) -> str:
    """What fitting on the coastal voyages too would give: each coastal voyage scored by a model
    fitted on the Suez training voyages and the other coastal ones (the passages then vary), and
    the Suez held-out coverage of those models."""
    inside = below = 0
    suez = []
    for vessel in sorted({p.vessel for p in coastal}):
        others = [p for p in coastal if p.vessel != vessel]
        model = EtaRangeModel.from_json(fit(train + others))
        left = [p for p in coastal if p.vessel == vessel]
        s = score(model, left)
        suez.append(100 * score(model, held)["coverage"])
        inside += round(s["coverage"] * len(left))
        below += round(s["below"] * len(left))
    n = len(coastal)
    return (
        f"US coast, each voyage left out of a fit on the rest and the Suez training voyages: "
        f"{inside} of {n} arrivals in P10-P90 ({100 * inside / n:.1f} %), {below} before P10, "
        f"{n - inside - below} after P90; Suez held out: "
        f"{min(suez):.1f}-{max(suez):.1f} % in P10-P90"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help=f"refit and write data/{MODEL_FILE}")
    parser.add_argument(
        "--coastal-loo",
        action="store_true",
        help="also score fitting on the US coastal voyages, one left out at a time",
    )
    args = parser.parse_args()
    points = estimates()
    train = [p for p in points if not p.held_out]
    held = [p for p in points if p.held_out and p.source == "suez"]
    coastal = [p for p in points if p.source == "us_coast"]
    path = data_dir() / MODEL_FILE
    if args.fit:
        document = fit(train)
        path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    model = load_model(path)
    rows = []
    for name, chosen in (
        ("Suez, held out", held),
        ("Suez, fitted on", train),
        ("US coast, never fitted", coastal),
    ):
        s = score(model, chosen)
        n_voyages = len({(p.vessel, p.arrival) for p in chosen})
        rows.append([
            name, f"{n_voyages} / {len(chosen)}", fmt(100 * s["coverage"], 1, " %"),
            fmt(100 * s["below"], 1, " %"), fmt(100 * s["above"], 1, " %"),
            f"{s['plain_h']:.2f} h ({100 * s['plain_share']:.0f} %)",
            f"{s['eta_h']:.2f} h ({100 * s['eta_share']:.0f} %)",
        ])  # fmt: skip
    header = [
        "voyages", "voyages / estimates", "arrival in P10-P90", "before P10", "after P90",
        "median error, plain 14 kn", "median error, Positions.eta",
    ]  # fmt: skip
    print(render_table("ETA range on real voyages, by source", header, rows))
    if args.coastal_loo:
        print(coastal_leave_one_out(train, held, coastal))
    print("\n".join(machine_lines(["numpy", "scipy"])))


if __name__ == "__main__":
    main()
