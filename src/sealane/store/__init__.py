"""Storage: SQLAlchemy models, sessions and migrations (SQLite by default, PostgreSQL for scale)."""
