"""Create match_clocks: per-match turn deadlines and abandonment state, kept across restarts.

Revision ID: 3f8b6a2c5d71
Revises: 7c1d2e9a4b10
Create Date: 2026-11-30 15:01:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "3f8b6a2c5d71"
down_revision: str | None = "7c1d2e9a4b10"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONDoc = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "match_clocks",
        sa.Column("match_id", sa.String(length=36), nullable=False),
        sa.Column("turn_seconds", sa.Float(), nullable=True),
        sa.Column("max_misses", sa.Integer(), nullable=True),
        sa.Column("grace_seconds", sa.Float(), nullable=True),
        sa.Column("on_abandon", sa.String(length=16), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deadline_version", sa.Integer(), nullable=True),
        sa.Column("absent_since", JSONDoc, nullable=False),
        sa.Column("bot_seats", JSONDoc, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_match_clocks_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_clocks")),
    )


def downgrade() -> None:
    op.drop_table("match_clocks")
