"""Words for the asker: a catalogue key and its arguments, which a front-end turns into its
language (`bot.render`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Say:
    """Words for the asker: a catalogue key and its arguments."""

    key: str
    params: dict[str, object] = field(default_factory=dict)
