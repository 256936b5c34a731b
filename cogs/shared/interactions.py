"""Small helpers for reading an interaction and answering it, and the two safety nets every
press goes through: a press delivered twice is handled once, and a press nothing else will
answer (a forged or mistyped custom id, a button the bot has just taken off its message) gets
a short reason instead of Discord's "This interaction failed"."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast
from weakref import WeakKeyDictionary, WeakValueDictionary

import discord

from bot.internals.discord import dynamic_items_matching, registered_item
from bot.requests import RESTARTING, Player, UserError
from bot.sessions import COMMITTED, DATABASE_DOWN, out_of_service
from cogs.shared import permissions
from cogs.shared.carriers import carriers_of
from cogs.shared.limits import MAX_CONTENT, clip
from lang import language_for, say
from rules.phrases import Filling, Phrase, phrase

if TYPE_CHECKING:
    from bot.client import TrashTableBot

log = logging.getLogger(__name__)

STALE_CONTROL = phrase(
    "That control is not one of ours or no longer works; use the newest game message."
)
REMEMBERED = 4096  # interaction ids remembered per client to spot a repeated delivery
QUICK_SECONDS = 1.0
"""How long after Discord made a press its work may run before the press is deferred:
Discord waits 3 s for an answer, and nearly every reply is ready well before this."""

ANSWER_BY = 2.2
"""Seconds after Discord made a press by which it is answered, whatever its work waits for
(Discord fails a press not answered within 3 s)."""

T = TypeVar("T")
V = TypeVar("V", bound=discord.ui.View | discord.ui.LayoutView)


def routed_by_custom_id(view: V) -> V:
    """`view`, marked as never to be listened to: every control the bot sends is a
    `DynamicItem`, answered by its custom id whatever view it came in. discord.py would
    otherwise keep each view it sends, and give every private reply's view a timer of its
    own for 15 minutes: under load hundreds of timers a minute, and hundreds of thousands of
    kept objects for every full garbage collection to walk."""
    view.stop()
    return view


def client_of(interaction: discord.Interaction) -> TrashTableBot:
    return cast("TrashTableBot", interaction.client)


def player_of(interaction: discord.Interaction) -> Player:
    return Player(
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        can_manage=interaction.permissions.manage_channels,
    )


async def server_language(sessions: Any, interaction: discord.Interaction) -> str:
    """The language of a server's public messages outside a game (`/scoreboard`): the one
    its admins chose (`/language`, kept by `sessions`), else the server's own."""
    chosen = await sessions.guild_language(interaction.guild_id or 0)
    return language_for(chosen or interaction.guild_locale)


async def refuse(interaction: discord.Interaction, reason: Filling) -> None:
    """A short private reason, in the presser's language; used for everything a user does
    wrong."""
    await send_private(interaction, False, say(reason, language_for(interaction.locale)), [], None)


SOMETHING_WRONG = phrase("Something went wrong on our side; nothing was changed.")
SAVED_THEN_WRONG = phrase(
    "That went through, but something went wrong on our side while showing it; "
    "the game's messages will catch up."
)


async def refuse_fault(interaction: discord.Interaction, error: Exception) -> None:
    """Answer a press or command that failed on our side, never leaving it unanswered:
    the database out of service (it changed nothing: every press is one transaction),
    or anything else, logged whole. A fault after the press's change was committed says
    that it went through: its boards are in the outbox, which the poster delivers."""
    committed = COMMITTED.get()
    if committed is not None and committed[0]:
        log.error(
            "interaction %s failed after its change was saved", interaction.id, exc_info=error
        )
        reason = SAVED_THEN_WRONG
    elif out_of_service(error):
        log.warning("interaction %s: the database is out of service (%r)", interaction.id, error)
        reason = DATABASE_DOWN
    else:
        log.error("interaction %s failed", interaction.id, exc_info=error)
        reason = SOMETHING_WRONG
    try:
        await refuse(interaction, reason)
    except discord.HTTPException:
        log.warning("interaction %s: the refusal could not be sent", interaction.id)


def in_private_reply(interaction: discord.Interaction) -> bool:
    """Whether the press came from a private reply (rather than a channel message)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


# A lock per press while something may be giving it its first answer. Discord takes one
# callback a press, and discord.py counts a press answered only once that request has
# returned: a net deferring meanwhile would send a second callback, which Discord refuses.
_answering: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()


@asynccontextmanager
async def first_answer(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Held around whatever may be a press's first answer (a reply, an edit, a deferral):
    inside it, `interaction.response.is_done()` tells for sure whether it has one. Not
    reentrant: the helpers below each take it around their own request only."""
    lock = _answering.get(interaction.id)
    if lock is None:
        lock = _answering[interaction.id] = asyncio.Lock()
    async with lock:
        yield


def seconds_left(interaction: discord.Interaction, by: float) -> float:
    """Seconds until `by` seconds after Discord made the interaction (a clock of ours
    ahead of Discord's waits no longer)."""
    made = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return max(by - max(made, 0.0), 0.0)


async def in_time(
    interaction: discord.Interaction,
    work: Awaitable[T],
    *,
    in_place: bool,
    by: float = QUICK_SECONDS,
) -> T:
    """Do a press's work, and defer the press only if it is not answered `by` seconds after
    Discord made it: a deferred update of the message pressed (`in_place`: the private
    reply or the lobby the answer edits, or a board, which it leaves as it is), or a new
    private "thinking" reply. Work done in time is answered by its reply itself
    (`edit_pressed`, `send_private`): one request instead of a deferral and an edit.

    Two deadlines use it: QUICK_SECONDS around the work of a reply that carries a picture
    (its upload needs the rest of Discord's 3 s), and ANSWER_BY around every control's
    whole work (`AnsweredOnce`), the net for a database that hangs."""
    task = asyncio.ensure_future(work)
    left = seconds_left(interaction, by)
    if left > 0:  # a press that reached us late is deferred before its work runs
        await asyncio.wait({task}, timeout=left)
    if not task.done():
        await defer_late(interaction, in_place, unless=task.done)
    return await task


async def defer_late(
    interaction: discord.Interaction, in_place: bool, unless: Callable[[], bool] = lambda: False
) -> None:
    """A net's deferral: an update of the message pressed (`in_place`) or a private
    "thinking" reply, unless the press has been answered (or `unless()` says its work is
    done) by the time any answer on its way has gone. A refusal is only logged: the work
    goes on (it may have saved a move) and its reply is tried as an answer."""
    async with first_answer(interaction):  # not while the work's answer is on its way
        if unless() or interaction.response.is_done():
            return
        try:
            if in_place:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except (discord.HTTPException, discord.InteractionResponded):
            log.info("interaction %s: the late deferral was refused", interaction.id)


async def defer_on_board(interaction: discord.Interaction) -> None:
    """A press on a board that opens a private reply: answered first as an update of the
    board (which changes nothing on it), the reply then sent as a private followup. The
    press's token can then edit the board for 15 minutes, so the moves its player makes in
    the reply show on the board without the bot token (cogs/shared/carriers.py)."""
    async with first_answer(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer()


async def edit_pressed(interaction: discord.Interaction, **fields: Any) -> None:
    """Show `fields` (content, attachments, view) on the message pressed (a private reply,
    a lobby): as the press's answer, or as an edit once `in_time` has deferred it. Its
    content is clipped to Discord's 2,000 characters here, for every private reply."""
    if isinstance(fields.get("content"), str):
        fields["content"] = clip(fields["content"], MAX_CONTENT)
    async with first_answer(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)


async def send_private(
    interaction: discord.Interaction,
    in_place: bool,
    text: str,
    files: list[discord.File],
    view: discord.ui.View | None,
) -> int | None:
    """A press's private reply (after `in_time`): the reply pressed in, edited (`in_place`),
    or a new one; its text clipped to Discord's 2,000 characters. The reply's message id
    when it is a followup, None when it is the press's `@original`."""
    text = clip(text, MAX_CONTENT)
    if in_place:
        await edit_pressed(interaction, content=text, attachments=files, view=view)
        return None
    shown = view if view is not None else discord.utils.MISSING
    async with first_answer(interaction):
        if interaction.response.is_done():
            sent = await interaction.followup.send(
                text, files=files, ephemeral=True, view=shown, wait=True
            )
            return sent.id
        await interaction.response.send_message(text, files=files, ephemeral=True, view=shown)
        return None


# ---------------------------------------------------------------------- the bot's permissions


async def lacking_here(interaction: discord.Interaction, opening: bool = False) -> Phrase | None:
    """What the bot lacks in the interaction's channel to run a game there, as the player's
    answer (None when nothing): `opening` a lobby says where to grant it, a press says it in
    one line. Read from the interaction's `app_permissions`, what Discord itself goes by
    in that channel. When nothing is lacking, a channel whose boards the poster paused is
    resumed: its pending boards go out, and this interaction goes on as if nothing had
    happened (a control still current does what it says; an older one is refused as out
    of date, as any time)."""
    thread = permissions.in_thread(interaction.channel)
    missing = permissions.lacking(interaction.app_permissions, thread)
    if missing:
        if opening:
            return permissions.cannot_open(missing, thread)
        return permissions.cannot_post(missing, thread)
    poster = permissions.poster_of(interaction.client)
    channel_id = interaction.channel_id or 0
    if poster is not None and poster.blocked(channel_id) is not None:
        await poster.resume(channel_id)
    return None


async def held_for_permissions(interaction: discord.Interaction, opening: bool = False) -> bool:
    """Answer a game's press or command with what the bot lacks in the channel (True), or
    let it go on (False); see `lacking_here`."""
    reason = await lacking_here(interaction, opening)
    if reason is not None:
        await refuse(interaction, reason)
    return reason is not None


# ---------------------------------------------------------------------- once per interaction

_delivered: WeakKeyDictionary[discord.Client, OrderedDict[int, None]] = WeakKeyDictionary()


def first_delivery(interaction: discord.Interaction) -> bool:
    """False when Discord has delivered this interaction before (a gateway resume can replay
    it): it was answered the first time, and a second answer would only be refused."""
    seen = _delivered.setdefault(interaction.client, OrderedDict())
    if interaction.id in seen:
        log.info("interaction %s delivered again; ignored", interaction.id)
        return False
    seen[interaction.id] = None
    if len(seen) > REMEMBERED:
        seen.popitem(last=False)
    return True


async def command_check(interaction: discord.Interaction) -> bool:
    """The command tree's `interaction_check`: a command delivered twice runs once, and
    while the bot is stopping every command is told to come back (autocomplete, which
    changes nothing, goes on)."""
    if not first_delivery(interaction):
        return False
    command = interaction.type == discord.InteractionType.application_command
    if command and client_of(interaction).sessions.stopping:
        await interaction.response.send_message(
            say(RESTARTING, language_for(interaction.locale)), ephemeral=True
        )
        return False
    if command:  # `/game leave` and `kick` change a game: their boards can go on them
        COMMITTED.set([False])  # the command runs in this task (`refuse_fault`)
        carriers_of(interaction.client).add(interaction)
        net = asyncio.create_task(command_net(interaction))
        _nets.add(net)
        net.add_done_callback(_nets.discard)
    return True


_nets: set[asyncio.Task[None]] = set()  # kept until done: the loop holds tasks only weakly


async def command_net(interaction: discord.Interaction) -> None:
    """A slash command not answered by ANSWER_BY seconds after Discord made it (its
    database slow, say) is deferred as a private "thinking" reply, so Discord does not
    fail it; its answer then follows (`answer_command`, `refuse`)."""
    await asyncio.sleep(seconds_left(interaction, ANSWER_BY))
    await defer_late(interaction, in_place=False)


async def answer_command(
    interaction: discord.Interaction, *, public: bool = True, **fields: Any
) -> int:
    """A slash command's answer (content, embed, view), in the channel (`public`) or to
    its user alone; returns its message id. Answered as the command's response, or, once
    `command_net` has deferred it privately, as a private followup or a channel message
    (a followup takes the deferral's privacy), the "thinking" reply then taken away."""
    async with first_answer(interaction):
        if not interaction.response.is_done():
            answer = await interaction.response.send_message(ephemeral=not public, **fields)
            return answer.message_id or (await interaction.original_response()).id
    if not public:
        return (await interaction.followup.send(ephemeral=True, wait=True, **fields)).id
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)
    message = await channel.send(**fields)
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.info("interaction %s: the thinking reply stays", interaction.id)
    return message.id


class AnsweredOnce:
    """Mixed into every `DynamicItem`: discord.py runs the callback only when
    `interaction_check` allows it, so a repeated delivery never reaches it; the callback
    runs the item's `pressed`, and a `UserError` raised anywhere in it is the player's
    short private reason (the one refusal path of every control; commands have theirs in
    the tree's error handler, cogs/table). A control that leads to boards is first held
    while the bot lacks a permission in the channel (`held_for_permissions`)."""

    # The kind of control it is: a press claiming another kind (a forged one) is not its
    # own, and `answer_unclaimed` answers it (see `claimed`).
    COMPONENT: ClassVar[discord.ComponentType] = discord.ComponentType.button

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return pressed_kind(interaction) == self.COMPONENT.value and first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        # Once answered, the press can carry the boards it causes (cogs/shared/carriers.py).
        carrier = carriers_of(interaction.client).add(interaction)
        COMMITTED.set([False])  # for `refuse_fault`; this press's own task
        try:
            await in_time(interaction, self._answer(interaction), in_place=True, by=ANSWER_BY)
        finally:
            if carrier is not None:
                carrier.answer()  # answered by now: the carrier lets the interaction go

    async def _answer(self, interaction: discord.Interaction) -> None:
        try:
            if self.leads_to_boards() and await held_for_permissions(interaction):
                return
            await self.pressed(interaction)
        except UserError as error:
            await refuse(interaction, error.reason)
        except Exception as error:
            await refuse_fault(interaction, error)

    def leads_to_boards(self) -> bool:
        """Whether this press needs the channel's boards: a game's controls do; paging
        the rules or joining a lobby does not."""
        return True

    async def pressed(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


# ---------------------------------------------------------------------- the catch-all


def claimed(interaction: discord.Interaction) -> bool:
    """Whether discord.py hands this component press to an item that answers it. This
    mirrors its dispatch (`ViewStore.dispatch_view` and `schedule_dynamic_item_call` in
    discord/ui/view.py): a view registered for the custom id, or a `DynamicItem` whose
    template matches it whole when the message the press came from still carries it.
    Anything else discord.py drops without a word. Its view store is an internal, read
    through `bot.internals.discord`."""
    data = cast("dict[str, Any]", interaction.data or {})
    custom_id, kind = str(data.get("custom_id", "")), int(data.get("component_type") or 0)
    client, message = interaction.client, interaction.message
    for key in (message.id if message else None, None):
        item = registered_item(client, key, kind, custom_id)
        if item is not None and item.view is not None and not item.view.is_finished():
            return True
    # A DynamicItem of ours takes the press only if it is of its kind (`AnsweredOnce`).
    kinds = [
        getattr(factory, "COMPONENT", None) for factory in dynamic_items_matching(client, custom_id)
    ]
    if message is None or not any(k is None or k.value == kind for k in kinds):
        return False
    return any(
        component.type.value == kind and getattr(component, "custom_id", None) == custom_id
        for component in walk_components(message.components)
    )


def pressed_kind(interaction: discord.Interaction) -> int:
    """The kind of control the press says it came from (Discord's component type)."""
    return int(cast("dict[str, Any]", interaction.data or {}).get("component_type") or 0)


def walk_components(components: Iterable[discord.Component]) -> Iterator[discord.Component]:
    """Every component on a message, nested ones (in rows, containers and sections) too.
    Read from the message as parsed, without building a view from it: this runs on every
    press, and discord.py's dispatch builds that view once already."""
    for component in components:
        yield component
        yield from walk_components(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from walk_components((accessory,))


async def answer_unclaimed(interaction: discord.Interaction) -> None:
    """`on_interaction` listener: the reason for a press no item will answer."""
    if interaction.type is not discord.InteractionType.component or claimed(interaction):
        return
    if not first_delivery(interaction):
        return
    log.info("unclaimed press on message %s", interaction.message and interaction.message.id)
    await refuse(interaction, STALE_CONTROL)
