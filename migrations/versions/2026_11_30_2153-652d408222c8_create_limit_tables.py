"""Create limit_buckets, limit_workers, limit_sockets: per-IP limits shared through PostgreSQL.

With the PostgreSQL bus, every worker counts an address's actions, joins and sockets in
these tables (app/realtime/pg_limits.py), so an address has one budget across the cluster.
On PostgreSQL the migration also creates ``skirmish_open_socket``, the one-call check of the
socket cap, and the tables are UNLOGGED: what they hold is worthless after a crash (a
missing bucket is a full one, and the workers rewrite their socket counts every 2 s), so
they skip the write-ahead log, and the client addresses in their keys never reach WAL
archives or replicas. On SQLite the tables are created and stay empty (one worker counts in
memory).

Revision ID: 652d408222c8
Revises: 9a4e1f7b2c36
Create Date: 2026-11-30 21:53:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "652d408222c8"
down_revision: str | None = "9a4e1f7b2c36"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# One opener per address at a time (an advisory lock held until the call's transaction
# ends), so the sum sees every socket counted before it: READ COMMITTED gives each
# statement of a PL/pgSQL function a fresh snapshot. The class id keeps these locks apart
# from the migration lock of app/cli.py. Workers whose lease ended count no more; this
# worker's own sockets always count.
OPEN_SOCKET = """
CREATE OR REPLACE FUNCTION skirmish_open_socket(
    p_worker text, p_address text, p_cap integer, p_lease_seconds double precision
) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    held bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(1545273346, hashtext(p_address));
    SELECT coalesce(sum(s.sockets), 0) INTO held
    FROM limit_sockets AS s JOIN limit_workers AS w ON w.worker = s.worker
    WHERE s.address = p_address
      AND (s.worker = p_worker OR w.expires_at > clock_timestamp());
    IF held >= p_cap THEN
        RETURN false;
    END IF;
    INSERT INTO limit_workers (worker, expires_at)
    VALUES (p_worker, clock_timestamp() + make_interval(secs => p_lease_seconds))
    ON CONFLICT (worker) DO UPDATE SET expires_at = excluded.expires_at;
    INSERT INTO limit_sockets (worker, address, sockets) VALUES (p_worker, p_address, 1)
    ON CONFLICT (worker, address) DO UPDATE SET sockets = limit_sockets.sockets + 1;
    RETURN true;
END
$$
"""


def upgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    unlogged = {"prefixes": ["UNLOGGED"]} if postgresql else {}
    op.create_table(
        "limit_buckets",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("stamp", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_limit_buckets")),
        **unlogged,
    )
    op.create_index(
        op.f("ix_limit_buckets_expires_at"), "limit_buckets", ["expires_at"], unique=False
    )
    op.create_table(
        "limit_workers",
        sa.Column("worker", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("worker", name=op.f("pk_limit_workers")),
        **unlogged,
    )
    op.create_index(
        op.f("ix_limit_workers_expires_at"), "limit_workers", ["expires_at"], unique=False
    )
    op.create_table(
        "limit_sockets",
        sa.Column("worker", sa.String(length=64), nullable=False),
        sa.Column("address", sa.Text(), nullable=False),
        sa.Column("sockets", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["worker"],
            ["limit_workers.worker"],
            name=op.f("fk_limit_sockets_worker_limit_workers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("worker", "address", name=op.f("pk_limit_sockets")),
        **unlogged,
    )
    op.create_index(op.f("ix_limit_sockets_address"), "limit_sockets", ["address"], unique=False)
    if postgresql:
        op.execute(OPEN_SOCKET)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS skirmish_open_socket(text, text, integer, float8)")
    op.drop_index(op.f("ix_limit_sockets_address"), table_name="limit_sockets")
    op.drop_table("limit_sockets")
    op.drop_index(op.f("ix_limit_workers_expires_at"), table_name="limit_workers")
    op.drop_table("limit_workers")
    op.drop_index(op.f("ix_limit_buckets_expires_at"), table_name="limit_buckets")
    op.drop_table("limit_buckets")
