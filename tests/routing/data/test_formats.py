"""The data files' one format declaration: what a writer may store, and a graph file of another
format version refused at load with both versions named."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from sealane.routing.data import data_dir, mapped_npz
from sealane.routing.data.files import ALIGN, write_aligned_npz
from sealane.routing.data.formats import (
    LAND,
    LANDMASK,
    MARNET,
    MARNET_VERSION,
    PASSAGE_LIMITS,
    PORT_ALIASES,
    PORT_LIMITS,
    RIVER_LIMITS,
    VERSION_KEY,
    CsvTable,
    DataFormatError,
    FileFormat,
    Landmask,
    Marnet,
)
from sealane.routing.graph import load_graph
from sealane.routing.landmask import load_landmask


def small_mask() -> dict[str, np.ndarray]:
    return {
        Landmask.ROW_PTR.key: np.zeros(180 * 2 + 1, dtype=np.int64),
        Landmask.FLIPS.key: np.zeros(0, dtype=np.uint16),
        Landmask.PER_DEG.key: np.array(2),
    }


def data_offsets(path: Path) -> dict[str, int]:
    """Where each member's array data starts in a ``.npz`` file (after its ``.npy`` header)."""
    found = {}
    with zipfile.ZipFile(path) as archive, path.open("rb") as handle:
        for info in archive.infolist():
            handle.seek(info.header_offset + 26)
            name_len, extra_len = (int.from_bytes(handle.read(2), "little") for _ in range(2))
            handle.seek(info.header_offset + 30 + name_len + extra_len)
            if np.lib.format.read_magic(handle) == (1, 0):
                np.lib.format.read_array_header_1_0(handle)
            else:
                np.lib.format.read_array_header_2_0(handle)
            found[info.filename] = handle.tell()
    return found


def test_shipped_marnet__current_version_stored_uncompressed_and_aligned() -> None:
    path = data_dir() / MARNET.name
    arrays = mapped_npz(path)
    assert int(arrays[VERSION_KEY]) == MARNET_VERSION
    with zipfile.ZipFile(path) as archive:
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
    # each array mapped where it lies, shared by every process that loads the file
    assert all(offset % ALIGN == 0 for offset in data_offsets(path).values())
    assert all(isinstance(array.base, np.memmap) for array in arrays.values())


def test_write_aligned_npz__every_member_aligned_and_read_by_np_load(tmp_path: Path) -> None:
    path = tmp_path / "some.npz"
    members = {
        "a": np.arange(7, dtype=np.int32),
        "long_name_" * 5: np.linspace(0, 1, 13),
        "c": np.array(3, dtype=np.uint32),
        "d": np.array(["x", "yz"]),
        "e": np.zeros((3, 4, 2), dtype=np.float32),
    }
    write_aligned_npz(path, members)
    assert all(offset % ALIGN == 0 for offset in data_offsets(path).values())
    with np.load(path) as loaded:
        assert list(loaded.files) == list(members)
        for key, value in members.items():
            np.testing.assert_array_equal(loaded[key], value)
    mapped = mapped_npz(path)
    for key, value in members.items():
        np.testing.assert_array_equal(mapped[key], value)
    # written again: a new file renamed over it, the mapped one left whole; nothing else left
    write_aligned_npz(path, {"a": np.arange(3)})
    np.testing.assert_array_equal(mapped["a"], members["a"])
    assert list(mapped_npz(path)) == ["a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["some.npz"]


@pytest.mark.parametrize("fmt", [MARNET, LANDMASK, LAND], ids=lambda f: f.name)
def test_shipped_file__every_array_declared_with_its_dtype(fmt: FileFormat) -> None:
    with np.load(data_dir() / fmt.name) as stored:
        found = {key: stored[key].dtype for key in stored.files if key != VERSION_KEY}
    declared = {a.key: a.dtype for a in fmt.arrays}
    assert set(found) <= set(declared)
    assert all(a.key in found for a in fmt.arrays if not a.optional)
    for key, dtype in found.items():
        assert dtype.kind == declared[key].kind, key
        assert declared[key].itemsize in (0, dtype.itemsize), key


def test_load_graph__file_of_another_version__refused_naming_both(tmp_path: Path) -> None:
    path = tmp_path / "marnet.npz"
    np.savez(path, **{Marnet.NODE_LON.key: np.zeros(1), VERSION_KEY: np.array(1)})
    with pytest.raises(DataFormatError) as raised:
        load_graph(path)
    message = str(raised.value)
    assert f"format version 1, this sealane reads version {MARNET_VERSION}" in message
    assert "python -m sealane.routing.build" in message


def test_load_graph__file_without_a_version__refused_as_version_1(tmp_path: Path) -> None:
    path = tmp_path / "marnet.npz"
    np.savez(path, **{Marnet.NODE_LON.key: np.zeros(1)})
    with pytest.raises(DataFormatError, match="format version 1 \\(it names none\\)"):
        load_graph(path)


def test_encode__version_stored_last() -> None:
    encoded = LANDMASK.encode(small_mask())
    assert VERSION_KEY not in encoded  # the land mask carries no version
    arrays = {a.key: np.zeros(2, dtype=a.dtype) for a in MARNET.arrays if not a.optional}
    assert list(MARNET.encode(arrays))[-1] == VERSION_KEY


def test_encode__unknown_or_missing_array__refused() -> None:
    with pytest.raises(DataFormatError, match=r"unknown arrays \['rows'\]"):
        LANDMASK.encode({**small_mask(), "rows": np.zeros(1)})
    without = small_mask()
    del without[Landmask.FLIPS.key]
    with pytest.raises(DataFormatError, match=r"missing \['flips'\]"):
        LANDMASK.encode(without)


def test_encode__narrowed_within_its_kind_but_never_across() -> None:
    arrays = {**small_mask(), Landmask.FLIPS.key: np.arange(3, dtype=np.uint32)}
    assert LANDMASK.encode(arrays)[Landmask.FLIPS.key].dtype == np.uint16
    with pytest.raises(TypeError):
        LANDMASK.encode({**small_mask(), Landmask.ROW_PTR.key: np.zeros(361)})


def test_save__landmask_round_trip(tmp_path: Path) -> None:
    path = tmp_path / LANDMASK.name
    LANDMASK.save(path, small_mask())
    loaded = load_landmask(path)
    assert loaded.per_deg == 2 and not loaded.is_land(0.0, 0.0)


def test_csv_table__other_header_refused_naming_both(tmp_path: Path) -> None:
    path = tmp_path / PASSAGE_LIMITS.name
    path.write_text("passage,draft_m\nsuez,20.1\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"\['passage', 'draft_m'\].*'air_draft_m'"):
        PASSAGE_LIMITS.read(path)


def test_csv_table__shipped_passage_limits_read() -> None:
    rows = PASSAGE_LIMITS.read(data_dir() / PASSAGE_LIMITS.name)
    assert rows and set(rows[0]) == set(PASSAGE_LIMITS.columns)


def test_csv_table__shipped_port_limits_read() -> None:
    rows = PORT_LIMITS.read(data_dir() / PORT_LIMITS.name)
    assert rows and set(rows[0]) == set(PORT_LIMITS.columns)


@pytest.mark.parametrize("table", [RIVER_LIMITS, PORT_ALIASES])
def test_csv_table__shipped_river_limits_and_port_aliases_read(table: CsvTable) -> None:
    rows = table.read(data_dir() / table.name)
    assert rows and set(rows[0]) == set(table.columns)
