"""Each game keeps the version of its engine's rules it was played under, so a replay of a
game whose rules have changed since is refused rather than shown wrong (`bot/replays.py`).

Games started before this revision have none (NULL): a replay of one is checked by
rebuilding it and comparing the result with the state saved at its end.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.schema import refuse_data_loss

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rules_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    refuse_data_loss(
        revision,
        {"games' rules versions": "SELECT count(*) FROM games WHERE rules_version IS NOT NULL"},
    )
    op.drop_column("games", "rules_version")
