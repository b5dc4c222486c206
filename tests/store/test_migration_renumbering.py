"""Migration files numbered in the order of their chain, and databases migrated before that.

The feeds migration was 0010 and came after 0005; 0006-0008 followed it. A database stamped
with any old id, at any point of the old chain, must upgrade to head as if nothing had been
renamed: ``sealane.store.migrate`` rewrites the stored id first. Each old state is made by
running the same migrations (renumbering changed no migration's body) and storing the old id,
on SQLite and PostgreSQL.
"""

from __future__ import annotations

import re

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, text

from sealane.store.migrate import RENUMBERED, alembic_config, downgrade, upgrade

from .test_migrations import HEAD, schema_differences, versions

#: The old chain, in order: each revision's old id and its id now.
OLD_CHAIN = [
    ("0001", "0001"),
    ("0002", "0002"),
    ("0003", "0003"),
    ("0004", "0004"),
    ("0005", "0005"),
    ("0010", "0006_feeds"),
    ("0006", "0007_route_locations"),
    ("0007", "0008_web_sessions"),
    ("0008", "0009_rate_limit_counts"),
]
ACCOUNT = "a0000000-0000-4000-8000-00000000000a"


def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config(create_engine("sqlite://")))


def chain() -> list[str]:
    """Revision ids from the first migration to head."""
    return [script.revision for script in reversed(list(scripts().walk_revisions()))]


def store_old_id(engine: Engine, old: str) -> None:
    """Put ``old`` in Alembic's version table, as the old chain left it."""
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = :old"), {"old": old})


def test_files__numbered_in_chain_order() -> None:
    numbers = []
    for revision in chain():
        script = scripts().get_revision(revision)
        assert script is not None and script.path is not None
        name = script.path.rsplit("/", 1)[-1]
        match = re.fullmatch(r"(\d{4})_\w+\.py", name)
        assert match, name
        numbers.append(int(match[1]))
        assert revision in (match[1], name.removesuffix(".py")), (revision, name)
    assert numbers == list(range(1, len(numbers) + 1))
    assert chain()[-1] == HEAD


def test_renumbered__old_ids_name_no_revision_and_new_ids_fit_alembic() -> None:
    revisions = set(chain())
    assert not revisions & set(RENUMBERED), "an old id would be read as another revision"
    assert set(RENUMBERED.values()) <= revisions
    assert dict(OLD_CHAIN) == {old: old for old, _ in OLD_CHAIN[:5]} | dict(RENUMBERED)
    assert [new for _, new in OLD_CHAIN] == chain()[: len(OLD_CHAIN)]  # then new revisions
    assert max(len(revision) for revision in revisions) <= 32  # alembic_version.version_num


@pytest.mark.parametrize(("old", "new"), OLD_CHAIN, ids=[old for old, _ in OLD_CHAIN])
def test_upgrade__from_a_database_at_an_old_id(engine: Engine, old: str, new: str) -> None:
    upgrade(engine, new)
    store_old_id(engine, old)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO accounts (id, name, routing_enabled, created_at)"
                " VALUES (:id, 'Old Co', :no, '2026-11-21 12:00:00')"
            ),
            {"id": ACCOUNT, "no": False},
        )
    upgrade(engine)
    assert versions(engine) == [HEAD]
    assert schema_differences(engine) == []
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT name FROM accounts")) == "Old Co"


def test_upgrade__at_the_old_head_runs_no_migration(engine: Engine) -> None:
    """0008 was the head: nothing is left to run (a rerun of the rate-limit migration would
    fail, or drop the table and its counts); the revisions added since run once."""
    upgrade(engine, "0009_rate_limit_counts")
    store_old_id(engine, "0008")
    count = "SELECT count FROM rate_limit_counts WHERE key = 'k'"
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO rate_limit_counts VALUES ('k', 1795780800, 7)"))
    upgrade(engine)
    assert versions(engine) == [HEAD]
    with engine.connect() as connection:
        assert connection.scalar(text(count)) == 7


def test_downgrade__from_a_database_at_an_old_id(engine: Engine) -> None:
    upgrade(engine)
    store_old_id(engine, "0008")
    downgrade(engine, "0006_feeds")
    assert versions(engine) == ["0006_feeds"]
    downgrade(engine, "0005")
    assert versions(engine) == ["0005"]
