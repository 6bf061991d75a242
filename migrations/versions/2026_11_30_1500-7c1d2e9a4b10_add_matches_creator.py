"""Add matches.creator: the HMAC of the creator's address, to cap open matches per creator.

Revision ID: 7c1d2e9a4b10
Revises: 2eb22265b3b9
Create Date: 2026-11-30 15:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7c1d2e9a4b10"
down_revision: str | None = "2eb22265b3b9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("creator", sa.String(length=64), nullable=True))
        batch.create_index(batch.f("ix_matches_creator"), ["creator"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_index(batch.f("ix_matches_creator"))
        batch.drop_column("creator")
