"""The guilds the bot was removed from, and when: a departed guild's games, results and
ratings are removed once its grace period has passed (`bot/keeping.py`); a guild that
adds the bot back before then keeps them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.schema import refuse_data_loss

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "departed_guilds",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id"),
    )


def downgrade() -> None:
    # Without the departures, those guilds' data would stay until removed by hand.
    refuse_data_loss(revision, {"departed guilds": "SELECT count(*) FROM departed_guilds"})
    op.drop_table("departed_guilds")
