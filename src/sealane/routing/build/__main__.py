"""``python -m sealane.routing.build``: rebuild the engine's data files, all of them or one step."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..data import data_dir
from . import __doc__ as package_doc
from .globe import write_landmask
from .graphfile import retag
from .pipeline import build_network, reshortcut
from .registry import build_registry
from .watercells import write_water_cells


def main(argv: list[str] | None = None) -> None:
    """Command-line entry: rebuild the data files into ``--out`` (default: the shipped data dir)."""
    parser = argparse.ArgumentParser(
        prog="python -m sealane.routing.build", description=package_doc
    )
    parser.add_argument("--out", type=Path, default=data_dir())
    parser.add_argument(
        "--only",
        choices=["network", "landmask", "retag", "shortcuts", "watercells", "registry"],
        default=None,
        help="retag: re-derive passage tags and search tables of the marnet.npz in --out; "
        "shortcuts: re-derive its shortcuts from its other edges; "
        "registry: write official_ports.csv and official_aliases.csv (needs --code-list, "
        "--port-index, --countries, --terminal-codes)",
    )
    parser.add_argument(
        "--code-list", type=Path, help="folder of the UN/LOCODE code list, one YAML per country"
    )
    parser.add_argument("--port-index", type=Path, help="NGA World Port Index CSV (Pub. 150)")
    parser.add_argument("--countries", type=Path, help="UN/LOCODE country codes CSV")
    parser.add_argument("--terminal-codes", type=Path, help="SMDG Terminal Code List CSV")
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        help="keep the repaired network in this pickle file and reuse it on the next run",
    )
    args = parser.parse_args(argv)
    spec = json.loads((data_dir() / "passages.json").read_text())
    if args.only in (None, "network"):
        build_network(args.out, spec, args.checkpoint)
    if args.only == "retag":
        retag(args.out, spec)
    if args.only == "shortcuts":
        reshortcut(args.out, spec)
    if args.only in (None, "landmask"):
        write_landmask(args.out)
    if args.only in (None, "watercells"):
        write_water_cells(args.out)
    if args.only == "registry":
        sources = (args.code_list, args.port_index, args.countries, args.terminal_codes)
        if not all(sources):
            parser.error(
                "--only registry needs --code-list, --port-index, --countries, --terminal-codes"
            )
        build_registry(args.out, *sources)


if __name__ == "__main__":
    main()
