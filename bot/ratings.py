"""Per-guild scoreboards and openskill ratings.

Only rated seats count: people who played their seat to the end. AI seats, and seats handed
to the AI (left, kicked, or three timeouts in a row), are never rated. A game moves ratings
only when at least two rated players took part; ratings are kept per game kind and for all
games together (kind "all").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from openskill.models import PlackettLuce
from sqlalchemy import case, func
from sqlmodel import Session, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.models import RatingRecord, ResultRecord

MODEL = PlackettLuce()
ALL_GAMES = "all"


def update_ratings(
    session: Session, guild_id: int, kind: str, results: list[ResultRecord]
) -> dict[int, tuple[float, float]]:
    """Rate a finished game; returns each rated player's rating for this game kind (the
    scoreboard's number, mu - 3 sigma) after it and how much it moved, by user id."""
    rated = [r for r in results if r.rated and r.user_id is not None]
    changes: dict[int, tuple[float, float]] = {}
    if len(rated) < 2:
        return changes
    for rating_kind in (kind, ALL_GAMES):
        records = []
        for result in rated:
            assert result.user_id is not None  # a rated seat is a person's
            record = session.get(RatingRecord, (guild_id, rating_kind, result.user_id))
            if record is None:
                fresh = MODEL.rating()
                record = RatingRecord(
                    guild_id=guild_id,
                    kind=rating_kind,
                    user_id=result.user_id,
                    mu=fresh.mu,
                    sigma=fresh.sigma,
                )
            records.append(record)
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in records]
        new = MODEL.rate(teams, ranks=[result.rank for result in rated])
        for record, (rating,) in zip(records, new, strict=True):
            if rating_kind == kind:
                before = MODEL.rating(mu=record.mu, sigma=record.sigma).ordinal()
                changes[record.user_id] = (rating.ordinal(), rating.ordinal() - before)
            record.mu, record.sigma = rating.mu, rating.sigma
            session.add(record)
    return changes


class Standing(TypedDict):
    """One seat on a finished game's last board, best first: kept in the board's outbox
    entry, so the board shows the same figures whenever it is delivered."""

    seat: int
    name: str
    rank: int  # 0 = won
    points: int
    ai: bool
    change: float | None  # the rating change on this server; None when the seat was not rated
    # The rating after the game (None likewise); missing from boards kept before it was.
    rating: NotRequired[float | None]


def standings(
    results: list[ResultRecord], changes: dict[int, tuple[float, float]]
) -> list[Standing]:
    """The final standings of a finished game: by rank, then seat order; `changes` are
    `update_ratings`'."""

    lines = []
    for r in sorted(results, key=lambda r: (r.rank, r.seat)):
        rated = r.rated and r.user_id is not None
        after, change = changes.get(r.user_id or 0, (None, None)) if rated else (None, None)
        lines.append(
            Standing(
                seat=r.seat,
                name=r.name,
                rank=r.rank,
                points=r.points,
                ai=r.user_id is None,
                change=change,
                rating=after,
            )
        )
    return lines


@dataclass(frozen=True)
class ScoreLine:
    user_id: int
    name: str
    games: int
    wins: int
    points: int
    rating: float | None  # the openskill ordinal (mu - 3 sigma); None until rated


async def scoreboard(
    session: AsyncSession, guild_id: int, kind: str | None, limit: int = 15
) -> list[ScoreLine]:
    """Players of one guild, best rating first, then most wins."""
    # sqlmodel types `select` for at most four columns; this one has five.
    query = select(  # type: ignore[call-overload]
        col(ResultRecord.user_id),
        func.max(ResultRecord.name),
        func.count(),
        func.sum(case((col(ResultRecord.rank) == 0, 1), else_=0)),
        func.sum(ResultRecord.points),
    ).where(
        ResultRecord.guild_id == guild_id,
        col(ResultRecord.rated).is_(True),
        col(ResultRecord.user_id).is_not(None),
    )
    if kind is not None:
        query = query.where(ResultRecord.kind == kind)
    query = query.group_by(col(ResultRecord.user_id))
    rows = (await session.exec(query)).all()
    ratings = {
        r.user_id: MODEL.rating(mu=r.mu, sigma=r.sigma).ordinal()
        for r in (
            await session.exec(
                select(RatingRecord).where(
                    RatingRecord.guild_id == guild_id, RatingRecord.kind == (kind or ALL_GAMES)
                )
            )
        ).all()
    }
    lines = [
        ScoreLine(
            user_id=int(user_id),
            name=str(name),
            games=int(games),
            wins=int(wins or 0),
            points=int(points or 0),
            rating=ratings.get(int(user_id)),
        )
        for user_id, name, games, wins, points in rows
    ]
    lines.sort(key=lambda s: (s.rating is None, -(s.rating or 0.0), -s.wins, -s.points, s.name))
    return lines[:limit]
