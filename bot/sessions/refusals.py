"""Why a request was refused: a code the front-ends turn into a message for that user."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Reason(StrEnum):
    NO_GAME = "no_game"
    GAME_OPEN = "game_open"
    TOURNAMENT_PLAYING = "tournament_playing"
    """A tournament plays its matches where a game was asked for: the next starts by itself."""
    NOT_IN_LOBBY = "not_in_lobby"
    GAME_FULL = "game_full"
    ALREADY_JOINED = "already_joined"
    NOT_JOINED = "not_joined"
    NOT_ALLOWED = "not_allowed"
    SEATS_EMPTY = "seats_empty"
    SEAT_WAITING = "seat_waiting"
    STALE = "stale"
    LOBBY_CHANGED = "lobby_changed"
    """Someone else changed the game at the same moment (another tap, maybe handled by another
    bot process): nothing was changed, the user may try again on the game as it now is."""
    NOT_YOUR_TURN = "not_your_turn"
    NOT_IN_GAME = "not_in_game"
    GAME_OVER = "game_over"
    GAME_CANCELLED = "game_cancelled"
    ILLEGAL_MOVE = "illegal_move"
    BAD_INPUT = "bad_input"
    BAD_OPTION = "bad_option"
    NO_FUORI = "no_fuori"
    MATCH_STARTED = "match_started"
    MUST_CAPTURE = "must_capture"
    UNKNOWN_GAME = "unknown_game"
    """A game (variant) nobody can start here; `games` are those one can."""
    OPTION_FORM = "option_form"
    """A word of /newgame's line that is neither the game nor `name=value` (`asked`: the word)."""
    OPTION_UNKNOWN = "option_unknown"
    """/newgame named an option its game does not have (`option`; `options`: those it has)."""
    OPTION_VALUE = "option_value"
    """/newgame gave an option a value its lobby does not offer (`asked`, `option`; `values`:
    those it offers)."""
    OPTION_IN_SETTINGS = "option_in_settings"
    """/newgame named a setting of the chat (`option`), which /settings or the lobby's menu set."""
    NOT_MEMBER = "not_member"
    """The chat says the user is not in it (one can see a public group's messages, and tap
    their buttons, without joining it)."""


    NO_MATCH = "no_match"
    """The chat has no finished match (to review)."""
    NOT_FINISHED = "not_finished"
    """The match is not over yet (or was cancelled), so it has no review."""
    NOT_YOUR_REVIEW = "not_your_review"
    """Only the people who played a match may see its review."""
    NO_REVIEW = "no_review"
    """The match's record cannot be replayed, so it cannot be reviewed."""
    REVIEWS_BUSY = "reviews_busy"
    """So many reviews are waiting to be made that another is not taken for now."""
    DAILY_PLAYED = "daily_played"
    """The player has had today's deal of the day already (one attempt a day)."""
    DAILY_WORDS = "daily_words"
    """/daily was followed by words it does not take (`asked`): it starts nothing."""
    DAILY_NOT_YOURS = "daily_not_yours"
    """A deal of the day offered to another player: each confirms their own."""
    DAILY_OLD_OFFER = "daily_old_offer"
    """A deal of the day offered on an earlier day (`day`): /daily offers today's."""
    DAILY_REMATCH = "daily_rematch"
    """A deal of the day has no rematch: one attempt a day, played alone."""
    SAME_TEAM = "same_team"
    """A player asked to sit with `name`, on whose team they sit already."""
    NO_CLOCK_ONLY = "no_clock_only"
    """A seat is handed to the computer by others only in a game with no move clock, where
    nobody's time runs out."""
    NOT_PRACTICE = "not_practice"
    """Hints are given in practice matches only (the lobby's `practice` option)."""
    BLOCKED = "blocked"
    """An owner blocked the user (`owners`): nothing they ask is done, anywhere."""
    NO_PUZZLE = "no_puzzle"
    """The chat (privately: the player) has no finished and reviewed match with a clearly costly play."""
    NOT_A_PUZZLE = "not_a_puzzle"
    """A puzzle's answer button this chat could not have been shown (another chat's, forged, or no puzzle)."""
    NO_CHOICE = "no_choice"
    """A hint asked for a hand with one legal move: the hand offers no 💡, it already says what to play."""


class Refused(Exception):
    """A request that changes nothing; `reason` and `params` say why, for the catalogue."""

    def __init__(self, reason: Reason, **params: Any) -> None:
        super().__init__(f"{reason.value}: {params}" if params else reason.value)
        self.reason = reason
        self.params = params
