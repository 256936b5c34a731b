"""An index of the outbox's undelivered entries by channel: the poster's look for what a
channel still has to be shown reads only those, not every board the channel ever had.

The outbox is the biggest table: on PostgreSQL the index is built concurrently, so shard
processes still running go on writing while it is built (docs/performance.md, "Migrations
on a big outbox").

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.schema import create_index_concurrently

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

UNDELIVERED = sa.text("delivered_at IS NULL")


def upgrade() -> None:
    create_index_concurrently(
        "ix_outbox_undelivered",
        "outbox",
        ["channel_id", "id"],
        sqlite_where=UNDELIVERED,
        postgresql_where=UNDELIVERED,
    )


def downgrade() -> None:
    # Plain, inside the downgrade's one transaction: dropping is quick, and a downgrade
    # refused further down then leaves the index in place.
    op.drop_index("ix_outbox_undelivered", table_name="outbox")
