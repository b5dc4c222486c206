"""The README's Python examples run, and print what the README says they print.

Every ```python block of ``README.md`` runs, in order, in one namespace (a block may use what an
earlier one made). A line whose comment is a Python literal states the value of its
expression: ``r.distance_nm, r.passages  # 10502.0, ('singapore', ...)``, where a number is
compared at the decimals written and anything after a colon is prose. A line whose comment
names an error (``# NoRouteError: ... exceeds the 15.4 m of the Elbe``) must raise it, with the
text after ``...`` in its message. Other comments are prose. So when the network or the engine
changes a figure, this test fails until the README says the new one.
"""

from __future__ import annotations

import ast
import builtins
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import sealane

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)
_ERROR = re.compile(r"(?P<name>[A-Z]\w*Error): \.\.\. (?P<text>.+)")


@dataclass(frozen=True)
class Claim:
    """What a statement's comment says: the value it prints, or the error it raises."""

    value: Any = None
    #: The literal as written, for the decimals of its numbers.
    written: str = ""
    error: str = ""
    text: str = ""


def python_blocks(markdown: str) -> list[str]:
    return [match.group(1) for match in _BLOCK.finditer(markdown)]


def comments(source: str) -> dict[int, str]:
    """Each line's comment (without ``#``), by line number."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0]: t.string[1:].strip() for t in tokens if t.type == tokenize.COMMENT}


def claim_of(comment: str) -> Claim | None:
    """The value or error a comment states, or None for prose."""
    if found := _ERROR.fullmatch(comment):
        return Claim(error=found["name"], text=found["text"])
    for end in range(len(comment), 0, -1):  # the longest literal that starts the comment
        if end < len(comment) and comment[end] != ":":
            continue
        try:
            return Claim(value=ast.literal_eval(comment[:end]), written=comment[:end])
        except (ValueError, SyntaxError):
            continue
    return None


def decimals(written: str) -> int:
    return len(written.partition(".")[2]) if "." in written else 0


def same(actual: Any, stated: Any, written: str) -> bool:
    """``actual`` is ``stated``, numbers to the decimals written in ``written``."""
    if isinstance(stated, tuple) and isinstance(actual, tuple) and len(actual) == len(stated):
        parts = _top_level_parts(written)
        if len(parts) == 1 and written.startswith("("):  # a tuple in brackets: its items
            parts = _top_level_parts(written.strip()[1:-1])
        return all(same(a, s, w) for a, s, w in zip(actual, stated, parts, strict=True))
    if isinstance(stated, float) and isinstance(actual, float | int):
        return round(float(actual), decimals(written)) == stated
    return bool(actual == stated)


def _top_level_parts(written: str) -> list[str]:
    """The comma-separated parts of a literal's text, outside brackets and quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(written):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(written[start:i].strip())
            start = i + 1
    parts.append(written[start:].strip())
    return [p for p in parts if p]


def run_block(source: str, namespace: dict[str, Any]) -> int:
    """Run ``source`` statement by statement, checking each stated claim; how many there were."""
    said = comments(source)
    checked = 0
    for statement in ast.parse(source).body:
        line = statement.end_lineno or statement.lineno
        claim = claim_of(said.get(line, ""))
        code = ast.get_source_segment(source, statement)
        assert code is not None
        where = f"README: {code!r}"
        if claim is not None and claim.error:
            error = getattr(sealane, claim.error)
            with pytest.raises(error, match=re.escape(claim.text)):
                exec(code, namespace)
            checked += 1
        elif claim is not None and isinstance(statement, ast.Expr):
            actual = eval(code, namespace)
            assert same(actual, claim.value, claim.written), f"{where} gives {actual!r}"
            checked += 1
        else:
            exec(code, namespace)
    return checked


def test_claim_of__literals_errors_and_prose() -> None:
    assert claim_of("10502.0, ('maas',)") == Claim((10502.0, ("maas",)), "10502.0, ('maas',)")
    assert claim_of("('elbe',): too deep for Kiel") == Claim(("elbe",), "('elbe',)")
    assert claim_of("'12:30'") == Claim("12:30", "'12:30'")
    assert claim_of("NoRouteError: ... of the Elbe") == Claim(
        error="NoRouteError", text="of the Elbe"
    )
    assert claim_of("hours at 18 knots") is None
    assert claim_of("LOCODE, port id or (lon, lat)") is None


def test_same__numbers_at_the_decimals_written() -> None:
    assert same((10502.00642, ("a",)), (10502.0, ("a",)), "10502.0, ('a',)")
    assert not same((10496.94, ("a",)), (10502.0, ("a",)), "10502.0, ('a',)")
    assert same(18874, 18874, "18874") and not same(18875, 18874, "18874")


def test_readme__python_examples_print_what_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pandas")
    import pandas as pd

    monkeypatch.chdir(tmp_path)  # the fleet example reads ais_snapshot.parquet
    pd.DataFrame(
        {
            "lon": [60.1, -20.0],
            "lat": [12.3, 40.0],
            "previous_port": ["CNSHA", "USNYC"],
            "destination_port": ["NLRTM", "NLRTM"],
            "speed_kn": [18.0, 16.0],
        }
    ).to_parquet("ais_snapshot.parquet")
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 5
    namespace: dict[str, Any] = {"__builtins__": builtins}
    checked = sum(run_block(block, namespace) for block in blocks)
    assert checked >= 8, "the README states fewer values than it did: is the test reading it?"


def test_readme__the_mcp_sea_route_example_is_what_the_tool_says() -> None:
    """The MCP section's ``plan_sea_route`` answer (Shanghai -> Rotterdam avoiding Suez at
    18 kn), written as the tool writes it from the engine's route."""
    found = sealane.route("CNSHA", "NLRTM", avoid=["suez"])
    hours = round(found.duration_h(18), 1)
    said = (
        f"`CNSHA -> NLRTM: {found.distance_nm:,.1f} nm, {hours:,.1f} h "
        f"({round(found.duration_h(18) / 24, 2):.2f} days) at 18 kn, "
        f"via {', '.join(found.passages)}.`"
    )
    assert said in README.read_text(encoding="utf-8")
