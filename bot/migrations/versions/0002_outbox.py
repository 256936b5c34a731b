"""The outbox: what each game must still show in its channel (`bot/outbox.py`).

Written in the transaction of the change that caused it and marked delivered by the poster,
so a process killed between saving an action and posting its board posts it on start-up.
Games running when this revision is applied simply have nothing pending.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.schema import refuse_data_loss

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=True),
        sa.Column("ready", sa.Boolean(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("replaced_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("delivered_at", TIMESTAMP, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_outbox_channel_id", "outbox", ["channel_id"])
    op.create_index("ix_outbox_game_id", "outbox", ["game_id"])


def downgrade() -> None:
    refuse_data_loss(revision, {"outbox entries": "SELECT count(*) FROM outbox"})
    op.drop_index("ix_outbox_game_id", table_name="outbox")
    op.drop_index("ix_outbox_channel_id", table_name="outbox")
    op.drop_table("outbox")
