"""Issue 40, the shared table in each reader's language: the lobby, the board's frame, the
final standings, a rematch, `/game status|log|leave`, `/help`, `/scoreboard`, `/history`
and `/privacy me`, through the fake Discord with the real bot.

Public messages (the lobby, the boards, the standings, a rematch's call, the scoreboard)
speak the game's language (the server's); private replies speak their reader's client's.
With the tests' pseudo language every catalogued word comes out accented, so a plain word
left in what the shared code says is one that skipped the catalogues.

What the game itself says (Rumble's board summary, its log lines, its move labels) is its
own helper's: the checks here leave those parts out (see `shared_part`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.games import AI_NAMES, GAMES
from bot.models import GameRecord, Status
from bot.requests import engine_of, seat_of
from cogs.shared import board, lobby_controls
from lang import say
from rules.phrases import phrase, phrase_in
from tests.e2e.conftest import Table
from tests.e2e.play import assert_started, latest_board, next_board
from tests.fakediscord import FakeDiscord, FakeMessage, InteractionResult
from tests.languages.pseudo import PSEUDO, plain_words
from tests.postgres import SQLITE_ONLY

pytestmark = SQLITE_ONLY

# A seed whose three-seat game ends in about 100 actions: the whole table is played twice
# here, and its boards reach the channel at Discord's pace.
SHORT_THREE_SEATS = 56

TITLES = tuple(engine.title for engine in GAMES.values())
FILLINGS = ("Alice", "Bob", "alice", "bob", "Trash Table", *AI_NAMES, *TITLES)
# Marks Discord itself fills in for each reader: timestamps, pings, channels, links.
DISCORD_MARKS = re.compile(r"<t:\d+(:\w)?>|<[@#]!?\d+>|\(https://[^)\s]*\)")


def foreign(text: str) -> list[str]:
    """The plain words of `text`, Discord's own marks and the names and titles aside: none
    when every word went through the pseudo language's catalogue."""
    return plain_words(DISCORD_MARKS.sub(" ", text), *FILLINGS)


def words_of(message: FakeMessage) -> list[str]:
    """Every text a message shows: its text displays, buttons, menus and embeds."""
    texts = [message.text]
    texts += [button.label or "" for button in message.buttons]
    for menu in message.selects:
        texts.append(menu.placeholder or "")
        for option in menu.raw.get("options", []):
            texts += [option.get("label", ""), option.get("description", "")]
    for embed in message.embeds:
        texts += [embed.get("title", ""), embed.get("description", "")]
        texts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        texts.append(embed.get("footer", {}).get("text", ""))
    return [text for text in texts if text]


def said(words: Any, language: str) -> str:
    return say(words, language)


def button(word: str, language: str) -> str:
    return say(phrase_in("button", word), language)


@dataclass
class Seen:
    """What the readers saw, as the flow below leaves it."""

    lobby: list[str] = field(default_factory=list)  # its words, as it took players
    lobby_text: str = ""
    status: FakeMessage | None = None
    log: FakeMessage | None = None
    help: FakeMessage | None = None
    walkthrough: FakeMessage | None = None
    privacy: FakeMessage | None = None
    left: str = ""
    hand_button: str = ""  # the first board's "My secret"
    final: FakeMessage | None = None
    # The new lobby, as it took players: its words, text, buttons and menus.
    rematch: list[str] = field(default_factory=list)
    rematch_text: str = ""
    rematch_buttons: list[str] = field(default_factory=list)
    rematch_menus: list[str] = field(default_factory=list)
    scoreboard: FakeMessage | None = None
    history: FakeMessage | None = None
    stopped: str = ""  # /game stop's word to the channel, closing the rematch's lobby
    boards: list[FakeMessage] = field(default_factory=list)


def only(result: InteractionResult) -> FakeMessage:
    (message,) = result.ephemeral or result.public
    return message


async def alice_plays_on(bot: Any, table: Table, game_id: int) -> None:
    """alice's turns played with the AI's own pick, through the session (so nothing here
    reads a word of the board) until the game is over."""
    for _ in range(2000):
        game: GameRecord | None = await bot.sessions.get(game_id)
        assert game is not None
        if game.status != Status.PLAYING:
            return
        seat = seat_of(game, table.alice.id)
        assert seat is not None and seat in bot.sessions.humans_to_act(game), "stuck"
        engine, state = engine_of(game), bot.sessions.state_of(game)
        action = await bot.sessions._ai_pick(game, engine, state, seat)
        index = bot.sessions.legal_for(game, seat).index(action)
        channel_id = game.channel_id
        update = await bot.sessions.act(channel_id, game_id, table.alice.id, game.step, index)
        await bot.sessions.play_ai(update)
    raise AssertionError("the game did not end")


async def a_whole_table(bot: Any, table: Table, fake: FakeDiscord, public: str) -> Seen:
    """alice opens a Rumble in a server speaking `public`; bob joins, an AI player too;
    bob reads every private reply, then leaves; alice plays to the end, asks for a
    rematch; bob reads the scoreboard and the history."""
    seen = Seen()
    opened = await table.alice.slash("/rumble new", seed=SHORT_THREE_SEATS)
    lobby = opened.response
    assert lobby is not None
    await table.bob.click(button("Join", public), message=lobby)
    add_ai = said(lobby_controls.ADD_AI, public)
    normal = said(lobby_controls.LEVEL_CHOICES["normal"][0], public)
    await table.alice.select(add_ai, normal, message=lobby)
    lobby = fake.state.messages[lobby.id]  # as it is now, with its controls
    seen.lobby, seen.lobby_text = words_of(lobby), lobby.text
    started = await table.alice.click(button("Start", public), message=lobby)
    assert_started(started)
    game = await bot.sessions.current(fake.channel.id)
    await next_board(fake, 0)
    first = latest_board(fake)
    (hand,) = [b for b in first.buttons if (b.custom_id or "").startswith("tt:hand:")]
    seen.hand_button = hand.label or ""

    seen.status = only(await table.bob.slash("/game status"))
    seen.log = only(await table.bob.slash("/game log"))
    seen.help = only(await table.bob.slash("/help"))
    seen.walkthrough = only(await table.bob.slash("/help", game="rumble"))
    seen.privacy = only(await table.bob.slash("/privacy me"))
    seen.left = (await table.bob.slash("/game leave")).ephemeral_text

    await alice_plays_on(bot, table, game.id)
    over = said(board.GAME_OVER, public)
    await fake.wait_for(lambda: over in latest_board(fake).text, timeout=60, what="the final board")
    seen.final = latest_board(fake)
    seen.boards = [m for m in fake.messages() if not m.ephemeral and m.attachments]
    again = await table.alice.click(button("Rematch", public), message=seen.final)
    assert again.response is not None and not again.ephemeral_text, again
    new = again.response
    seen.rematch, seen.rematch_text = words_of(new), new.text
    seen.rematch_buttons = [b.label or "" for b in new.buttons]
    seen.rematch_menus = [m.placeholder or "" for m in new.selects]
    seen.scoreboard = only(await table.bob.slash("/scoreboard"))
    seen.history = only(await table.bob.slash("/history"))
    seen.stopped = "\n".join(m.text for m in (await table.alice.slash("/game stop")).public)
    assert fake.problems() == []
    return seen


def shared_part(message: FakeMessage, game_words: int = 1) -> list[str]:
    """A message's words but for its first `game_words` lines of text (the game's own
    summary)."""
    texts = words_of(message)
    texts[0] = "\n".join(texts[0].split("\n")[game_words:])
    return texts


async def test_every_shared_word_goes_through_the_catalogues(bot, table: Table, fake_discord):
    """With the server and bob's client in the pseudo language, no plain word is left in
    what the shared table says, publicly or to bob alone."""
    fake_discord.guild.preferred_locale = PSEUDO
    table.bob.user.locale = PSEUDO
    seen = await a_whole_table(bot, table, fake_discord, PSEUDO)

    checked = {
        "the lobby": seen.lobby,
        "/help": words_of(seen.help),
        "/privacy me": words_of(seen.privacy),
        "/game leave": [seen.left],
        "the rematch's lobby": seen.rematch,
        "/scoreboard": words_of(seen.scoreboard),
        "/history": words_of(seen.history),
        "/game stop": [seen.stopped],
    }
    # /game status: all but its description, the game's own summary.
    (status,) = seen.status.embeds
    checked["/game status"] = [f"{f['name']}\n{f['value']}" for f in status["fields"]]
    # /game log: its frame; its lines are the game's.
    (log,) = seen.log.embeds
    checked["/game log"] = [log["title"], log["footer"]["text"]]
    # /help game: the walkthrough, its pages included (each one catalogue entry), and the
    # first line of "Here, now" (the rest lists the game's own move labels).
    (walk,) = seen.walkthrough.embeds
    here = [f["value"].split("\n")[0] for f in walk.get("fields", [])]
    checked["/help game:"] = [walk["title"], walk["description"], *here]
    # The final board: its standings and the line under them, and its Rematch button.
    footer = seen.final.text.split(said(phrase("**Final standings**"), PSEUDO), 1)
    assert len(footer) == 2, seen.final.text
    checked["the final standings"] = [footer[1], *(b.label for b in seen.final.buttons)]
    # Every board's "your turn" line, and the session's own lines (bob left).
    turns = [
        line for message in seen.boards for line in message.text.split("\n") if line.startswith("➡️")
    ]
    assert turns, "no board named whose turn it was"
    checked["whose turn"] = [*turns, seen.hand_button]
    gone = said(phrase("{player} left; the AI takes over the seat.", player="Bob"), PSEUDO)
    assert any(gone in m.text for m in seen.boards), "no board said bob left"

    for where, texts in checked.items():
        for text in texts:
            assert not foreign(text), (where, foreign(text), text)


async def test_a_french_server_and_a_german_player(bot, table: Table, fake_discord):
    """The table reads in French (the server's language) and bob's replies in German (his
    client's)."""
    fake_discord.guild.preferred_locale = "fr"
    table.bob.user.locale = "de"
    seen = await a_whole_table(bot, table, fake_discord, "fr")
    engine = GAMES["rumble"]

    lobby = seen.lobby_text
    assert "## Rumble in the Dungeon · salon d'attente" in lobby
    assert f"**Joueurs 3/{engine.max_seats}** (au moins {engine.min_seats})" in lobby
    assert "Alice (hôte)" in lobby and "Minuteur de tour : " in lobby
    assert "Place qu'un joueur quitte : l'IA normale" in lobby
    assert "Rusty (IA, " in lobby
    assert seen.lobby[1:5] == ["Rejoindre", "Quitter", "Commencer", "Annuler"]
    assert seen.rematch_buttons == [
        "Rejoindre",
        "Quitter",
        "Commencer",
        "Annuler",
    ]
    assert seen.rematch_menus == ["Ajouter un joueur IA…"]
    assert "🔁 **Revanche** de la partie n° " in seen.rematch_text

    final = seen.final.text
    assert "**Classement final**" in final and "**La partie est terminée.**" in final
    assert [b.label for b in seen.final.buttons] == ["Revanche"]
    assert seen.hand_button == "Mon secret"
    assert any("Bob a quitté la table ; l'IA reprend sa place." in m.text for m in seen.boards)
    assert any(": à vous de jouer." in m.text for m in seen.boards)

    (status,) = seen.status.embeds
    names = [f["name"] for f in status["fields"]]
    assert names == ["Wer ist dran", "Spieler", "Zugtimer", "Brett"]
    (log,) = seen.log.embeds
    assert log["title"] == "Rumble in the Dungeon · die bisherigen Züge"
    assert log["footer"]["text"] == "Älteste zuerst: nur, was der ganze Tisch sah."
    (overview,) = seen.help.embeds
    assert overview["fields"][0]["name"] == "So geht's los"
    (walk,) = seen.walkthrough.embeds
    assert walk["title"] == "Deine erste Partie Rumble in the Dungeon"
    assert seen.privacy.text.startswith("Was Trash Table über dich speichert")
    assert [b.label for b in seen.privacy.buttons] == ["Meine Daten entfernen"]
    assert seen.left == "Erledigt: Die KI spielt diesen Platz jetzt."

    # The scoreboard and the history are the channel's: in the server's language.
    (board_embed,) = seen.scoreboard.embeds
    assert board_embed["title"] == "Classement · tous les jeux"
    (history,) = seen.history.embeds
    assert history["title"] == "Dernières parties terminées"
    assert (
        "a arrêté la partie de Rumble in the Dungeon. Elle ne compte pas au classement."
        in seen.stopped
    )
    assert "terminée <t:" in history["fields"][0]["value"]
