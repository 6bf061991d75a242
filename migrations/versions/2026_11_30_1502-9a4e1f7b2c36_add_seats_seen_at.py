"""Add seats.seen_at: a presence lease renewed by the worker holding the seat's socket.

Revision ID: 9a4e1f7b2c36
Revises: 3f8b6a2c5d71
Create Date: 2026-11-30 15:02:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9a4e1f7b2c36"
down_revision: str | None = "3f8b6a2c5d71"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seen_at")
