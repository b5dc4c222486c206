"""The sensible ways between two places side by side: :func:`route_options` sets the shortest
route beside the best one avoiding each major passage it takes (Suez or the Cape, Panama or
Magellan and the Horn, Malacca or Lombok and Sunda), each timed on the speed profile."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import NoRouteError
from .graph import default_graph
from .locations import LocationLike
from .passages import Passage, parse_passage
from .routes import Route, route
from .vessel import Vessel
from .voyage import DEFAULT_SPEED_KN, service_speed

#: Most major passages one option avoids besides the caller's own.
MAX_AVOIDED = 2
#: The major passages and what a ship takes instead: an option avoids each one on the way.
MAJOR_PASSAGES: tuple[tuple[Passage, ...], ...] = (
    (Passage.SUEZ, Passage.GOOD_HOPE),
    (Passage.PANAMA, Passage.MAGELLAN, Passage.CAPE_HORN),
    (Passage.MALACCA, Passage.LOMBOK, Passage.SUNDA),
)


@dataclass(frozen=True, slots=True)
class RouteOption:
    """One way between two places: what it avoids (nothing: the shortest), the route, and its
    time on the speed profile at ``speed_kn``."""

    label: str
    avoided: tuple[str, ...]
    route: Route
    speed_kn: float
    duration_h: float

    @property
    def distance_nm(self) -> float:
        """Length of the option's route, nautical miles."""
        return self.route.distance_nm

    @property
    def passages(self) -> tuple[str, ...]:
        """The passages the option sails, in order."""
        return self.route.passages


def route_options(
    origin: LocationLike,
    destination: LocationLike,
    *,
    speed_kn: float | None = None,
    avoid: Iterable[str | Passage] = (),
    allow_arctic: bool = False,
    vessel: Vessel | None = None,
) -> list[RouteOption]:
    """The shortest route and the best avoiding each major passage it takes (Suez or the Cape,
    Panama or Magellan, Malacca or Lombok), each timed on the speed profile at ``speed_kn``
    (the default service speed when None), fastest first; an alternative that leaves no way
    (or only the same route) is left out. Errors as :func:`~.routes.route`.

    >>> options = route_options("CNSHA", "NLRTM")
    >>> [option.label for option in options]  # doctest: +NORMALIZE_WHITESPACE
    ['shortest', 'avoiding malacca', 'avoiding malacca, sunda', 'avoiding suez',
     'avoiding panama, suez']
    >>> options[3].passages[0], options[4].passages[-3:]
    ('panama', ('good_hope', 'dover', 'maas'))
    """
    speed = DEFAULT_SPEED_KN if speed_kn is None else service_speed(speed_kn)
    avoided = tuple(sorted({parse_passage(name).value for name in avoid}))
    shortest = route(origin, destination, avoid=avoided, allow_arctic=allow_arctic, vessel=vessel)
    options = [RouteOption("shortest", avoided, shortest, speed, shortest.duration_h(speed))]
    names = default_graph().passage_names
    major = [p.value for group in MAJOR_PASSAGES for p in group if p.value in names]
    tried: set[tuple[str, ...]] = {avoided}
    # The shortest's major passages avoided one at a time, then, for an alternative that takes
    # another major passage instead (Suez avoided by way of Panama), that one avoided as well.
    for depth in range(MAX_AVOIDED):
        for option in [o for o in options if len(o.avoided) == len(avoided) + depth]:
            for passage in (p for p in option.passages if p in major):
                without = tuple(sorted({*option.avoided, passage}))
                if without in tried:
                    continue
                tried.add(without)
                try:
                    other = route(
                        origin, destination, avoid=without, allow_arctic=allow_arctic,
                        vessel=vessel,
                    )  # fmt: skip
                except NoRouteError:
                    continue
                if not any(_same(other, known.route) for known in options):
                    label = "avoiding " + ", ".join(p for p in without if p not in avoided)
                    hours = other.duration_h(speed)
                    options.append(RouteOption(label, without, other, speed, hours))
    return sorted(options, key=lambda option: option.duration_h)


def _same(one: Route, other: Route) -> bool:
    """Whether two routes are the same way (same passages, lengths within a metre)."""
    return one.passages == other.passages and abs(one.distance_m - other.distance_m) < 1.0


__all__ = ["MAJOR_PASSAGES", "RouteOption", "route_options"]
