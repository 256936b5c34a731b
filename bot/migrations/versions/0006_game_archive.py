"""A finished game's action log and its boards' steps, compressed into its own row a day
after it ends (`bot/keeping.py`): its action and outbox rows, most of the database, go.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.schema import refuse_data_loss

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable and without a default: PostgreSQL adds it without rewriting the table.
    op.add_column("games", sa.Column("archive", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    refuse_data_loss(
        revision, {"archived game logs": "SELECT count(*) FROM games WHERE archive IS NOT NULL"}
    )
    op.drop_column("games", "archive")
