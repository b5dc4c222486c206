"""Migrated SQLite databases for the tests, copied rather than migrated for each test.

Alembic's upgrade of an empty SQLite file costs about 0.3 s (more on a loaded machine); a test
that only needs a database at head (an app, a runtime, the storage tests' ``migrated``) gets a
copy of a file migrated once per test process instead, a few milliseconds. The app or runtime
started on the copy still runs its own start-up (``prepare_database``: Alembic finds the schema
at head, the reference data is already there), so what a start does is still exercised; the
tests of the migrations themselves start from an empty file and do not use these.

Two templates, each made the first time it is asked for in a process and deleted when the
process ends: ``migrated`` (the schema at head, as ``upgrade`` leaves it) and ``prepared`` (as a
start leaves it: the schema and the reference data).

On PostgreSQL (about 0.8 s an upgrade) a schema migrated once per test process is dumped with
the server's ``pg_dump`` (tables, indexes, constraints, sequences and the rows the migrations
wrote), and the dump is replayed into each test's new empty schema in one transaction. Without
``pg_dump`` (an outside server, ``$SEALANE_TEST_POSTGRES_URL``) the test's schema is migrated
with Alembic as before.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
import uuid
from functools import cache
from pathlib import Path

from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool

from sealane.config import Settings
from sealane.runtime import prepare_database
from sealane.store.database import make_engine
from sealane.store.migrate import upgrade
from tests import pg


@cache
def _directory() -> Path:
    directory = Path(tempfile.mkdtemp(prefix="sealane-templates-"))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    return directory


@cache
def _template(kind: str) -> Path:
    """The template file of ``kind`` (``migrated`` or ``prepared``), made once per process."""
    path = _directory() / f"{kind}.db"
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    try:
        if kind == "prepared":
            prepare_database(Settings(database_url=url), engine)
        else:
            upgrade(engine)
    finally:
        engine.dispose()  # the last connection closed: the WAL is folded into the file
    return path


def _copy(kind: str, path: Path) -> str:
    if path.exists() and path.stat().st_size > 0:
        raise FileExistsError(f"{path} already holds a database: not replaced by a template")
    shutil.copyfile(_template(kind), path)
    return f"sqlite:///{path}"


def migrated_sqlite(path: Path) -> str:
    """The URL of a new SQLite file at ``path`` whose schema is at head (no reference data)."""
    return _copy("migrated", path)


def prepared_sqlite(path: Path) -> str:
    """The URL of a new SQLite file at ``path`` as a start leaves it: the schema at head and the
    reference data loaded."""
    return _copy("prepared", path)


def _schema_of(url: str) -> str:
    """The schema a test URL puts first and alone on the search path (``tests.store``)."""
    options = make_url(url).query["options"]
    assert isinstance(options, str) and options.startswith("-csearch_path=")
    return options.removeprefix("-csearch_path=")


@cache
def _postgres_dump(server: str) -> str | None:
    """A migrated schema's dump as SQL, the schema named ``{schema}``; None without pg_dump.

    ``server`` is a test URL with the query cut off but the socket directory (``host``)."""
    bindir = pg.find_bindir()
    url = make_url(server)
    host = url.query.get("host")
    if bindir is None or not (bindir / "pg_dump").exists() or not isinstance(host, str):
        return None
    schema = f"sealane_template_{uuid.uuid4().hex[:16]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        engine = make_engine(
            url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(False)
        )
        try:
            upgrade(engine)
        finally:
            engine.dispose()
        argv = [str(bindir / "pg_dump"), "-h", host, "-U", url.username or "postgres"]
        argv += ["-n", schema, "--no-owner", "--no-privileges", "--inserts", url.database or ""]
        dump = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    kept = [
        line
        for line in dump.stdout.splitlines()
        # psql's own commands (\restrict), comments, and the schema (the test's exists already)
        if not line.startswith(("\\", "--", f"CREATE SCHEMA {schema};"))
    ]
    return "\n".join(kept).replace(schema, "{schema}")


def migrated_postgres(url: str) -> bool:
    """Fill the new, empty schema of the test URL ``url`` from a migrated template; False
    (nothing done) when there is no ``pg_dump`` to make the template with."""
    dump = _postgres_dump(
        make_url(url).difference_update_query(["options"]).render_as_string(False)
    )
    if dump is None:
        return False
    engine = create_engine(url, poolclass=NullPool)  # its session settings go with it
    try:
        connection = engine.raw_connection()
        try:
            cursor = connection.cursor()
            cursor.execute(dump.replace("{schema}", _schema_of(url)))
            cursor.close()
            connection.commit()
        finally:
            connection.close()
    finally:
        engine.dispose()
    return True
