"""Create the match tables: matches, seats, actions.

Revision ID: 2eb22265b3b9
Revises:
Create Date: 2026-11-30 13:57:29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "2eb22265b3b9"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONDoc = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("rules_version", sa.String(length=200), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("options", JSONDoc, nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("snapshot", JSONDoc, nullable=False),
        sa.Column("outcome", JSONDoc, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    op.create_index(op.f("ix_matches_status"), "matches", ["status"], unique=False)
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=36), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=40), nullable=False),
        sa.Column("client_action_id", sa.String(length=64), nullable=False),
        sa.Column("payload", JSONDoc, nullable=False),
        sa.Column("events", JSONDoc, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_actions_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_actions")),
        sa.UniqueConstraint(
            "match_id", "client_action_id", name=op.f("uq_actions_match_id_client_action_id")
        ),
        sa.UniqueConstraint("match_id", "seq", name=op.f("uq_actions_match_id_seq")),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=36), nullable=False),
        sa.Column("seat", sa.String(length=40), nullable=False),
        sa.Column("display_name", sa.String(length=40), nullable=True),
        sa.Column("secret_hash", sa.String(length=64), nullable=True),
        sa.Column("connected", sa.Boolean(), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_seats_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("match_id", "seat", name=op.f("uq_seats_match_id_seat")),
    )


def downgrade() -> None:
    op.drop_table("seats")
    op.drop_table("actions")
    op.drop_index(op.f("ix_matches_status"), table_name="matches")
    op.drop_table("matches")
