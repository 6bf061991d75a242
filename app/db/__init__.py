"""Persistence: typed SQLAlchemy mappings, the async engine, and the Alembic entry point."""
