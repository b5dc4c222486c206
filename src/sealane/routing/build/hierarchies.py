"""The two hierarchies ``marnet.npz`` holds, over the core graph: :mod:`.contraction`'s for the
passages the engine closes by default, :mod:`.masked_contraction`'s for any other set. Build-time
only.
"""

from __future__ import annotations

import numpy as np

from ..data.formats import Marnet
from ..depth import band_closed
from ..passages import closed_passages
from .contraction import contract
from .masked_contraction import contract_masked

#: Passages the default hierarchy assumes closed: those the engine closes by default, and the
#: default vessel's depth band (when the file has bands).
DEFAULT_CLOSED = (
    *sorted(p.value for p in closed_passages((), allow_arctic=False)),
    band_closed(None),
)


def hierarchy_arrays(core: dict[str, np.ndarray], names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The ``marnet.npz`` arrays of the hierarchy over the core graph's edges that stay open when
    the ``DEFAULT_CLOSED`` passages are closed (with the mask of those passages), and of the
    masked hierarchy over all of them, for any other closed passages."""
    closed = np.uint32(sum(1 << names.index(name) for name in DEFAULT_CLOSED if name in names))
    nodes = int(core[Marnet.CORE_NODE.key].size)
    u, v = core[Marnet.CORE_U.key], core[Marnet.CORE_V.key]
    lengths = core[Marnet.CORE_LENGTH_M.key]
    passages = np.asarray(core[Marnet.CORE_PASSAGES.key], dtype=np.uint32)
    open_ = (passages & closed) == 0
    default = contract(nodes, u[open_], v[open_], lengths[open_])
    masked = contract_masked(nodes, u, v, lengths, passages)
    arrays: dict[str, np.ndarray] = {Marnet.HIERARCHY.closed.key: np.array(closed, dtype=np.uint32)}
    for stored, built in ((Marnet.HIERARCHY, default), (Marnet.MASKED, masked)):
        arrays[stored.up_ptr.key] = built.up_ptr
        arrays[stored.up_head.key] = built.up_head
        arrays[stored.up_weight.key] = built.up_weight
        arrays[stored.up_middle.key] = built.up_middle
        arrays[stored.up_children.key] = built.up_children
    # Only the masked hierarchy's edges carry passage bits (the default one assumes its own).
    arrays[Marnet.MASKED.up_mask.key] = masked.up_mask
    return arrays
