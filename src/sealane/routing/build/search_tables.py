"""The engine's search aids, computed by the build: the snapping index and landmark tables.

Build-time only (scipy); the engine loads their arrays from ``marnet.npz``.
"""

from __future__ import annotations

import numpy as np

from ..geodesy import FloatArray, unit_vectors

#: Spacing of the sample points that stand in for edges while the snapping index is built (rad):
#: 5 km on a sphere of 6,371,000 m, not of :data:`sealane.routing.geodesy.MEAN_EARTH_RADIUS_M`:
#: the shipped ``marnet.npz`` was built so (another radius would move the samples, so the index).
SAMPLE_SPACING_RAD = 5_000.0 / 6_371_000.0
#: Snapping grid cell size in degrees.
CELL_DEG = 1.0
#: Number of landmarks for the A* (ALT) lower bounds.
LANDMARKS = 16


def sample_edges(coords: FloatArray, u: np.ndarray, v: np.ndarray) -> tuple[FloatArray, np.ndarray]:
    """Points along each edge's great circle, at most ``SAMPLE_SPACING_RAD`` apart, and edge ids."""
    a = unit_vectors(coords[u, 0], coords[u, 1])
    b = unit_vectors(coords[v, 0], coords[v, 1])
    angle = np.arccos(np.clip(np.einsum("ij,ij->i", a, b), -1.0, 1.0))
    counts = np.maximum(np.ceil(angle / SAMPLE_SPACING_RAD).astype(np.int64), 1) + 1
    edge_of = np.repeat(np.arange(u.size), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    t = (np.arange(edge_of.size) - starts) / (counts[edge_of] - 1)
    theta = angle[edge_of]
    sin_theta = np.sin(theta)
    safe = sin_theta > 1e-12
    wa = np.where(safe, np.sin((1 - t) * theta) / np.where(safe, sin_theta, 1.0), 1.0 - t)
    wb = np.where(safe, np.sin(t * theta) / np.where(safe, sin_theta, 1.0), t)
    points = wa[:, None] * a[edge_of] + wb[:, None] * b[edge_of]
    points /= np.linalg.norm(points, axis=1)[:, None]
    return points, edge_of


def snapping_index(
    coords: FloatArray, u: np.ndarray, v: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each 1-degree cell, every edge that can be the nearest one to some point of the cell.

    With c the cell centre and r the cell's angular circumradius, the nearest edge e* of any point P
    in the cell satisfies d(c, e*) <= d(c, nearest) + 2r; sampling adds half a sample spacing.
    """
    from scipy.spatial import cKDTree

    points, edge_of = sample_edges(coords, u, v)
    tree = cKDTree(points)
    lat_edges = np.arange(-90.0, 90.0 + CELL_DEG, CELL_DEG)
    lon_edges = np.arange(-180.0, 180.0 + CELL_DEG, CELL_DEG)
    lat_c, lon_c = np.meshgrid(
        lat_edges[:-1] + CELL_DEG / 2, lon_edges[:-1] + CELL_DEG / 2, indexing="ij"
    )
    centres = unit_vectors(lon_c.ravel(), lat_c.ravel())
    corners = [
        unit_vectors(lon_c.ravel() + dx, lat_c.ravel() + dy)
        for dx in (-CELL_DEG / 2, CELL_DEG / 2)
        for dy in (-CELL_DEG / 2, CELL_DEG / 2)
    ]
    radius = np.max(
        [np.arccos(np.clip(np.einsum("ij,ij->i", centres, c), -1, 1)) for c in corners], 0
    )
    nearest_chord, _ = tree.query(centres)
    nearest = 2 * np.arcsin(np.clip(nearest_chord / 2, 0, 1))
    reach = nearest + 2 * radius * 1.02 + SAMPLE_SPACING_RAD + 1e-9
    reach_chord = 2 * np.sin(np.minimum(reach, np.pi) / 2)
    members = [
        np.unique(edge_of[np.asarray(hits, dtype=np.int64)]).astype(np.int32)
        for hits in tree.query_ball_point(centres, reach_chord)
    ]
    pointers = np.concatenate([[0], np.cumsum([m.size for m in members])])
    return pointers.astype(np.int64), np.concatenate(members)


def landmark_distances(
    coords: FloatArray, u: np.ndarray, v: np.ndarray, lengths: FloatArray, usable: np.ndarray
) -> FloatArray:
    """Network distances (m) from ``LANDMARKS`` far-apart nodes to every node, as (nodes, K).

    Only ``usable`` edges take part, so the bounds hold for any search that uses a subset of them.
    Landmarks are chosen farthest-first, which spreads them round the edge of the network.
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    n = coords.shape[0]
    keep = usable
    # A zero weight would read as "no edge" to scipy: a port on the network joins it by a leg of
    # length zero. A nanometre keeps such edges without loosening the bounds measurably.
    weights = np.maximum(lengths[keep], 1e-9)
    matrix = csr_matrix((weights, (u[keep], v[keep])), shape=(n, n))
    matrix = matrix.maximum(matrix.T)
    chosen = [int(np.argmax(coords[:, 1]))]
    rows: list[FloatArray] = []
    covered = np.full(n, np.inf)
    while len(rows) < LANDMARKS:
        dist = dijkstra(matrix, directed=False, indices=chosen[-1])
        rows.append(dist)
        covered = np.minimum(covered, dist)
        finite = np.where(np.isfinite(covered), covered, -1.0)
        chosen.append(int(np.argmax(finite)))
    table = np.stack(rows, axis=1)
    # Nodes cut off from a landmark in this graph get NaN: the search ignores NaN bounds.
    table[~np.isfinite(table)] = np.nan
    return np.ascontiguousarray(table)
