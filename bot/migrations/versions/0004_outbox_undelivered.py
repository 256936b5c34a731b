"""An index of the outbox's undelivered entries by channel: the poster's look for what a
channel still has to be shown reads only those, not every board the channel ever had.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

UNDELIVERED = sa.text("delivered_at IS NULL")


def upgrade() -> None:
    op.create_index(
        "ix_outbox_undelivered",
        "outbox",
        ["channel_id", "id"],
        sqlite_where=UNDELIVERED,
        postgresql_where=UNDELIVERED,
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_undelivered", table_name="outbox")
