"""An ETA's range: the P10 and P90 of the arrival around the point ETA, from a model of ETA error
fitted on real voyages (``data/eta_range.json``, written by ``benchmarks/eta_range.py --fit``).

The model gives two quantiles (10 % and 90 %) of ``log(actual time to go / predicted time to
go)`` as a linear function of a voyage's features at the moment of the estimate: the log of the
predicted hours to go, the number of passages on the remaining route and the variability of
the vessel's observed speed (its coefficient of variation); the fit keeps those that varied
among its voyages. Each feature is clipped to the range the model was fitted on, so a voyage
unlike those it saw gets the range of the nearest ones it saw, never an extrapolation. The
range always holds the point ETA (``p10 <= eta <= p90``): a quantile on the wrong side of it is
taken as the ETA itself.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .data.files import data_dir
from .data.formats import DataFormatError

MODEL_FILE = "eta_range.json"
#: The features the model may use, in the order of a feature row. ``log_nm`` (the log of the
#: distance to go) is computed but not used: beside ``log_hours`` it reads the speed the ETA
#: assumed, and for a voyage about to arrive the fit put P90 before the ETA.
FEATURES = ("log_hours", "passages", "speed_cv")
#: Shortest time to go and distance the features take (a voyage about to arrive has no ratio to
#: speak of).
MIN_HOURS = 0.25
MIN_NM = 1.0

FloatArray = npt.NDArray[np.float64]


class EtaModelError(DataFormatError):
    """The ETA-range model file is missing or malformed (an installation's fault, not a
    caller's)."""


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature of the model: its name, the range it was fitted on and the value taken when
    it is unknown (the median of the fitted voyages)."""

    name: str
    low: float
    high: float
    default: float


@dataclass(frozen=True, slots=True)
class EtaRangeModel:
    """Linear quantile models of the log ratio of actual to predicted time to go."""

    features: tuple[Feature, ...]
    #: Coefficients per quantile: intercept, then one per feature.
    p10: tuple[float, ...]
    p90: tuple[float, ...]
    #: What the model was fitted on (voyages, points, source), as the fit wrote it.
    fitted_on: dict[str, Any]

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> EtaRangeModel:
        """The model from its file's JSON; a malformed one raises :class:`EtaModelError`."""
        try:
            features = tuple(
                Feature(str(f["name"]), float(f["low"]), float(f["high"]), float(f["default"]))
                for f in document["features"]
            )
            p10 = tuple(float(c) for c in document["coefficients"]["p10"])
            p90 = tuple(float(c) for c in document["coefficients"]["p90"])
            fitted_on = dict(document.get("fitted_on", {}))
        except (KeyError, TypeError, ValueError) as error:
            raise EtaModelError(f"{MODEL_FILE} is malformed: {error!r}") from error
        unknown = [f.name for f in features if f.name not in FEATURES]
        if unknown or len(p10) != len(features) + 1 or len(p90) != len(features) + 1:
            raise EtaModelError(
                f"{MODEL_FILE}: features must be among {FEATURES} with one coefficient each "
                "after the intercept"
            )
        return cls(features, p10, p90, fitted_on)

    def log_ratios(
        self, hours: FloatArray, distance_nm: FloatArray, passages: FloatArray, speed_cv: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        """The P10 and P90 of log(actual / predicted time to go) per row (NaN speed_cv: the
        feature's default), the P10 at most 0 and the P90 at least 0."""
        columns = feature_columns(hours, distance_nm, passages, speed_cv)
        rows = [np.ones_like(hours)]
        for feature in self.features:
            column = columns[feature.name]
            value = np.where(np.isnan(column), feature.default, column)
            rows.append(np.clip(value, feature.low, feature.high))
        x = np.stack(rows, axis=-1)
        low = x @ np.asarray(self.p10)
        high = np.maximum(x @ np.asarray(self.p90), low)
        return np.minimum(low, 0.0), np.maximum(high, 0.0)

    def offsets_s(
        self,
        seconds: FloatArray,
        distance_nm: FloatArray,
        passages: FloatArray,
        speed_cv: FloatArray,
    ) -> tuple[FloatArray, FloatArray]:
        """P10 and P90 as seconds from the start, for predicted times to go of ``seconds``."""
        low, high = self.log_ratios(seconds / 3600.0, distance_nm, passages, speed_cv)
        return seconds * np.exp(low), seconds * np.exp(high)

    def eta_range(
        self,
        start: datetime,
        eta: datetime,
        *,
        distance_nm: float,
        passages: int,
        speed_cv: float | None = None,
    ) -> tuple[datetime, datetime]:
        """(P10, P90) of the arrival of a voyage estimated at ``start`` to arrive at ``eta``
        with ``distance_nm`` and ``passages`` still to go."""
        seconds = max((eta - start).total_seconds(), 0.0)
        cv = math.nan if speed_cv is None else float(speed_cv)
        low, high = self.offsets_s(
            np.array([seconds]),
            np.array([float(distance_nm)]),
            np.array([float(passages)]),
            np.array([cv]),
        )
        p10 = start + timedelta(seconds=float(low[0]))
        p90 = start + timedelta(seconds=float(high[0]))
        return min(p10, eta), max(p90, eta)


def feature_columns(
    hours: FloatArray, distance_nm: FloatArray, passages: FloatArray, speed_cv: FloatArray
) -> dict[str, FloatArray]:
    """Each feature's values per row, by name (the fit reads them the same way)."""
    return {
        "log_hours": np.log(np.maximum(hours, MIN_HOURS)),
        "log_nm": np.log(np.maximum(distance_nm, MIN_NM)),
        "passages": np.asarray(passages, dtype=float),
        "speed_cv": np.asarray(speed_cv, dtype=float),
    }


def load_model(path: Path) -> EtaRangeModel:
    """The model in ``path`` (``data/eta_range.json`` by default: :func:`eta_model`)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise EtaModelError(f"cannot read the ETA-range model {path}: {error}") from error
    if not isinstance(document, dict):
        raise EtaModelError(f"{MODEL_FILE} is not a JSON object")
    return EtaRangeModel.from_json(document)


@cache
def eta_model() -> EtaRangeModel:
    """The shipped model, read once."""
    return load_model(data_dir() / MODEL_FILE)


__all__ = ["EtaRangeModel", "eta_model", "load_model"]
