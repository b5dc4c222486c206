"""Derive, from the reference documents beside the checkout, the facts the conformance tests need.

The tests validate sealane's answers against Terminal49's OpenAPI documents and DCSA's Track &
Trace 2.2 documents. Those documents are kept outside the repository (``../shared/reference/``),
so this script writes what the tests read into ``tests/fixtures/reference/``: the documents'
structure (paths, operations, parameters, request and response schemas with their types,
required members, enums, formats and ``$ref``s as published) with every piece of prose taken out
(descriptions, summaries, titles, examples, tags, vendor extensions), and the two columns of
Terminal49's carrier coverage table a test checks. The errata Terminal49's README lists are not
applied here: the tests apply them, so the fixtures stay what the documents say.

Run it by hand when the reference documents change, then commit what it wrote::

    .venv/bin/python scripts/derive_reference_facts.py          # write the fixtures
    .venv/bin/python scripts/derive_reference_facts.py --check  # exit 1 if they are stale
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference"
FIXTURES = ROOT / "tests" / "fixtures" / "reference"

#: Keys dropped wherever they are a keyword (never where they name a property, path or response).
DROPPED = frozenset({"example", "examples", "externalDocs", "tags", "xml"})
#: Keys dropped where their value is text (``title`` of a schema, ``description`` of anything).
PROSE = frozenset({"description", "summary", "title"})
#: Keys whose value maps names chosen by the document's authors to objects: a property called
#: ``description`` or ``example`` is a fact and stays.
NAME_MAPS = frozenset(
    {
        "properties",
        "patternProperties",
        "definitions",
        "$defs",
        "dependentSchemas",
        "paths",
        "schemas",
        "responses",
        "parameters",
        "requestBodies",
        "headers",
        "securitySchemes",
        "links",
        "callbacks",
        "content",
        "encoding",
        "variables",
        "mapping",
    }
)
#: What a document keeps at its top level (``info`` is cut down to its version).
TOP_LEVEL = ("openapi", "info", "paths", "components")


def facts(node: Any, names: bool = False) -> Any:
    """``node`` without its prose; ``names`` when its keys are names (kept whatever they are)."""
    if isinstance(node, list):
        return [facts(item) for item in node]
    if not isinstance(node, dict):
        return node
    kept: dict[str, Any] = {}
    for key, value in node.items():
        if not names and (
            key in DROPPED or key.startswith("x-") or (key in PROSE and isinstance(value, str))
        ):
            continue
        kept[key] = facts(value, names=not names and key in NAME_MAPS)
    return kept


def document_facts(document: dict[str, Any]) -> dict[str, Any]:
    """A whole OpenAPI document's facts: its version, paths and components."""
    out = {key: facts(document[key]) for key in TOP_LEVEL if key in document}
    if "info" in out:
        out["info"] = {"version": document["info"]["version"]}
    return out


def only_paths(
    document: dict[str, Any], paths: tuple[str, ...], schemas_too: tuple[str, ...]
) -> dict[str, Any]:
    """The document cut down to ``paths``, the component schemas ``schemas_too``, and the
    component schemas these reach by ``$ref``."""
    schemas = document["components"]["schemas"]
    kept = {path: document["paths"][path] for path in paths}
    reached: set[str] = set()
    waiting = [*_schema_refs(kept), *schemas_too]
    while waiting:
        name = waiting.pop()
        if name not in reached:
            reached.add(name)
            waiting.extend(_schema_refs(schemas[name]))
    return {
        **{key: document[key] for key in ("openapi", "info") if key in document},
        "paths": kept,
        "components": {"schemas": {name: schemas[name] for name in schemas if name in reached}},
    }


def _schema_refs(node: Any) -> list[str]:
    """The names of every ``#/components/schemas/<name>`` that ``node`` refers to."""
    prefix = "#/components/schemas/"
    if isinstance(node, list):
        return [name for item in node for name in _schema_refs(item)]
    if not isinstance(node, dict):
        return []
    found = []
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and value.startswith(prefix):
            found.append(value.removeprefix(prefix))
        else:
            found.extend(_schema_refs(value))
    return found


def coverage_columns(table: str) -> str:
    """Terminal49's carrier coverage table reduced to its SCAC and Support columns."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["SCAC", "Support"])
    for row in csv.DictReader(io.StringIO(table)):
        writer.writerow([row["SCAC"], row["Support"]])
    return out.getvalue()


def as_json(data: Any) -> str:
    """Stable JSON text (the documents' own order kept, one member a line)."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _json_document(transform: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[str], str]:
    return lambda text: as_json(transform(json.loads(text)))


def _yaml_document(text: str) -> str:
    return as_json(document_facts(yaml.safe_load(text)))


#: What the route tests read of the document that still had the route: its operation, and the
#: schemas the errata change (``container``, ``terminal``) and the tests add to its ``included``.
ROUTE_PATHS = ("/containers/{id}/route",)
ROUTE_SCHEMAS = ("container", "terminal")

#: Each fixture (relative to ``tests/fixtures/reference``): the reference file it comes from
#: (relative to the reference directory) and how its text becomes the fixture's.
DERIVED: dict[str, tuple[str, Callable[[str], str]]] = {
    "terminal49/openapi.json": ("terminal49/openapi.json", _json_document(document_facts)),
    "terminal49/openapi-with-route.json": (
        "terminal49/openapi-with-route.json",
        _json_document(lambda doc: document_facts(only_paths(doc, ROUTE_PATHS, ROUTE_SCHEMAS))),
    ),
    "terminal49/shipping-line-support.csv": (
        "terminal49/shipping-line-support.csv",
        coverage_columns,
    ),
    "dcsa/tnt/tnt_v2.2.0.json": ("dcsa/tnt/tnt_v2.2.0.yaml", _yaml_document),
    **{
        f"dcsa/domain/{kind}/{kind}_domain_v{version}.json": (
            f"dcsa/domain/{kind}/{kind}_domain_v{version}.yaml",
            _yaml_document,
        )
        for kind, version in (
            ("event", "1.0.3"),
            ("event", "1.1.0"),
            ("dcsa", "1.0.3"),
            ("error", "1.0.0"),
        )
    },
}


def derive(reference: Path) -> dict[str, str]:
    """Every fixture's text, and ``sources.json``: which reference file (by SHA-256) each came
    from, so a reader can tell the fixtures' origin without the documents."""
    texts: dict[str, str] = {}
    sources: dict[str, dict[str, str]] = {}
    for fixture, (source, transform) in DERIVED.items():
        raw = (reference / source).read_bytes()
        texts[fixture] = transform(raw.decode("utf-8"))
        sources[fixture] = {"from": source, "sha256": hashlib.sha256(raw).hexdigest()}
    texts["sources.json"] = as_json(sources)
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--out", type=Path, default=FIXTURES)
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    if not args.reference.is_dir():
        print(f"no reference documents at {args.reference}", file=sys.stderr)
        return 2
    texts = derive(args.reference)
    if args.check:
        stale = [
            name
            for name, text in texts.items()
            if not (args.out / name).is_file()
            or (args.out / name).read_text(encoding="utf-8") != text
        ]
        for name in stale:
            print(f"stale: {args.out / name}", file=sys.stderr)
        return 1 if stale else 0
    for name, text in texts.items():
        target = args.out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
