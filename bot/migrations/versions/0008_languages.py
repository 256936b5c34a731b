"""The languages (issue 40): each game's language, fixed when its lobby opens, and a table of
what a server's admins chose (the language of its boards, set with `/language`).

Games opened before this revision have no language (NULL), which is English, as they were.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.schema import refuse_data_loss

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable and without a default: PostgreSQL adds it without rewriting the table.
    op.add_column("games", sa.Column("language", sa.String(), nullable=True))
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id"),
    )


def downgrade() -> None:
    refuse_data_loss(
        revision,
        {
            "games' languages": "SELECT count(*) FROM games WHERE language IS NOT NULL",
            "servers' chosen languages": "SELECT count(*) FROM guild_settings",
        },
    )
    op.drop_table("guild_settings")
    op.drop_column("games", "language")
