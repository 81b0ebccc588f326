"""The custom ids of a tournament's sign-up buttons on Discord: `trn:<action>:<tournament>`.

Apart from the game's codec (`custom_ids`), whose ids start `scopa:`, so a press on one never
reads as the other. Anything not made here (another action, a tournament id that is not a
number, an id longer than Discord allows) decodes to None and is answered as out of date."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .custom_ids import MAX_LENGTH

PREFIX = "trn"


class SignUp(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"


@dataclass(frozen=True, slots=True)
class SignUpPress:
    action: SignUp
    tournament: str


_SHAPE = re.compile(rf"{PREFIX}:({'|'.join(a.value for a in SignUp)}):([0-9]{{1,18}})")


def encode(press: SignUpPress) -> str:
    if not press.tournament.isdigit() or len(press.tournament) > 18:
        raise ValueError(f"not a tournament id: {press.tournament!r}")
    return f"{PREFIX}:{press.action.value}:{press.tournament}"


def decode(data: object) -> SignUpPress | None:
    if not isinstance(data, str) or len(data) > MAX_LENGTH:
        return None
    shape = _SHAPE.fullmatch(data)
    if shape is None:
        return None
    return SignUpPress(SignUp(shape.group(1)), shape.group(2))
