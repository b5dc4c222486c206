"""The shipped data files' formats, declared once: each array's key and dtype, the format
version of ``marnet.npz``, and the columns of the tables the engine reads at run time.

The offline build writes its files through these declarations and the engine reads them through
the same ones, so the writer and the loader cannot drift apart; a ``marnet.npz`` of another format
version is refused at load with a message saying how to rebuild it.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: The format of ``marnet.npz`` this sealane writes and reads. Version 1 is every file written
#: before the version was stored (they hold no ``format_version`` entry); bump it whenever a key,
#: a dtype or the meaning of an array changes.
MARNET_VERSION = 2
#: The key of the scalar holding a file's format version.
VERSION_KEY = "format_version"
#: What to run when the shipped graph file does not match this code.
REBUILD = "python -m sealane.routing.build"

Arrays = Mapping[str, np.ndarray]


class DataFormatError(ValueError):
    """A data file written in another format than the one this sealane reads."""


@dataclass(frozen=True, slots=True)
class Array:
    """One array of a data file: its key in the ``.npz`` and the dtype it is stored with."""

    key: str
    dtype: np.dtype[Any]
    #: Whether a file may leave it out (older files, or a graph built without hierarchies).
    optional: bool = False

    def read(self, arrays: Arrays) -> np.ndarray:
        """The array in its declared dtype (the stored array itself when it already has it).

        >>> Array("n", np.dtype(np.int32)).read({"n": np.arange(3)}).dtype
        dtype('int32')
        """
        return np.asarray(arrays[self.key], dtype=self.dtype)

    def present(self, arrays: Arrays) -> bool:
        """Whether ``arrays`` holds this array."""
        return self.key in arrays


def _array(key: str, dtype: type[Any] | str, *, optional: bool = False) -> Array:
    return Array(key, np.dtype(dtype), optional)


@dataclass(frozen=True, slots=True)
class HierarchyArrays:
    """The arrays of one contraction hierarchy, every key starting with the hierarchy's name."""

    name: str
    up_ptr: Array
    up_head: Array
    up_weight: Array
    up_middle: Array
    up_children: Array
    #: Per upward edge, the passage bits of the lanes it stands for (masked hierarchy only).
    up_mask: Array
    #: The passages the hierarchy assumes closed (default hierarchy only).
    closed: Array

    def all(self) -> tuple[Array, ...]:
        """Every array of the hierarchy."""
        return tuple(v for v in (getattr(self, f) for f in self.__slots__) if isinstance(v, Array))


def _hierarchy(prefix: str) -> HierarchyArrays:
    return HierarchyArrays(
        name=prefix,
        up_ptr=_array(f"{prefix}_up_ptr", np.int32, optional=True),
        up_head=_array(f"{prefix}_up_head", np.int32, optional=True),
        up_weight=_array(f"{prefix}_up_weight", np.float64, optional=True),
        up_middle=_array(f"{prefix}_up_middle", np.int32, optional=True),
        up_children=_array(f"{prefix}_up_children", np.int32, optional=True),
        up_mask=_array(f"{prefix}_up_mask", np.uint32, optional=True),
        closed=_array(f"{prefix}_closed", np.uint32, optional=True),
    )


class Marnet:
    """The arrays of ``marnet.npz``: nodes in degrees, undirected edges with their WGS84 lengths
    in metres and passage bit masks, the snapping index, the core graph the search walks, its
    landmark tables and its two contraction hierarchies."""

    NODE_LON = _array("node_lon", np.float64)
    NODE_LAT = _array("node_lat", np.float64)
    EDGE_U = _array("edge_u", np.int32)
    EDGE_V = _array("edge_v", np.int32)
    EDGE_LENGTH_M = _array("edge_length_m", np.float64)
    EDGE_PASSAGES = _array("edge_passages", np.uint32)
    #: Whether each edge is one of the build's straight shortcuts (never snapped onto).
    EDGE_SHORTCUT = _array("edge_shortcut", np.bool_, optional=True)
    #: Each edge's least depth in metres on the build's bathymetry grid (inf: nothing measured,
    #: NaN: a port's charted fairway; see ``routing.build.depth``).
    EDGE_DEPTH_M = _array("edge_depth_m", np.float32, optional=True)
    #: Whether each edge was added by the depth step (deep approaches and deep shortcuts): the
    #: next retag drops them and derives them again.
    EDGE_DERIVED = _array("edge_derived", np.bool_, optional=True)
    PASSAGE_NAMES = _array("passage_names", np.str_)
    #: Snapping index: cell size in degrees, and per cell the edges that can be nearest in it.
    CELL_DEG = _array("cell_deg", np.float64)
    CELL_PTR = _array("cell_ptr", np.int64)
    CELL_EDGES = _array("cell_edges", np.int32)
    #: Landmark tables (tables, core nodes, landmarks) in metres, and the passages each closes.
    LANDMARK_MASKS = _array("landmark_masks", np.uint32)
    LANDMARK_TABLES = _array("landmark_tables", np.float64)
    #: The core graph: chains of degree-2 nodes folded into single edges.
    CORE_NODE = _array("core_node", np.int32)
    CORE_U = _array("core_u", np.int32)
    CORE_V = _array("core_v", np.int32)
    CORE_LENGTH_M = _array("core_length_m", np.float64)
    CORE_PASSAGES = _array("core_passages", np.uint32)
    CHAIN_PTR = _array("chain_ptr", np.int32)
    CHAIN_EDGE = _array("chain_edge", np.int32)
    EDGE_CORE = _array("edge_core", np.int32)
    EDGE_ALONG_M = _array("edge_along_m", np.float64)
    EDGE_FORWARD = _array("edge_forward", np.bool_)
    #: The hierarchy for the default closed passages, and the masked one for any others.
    HIERARCHY = _hierarchy("hierarchy")
    MASKED = _hierarchy("masked")


class Landmask:
    """The arrays of ``landmask.npz``: per one-arc-minute latitude row (from 90 N), the columns
    where land and sea alternate."""

    ROW_PTR = _array("row_ptr", np.int64)
    FLIPS = _array("flips", np.uint16)
    PER_DEG = _array("per_deg", np.int64)


class Land:
    """The arrays of ``land.npz`` (the web map's land): ring vertices as integer (lon, lat) in
    1/``scale`` degree, and where each ring starts."""

    POINTS = _array("points", np.int16)
    OFFSETS = _array("offsets", np.int32)
    SCALE = _array("scale", np.int64)


class WaterCells:
    """The arrays of ``water_cells.npz``: the land mask's cells that hold water by the GSHHG
    shoreline, as sorted ``row * cols + col`` keys of the mask's grid, and its cells per degree."""

    KEYS = _array("keys", np.int64)
    PER_DEG = _array("per_deg", np.int64)


def _declared(namespace: type) -> tuple[Array, ...]:
    found: list[Array] = []
    for value in vars(namespace).values():
        if isinstance(value, Array):
            found.append(value)
        elif isinstance(value, HierarchyArrays):
            found.extend(value.all())
    return tuple(found)


@dataclass(frozen=True, slots=True)
class FileFormat:
    """A data file's name, its format version (None: the file carries none), its arrays, and
    whether its members are compressed (a memory-mapped file's are not)."""

    name: str
    version: int | None
    arrays: tuple[Array, ...]
    compressed: bool

    def save(self, path: Path, arrays: Arrays) -> None:
        """Write ``arrays`` to ``path`` in this format (see :meth:`encode`): members in the order
        of ``arrays`` and the version last, so adding it moves no other member in the file; if
        uncompressed, each member aligned for mapping (:func:`.files.write_aligned_npz`)."""
        members: dict[str, Any] = self.encode(arrays)
        if self.compressed:
            np.savez_compressed(path, **members)
        else:
            from .files import write_aligned_npz

            write_aligned_npz(path, members)

    def encode(self, arrays: Arrays) -> dict[str, np.ndarray]:
        """``arrays`` checked against the declaration (each required key present, no unknown
        one, each cast to its dtype only where no value changes kind), with the format version
        last: what ``np.savez`` writes. Raises :class:`DataFormatError` otherwise."""
        declared = {array.key: array for array in self.arrays}
        unknown = sorted(set(arrays) - set(declared))
        missing = [a.key for a in self.arrays if not a.optional and a.key not in arrays]
        if unknown or missing:
            raise DataFormatError(f"{self.name}: unknown arrays {unknown}, missing {missing}")
        out = {
            key: np.asarray(value).astype(declared[key].dtype, casting="same_kind", copy=False)
            for key, value in arrays.items()
        }
        if self.version is not None:
            out[VERSION_KEY] = np.array(self.version, dtype=np.uint32)
        return out

    def check_version(self, arrays: Arrays) -> None:
        """Refuse arrays read from a file of another format version than :attr:`version`.

        >>> MARNET.check_version({VERSION_KEY: np.array(1)})
        Traceback (most recent call last):
        ...
        sealane.routing.data.formats.DataFormatError: marnet.npz has format version 1, ...
        """
        if self.version is None:
            return
        found = int(arrays[VERSION_KEY]) if VERSION_KEY in arrays else 1
        if found != self.version:
            named = "" if VERSION_KEY in arrays else " (it names none)"
            raise DataFormatError(
                f"{self.name} has format version {found}{named}, this sealane reads version "
                f"{self.version}: rebuild it with {REBUILD}"
            )


#: Uncompressed: the engine memory-maps it, so a cold start reads only what it uses.
MARNET = FileFormat("marnet.npz", MARNET_VERSION, _declared(Marnet), compressed=False)
#: Compressed: each is read whole, once, on first use.
LANDMASK = FileFormat("landmask.npz", None, _declared(Landmask), compressed=True)
LAND = FileFormat("land.npz", None, _declared(Land), compressed=True)
WATER_CELLS = FileFormat("water_cells.npz", None, _declared(WaterCells), compressed=True)


@dataclass(frozen=True, slots=True)
class CsvTable:
    """A shipped CSV table: its file name and its header, column by column."""

    name: str
    columns: tuple[str, ...]

    def read(self, path: Path) -> list[dict[str, str]]:
        """The rows of ``path`` as column -> text; a header other than :attr:`columns` raises
        :class:`DataFormatError` naming both."""
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            found = tuple(reader.fieldnames or ())
            if found != self.columns:
                raise DataFormatError(
                    f"{self.name} has columns {list(found)}, this sealane reads "
                    f"{list(self.columns)}"
                )
            return list(reader)


#: Per port whose authority publishes it, the deepest draft its dredged channel takes (metres),
#: the channel named, and the source.
PORT_LIMITS = CsvTable("port_limits.csv", ("locode", "name", "draft_m", "source"))

#: searoute's codes (and carriers' codes) that name an official port: the alias, the official
#: UN/LOCODE it resolves to, and why.
PORT_ALIASES = CsvTable("port_aliases.csv", ("alias", "locode", "source"))

#: Per port up a river corridor of ``passages.json`` (``river`` is the corridor's name), the
#: deepest draft the river's channel takes to it (metres), the channel named, and the source.
RIVER_LIMITS = CsvTable("river_limits.csv", ("river", "locode", "name", "draft_m", "source"))

#: Per passage (one row per way through it, such as a canal's two sets of locks), the largest
#: draft, beam, length and air draft it takes in metres (empty: no limit known) and the source.
PASSAGE_LIMITS = CsvTable(
    "passage_limits.csv",
    ("passage", "name", "draft_m", "beam_m", "length_m", "air_draft_m", "source"),
)


@dataclass(frozen=True, slots=True)
class CorridorLines:
    """The shipped traced corridors, a GeoJSON FeatureCollection of LineStrings with a
    ``name`` and a ``half_width_m`` (metres) each: what the engine reads of it."""

    name: str

    def read(self, path: Path) -> list[tuple[str, float, list[list[float]]]]:
        """Each corridor's name, half width in metres and (lon, lat) centre line; a feature
        without them raises :class:`DataFormatError` naming the file."""
        import json

        document = json.loads(path.read_text(encoding="utf-8"))
        found: list[tuple[str, float, list[list[float]]]] = []
        for feature in document.get("features", ()):
            properties, geometry = feature.get("properties", {}), feature.get("geometry", {})
            if geometry.get("type") != "LineString" or "half_width_m" not in properties:
                raise DataFormatError(
                    f"{self.name}: every feature is a LineString with a half_width_m"
                )
            line = geometry["coordinates"]
            found.append((str(properties.get("name", "")), float(properties["half_width_m"]), line))
        return found


#: The canals and rivers the build traced, whose water the land mask cannot see.
CORRIDORS = CorridorLines("corridors.geojson")
