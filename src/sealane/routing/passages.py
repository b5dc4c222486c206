"""Named passages (straits, canals, capes, Arctic routes) that a route may be told to avoid.

The graph file stores, for each edge, a bit mask of the passages it belongs to, and the list of
passage names in bit order. This module turns user-facing names into those masks and checks them,
so a restriction is never silently ignored.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache

from .depth import is_band
from .errors import UnknownPassageError


class Passage(StrEnum):
    """Every passage the engine knows; the value is the name used in the API and in results."""

    SUEZ = "suez"
    PANAMA = "panama"
    MALACCA = "malacca"
    SUNDA = "sunda"
    GIBRALTAR = "gibraltar"
    DOVER = "dover"
    BERING = "bering"
    MAGELLAN = "magellan"
    CAPE_HORN = "cape_horn"
    GOOD_HOPE = "good_hope"
    BABALMANDAB = "babalmandab"
    KIEL = "kiel"
    CORINTH = "corinth"
    BOSPORUS = "bosporus"
    DARDANELLES = "dardanelles"
    ORMUZ = "ormuz"
    NORTHWEST = "northwest"
    NORTHEAST = "northeast"
    ELBE = "elbe"
    SCHELDT = "scheldt"
    MAAS = "maas"
    SINGAPORE = "singapore"
    GREAT_BELT = "great_belt"
    ORESUND = "oresund"
    MESSINA = "messina"
    LOMBOK = "lombok"
    TORRES = "torres"
    INSIDE_PASSAGE = "inside_passage"


#: Closed unless the caller passes ``allow_arctic=True``.
ARCTIC: frozenset[Passage] = frozenset({Passage.NORTHWEST, Passage.NORTHEAST})
#: Passages a container ship cannot use (the Corinth Canal is 24.6 m wide and 8 m deep).
SMALL_CRAFT: frozenset[Passage] = frozenset({Passage.CORINTH})
#: Passages deep enough for many ships that container ships still do not take: the Inside
#: Passage (Johnstone Strait and Seymour Narrows, tidal pilotage waters; ocean traffic to
#: Vancouver uses the Strait of Juan de Fuca).
COASTAL: frozenset[Passage] = frozenset({Passage.INSIDE_PASSAGE})
#: What the default vessel, a container ship, never uses: closed unless the caller names them in
#: ``allow``.
NOT_FOR_CONTAINER_SHIPS: frozenset[Passage] = SMALL_CRAFT | COASTAL

#: Other spellings people use; each maps to the canonical name.
ALIASES: dict[str, Passage] = {
    "hormuz": Passage.ORMUZ,
    "bab_el_mandeb": Passage.BABALMANDAB,
    "bab-el-mandeb": Passage.BABALMANDAB,
    "bosphorus": Passage.BOSPORUS,
    "cape_of_good_hope": Passage.GOOD_HOPE,
    "english_channel": Passage.DOVER,
    "kiel_canal": Passage.KIEL,
    "suez_canal": Passage.SUEZ,
    "panama_canal": Passage.PANAMA,
    "northwest_passage": Passage.NORTHWEST,
    "northern_sea_route": Passage.NORTHEAST,
    "corinth_canal": Passage.CORINTH,
    "nord_ostsee_kanal": Passage.KIEL,
    "nord-ostsee-kanal": Passage.KIEL,
    "westerschelde": Passage.SCHELDT,
    "schelde": Passage.SCHELDT,
    "nieuwe_waterweg": Passage.MAAS,
    "singapore_strait": Passage.SINGAPORE,
    "storebaelt": Passage.GREAT_BELT,
    "the_sound": Passage.ORESUND,
    "øresund": Passage.ORESUND,
    "strait_of_messina": Passage.MESSINA,
    "lombok_strait": Passage.LOMBOK,
    "torres_strait": Passage.TORRES,
    "johnstone_strait": Passage.INSIDE_PASSAGE,
}


def parse_passage(name: str | Passage) -> Passage:
    """The :class:`Passage` named by ``name`` (case-insensitive, aliases allowed).

    >>> parse_passage("Hormuz")
    <Passage.ORMUZ: 'ormuz'>
    """
    if isinstance(name, Passage):
        return name
    if not isinstance(name, str):
        raise UnknownPassageError(f"passage names are strings, got {name!r}")
    key = name.strip().lower().replace(" ", "_")
    if key in ALIASES:
        return ALIASES[key]
    try:
        return Passage(key)
    except ValueError:
        known = ", ".join(p.value for p in Passage)
        raise UnknownPassageError(f"unknown passage {name!r}; known passages: {known}") from None


def closed_passages(
    avoid: Iterable[str | Passage] | str | None,
    *,
    allow_arctic: bool,
    allow: Iterable[str | Passage] | str | None = None,
) -> frozenset[Passage]:
    """The passages a route must not use: ``avoid``, plus the default-closed ones (the Arctic
    routes unless ``allow_arctic``, those not for container ships) that ``allow`` does not open.

    >>> sorted(closed_passages(["suez"], allow_arctic=True, allow=["corinth", "inside_passage"]))
    [<Passage.SUEZ: 'suez'>]
    """
    closed = set(parse_passages(avoid, "avoid"))
    opened = set(parse_passages(allow, "allow"))
    default = set(NOT_FOR_CONTAINER_SHIPS) | (set() if allow_arctic else set(ARCTIC))
    return frozenset(closed | (default - opened))


def parse_passages(names: Iterable[str | Passage] | str | None, what: str) -> frozenset[Passage]:
    """Passages named by one name, an iterable of names, or None (``what`` names the argument
    in the :class:`~.errors.UnknownPassageError` of a bad one)."""
    if names is None:
        return frozenset()
    if isinstance(names, str | Passage):
        names = (names,)
    elif not isinstance(names, Iterable):
        raise UnknownPassageError(f"{what} must be passage names, got {names!r}")
    return frozenset(parse_passage(name) for name in names)


def passage_mask(closed: Iterable[Passage], bit_names: tuple[str, ...]) -> int:
    """Bit mask over the graph's passage bits for the given passages (absent ones add no bit)."""
    mask = 0
    for passage in closed:
        if passage.value in bit_names:
            mask |= 1 << bit_names.index(passage.value)
    return mask


def names_from_mask(mask: int, bit_names: tuple[str, ...]) -> list[str]:
    """Passage names whose bit is set in ``mask``, in bit order (depth bands left out: they are
    no passage a route sails, see :mod:`.depth`)."""
    mask &= _passage_bits(bit_names)
    if not mask:
        return []
    return [name for bit, name in enumerate(bit_names) if mask >> bit & 1]


@lru_cache(maxsize=16)
def _passage_bits(bit_names: tuple[str, ...]) -> int:
    """The bits of ``bit_names`` that name passages (not depth bands): a route asks this often."""
    return sum(1 << bit for bit, name in enumerate(bit_names) if not is_band(name))
