"""The games under way when `make restore` put a backup in place (bot/backups.py): at the
next start each gets a fresh board and the boards of the steps the restore lost go
(bot/restores.py), and its row with them.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "restored_games",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    # No refusal: a row left only spares a fresh board, and a press on an old board
    # still brings one (the press-time check, bot/sessions.py).
    op.drop_table("restored_games")
