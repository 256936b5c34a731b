"""The level the AI plays at when it takes over a person's seat (a player left, or timed out
three times), chosen by the host when the lobby opens (issue 39).

Games opened before this revision have none (NULL), which plays as "normal", as they did.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.schema import refuse_data_loss

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable and without a default: PostgreSQL adds it without rewriting the table.
    op.add_column("games", sa.Column("handover_level", sa.String(), nullable=True))


def downgrade() -> None:
    refuse_data_loss(
        revision,
        {"hosts' handover levels": "SELECT count(*) FROM games WHERE handover_level IS NOT NULL"},
    )
    op.drop_column("games", "handover_level")
