"""The Discord front-end's notes about a game's messages (which message shows its table, its
last turn ping), kept with the game through the sessions' message references so that a
restarted bot edits the same messages.

The one choice between a bot alone on its store and several processes on one database is
made here, once at start (`message_notes`): with other processes, the notes also keep a
fingerprint of what the table's message shows, so that what a process remembers drawing
is used only while the message still shows it."""

from __future__ import annotations

from ...sessions import FrontEndNotes

TABLE_REF = "discord.table"
SHOWS_REF = "discord.table.shows"
PING_REF = "discord.ping"


class MessageNotes:
    """The notes of a bot process alone on its store: what it drew is what its messages show."""

    def __init__(self, refs: FrontEndNotes) -> None:
        self._refs = refs

    async def _get(self, game_id: int, key: str) -> int | None:
        value = (await self._refs.get_refs(game_id)).get(key)
        return int(value) if value is not None else None

    async def table(self, game_id: int) -> int | None:
        """The id of the message that shows the game's lobby and then its table."""
        return await self._get(game_id, TABLE_REF)

    async def set_table(self, game_id: int, message_id: int) -> None:
        await self._refs.set_ref(game_id, TABLE_REF, str(message_id))

    async def ping(self, game_id: int) -> int | None:
        """The id of the game's last turn ping in its channel."""
        return await self._get(game_id, PING_REF)

    async def set_ping(self, game_id: int, message_id: int | None) -> None:
        await self._refs.set_ref(game_id, PING_REF, None if message_id is None else str(message_id))

    async def still_shows(self, game_id: int, drawn: str) -> bool:
        """Whether the table's message still shows `drawn` (the fingerprint of what this process
        last drew there)."""
        return True

    async def showing(self, game_id: int, drawn: str) -> None:
        """The table's message now shows `drawn`."""


class SharedMessageNotes(MessageNotes):
    """The notes of one of several processes on one database: another may have drawn the
    table's message since this one did."""

    async def still_shows(self, game_id: int, drawn: str) -> bool:
        return (await self._refs.get_refs(game_id)).get(SHOWS_REF) == drawn

    async def showing(self, game_id: int, drawn: str) -> None:
        await self._refs.set_ref(game_id, SHOWS_REF, drawn)


def message_notes(refs: FrontEndNotes, shared: bool) -> MessageNotes:
    """The notes for a bot alone on its store, or one of several processes on it
    (`sessions.delivery.shared`)."""
    return SharedMessageNotes(refs) if shared else MessageNotes(refs)
