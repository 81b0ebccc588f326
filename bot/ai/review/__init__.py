"""The review of a match: every play graded by `hard`'s valuation against the position as
its player saw it, reproducibly (the same record and `searches` give the same review).

```python
from bot.ai.review import review_match
review = review_match(record, searches=DEFAULT_SEARCHES)   # a scopa-record/1 match (a dict)
review.accuracy, review.costliest(seat)
```

`review_tasks` and `review_turn` split the same work into one task per play, for worker
processes (`bot.sessions.reviews`).
"""

from __future__ import annotations

from typing import Any

from ...engine.record import RecordError
from .facts import Fault, Reason, reason
from .grade import Grade, grade
from .hint import HINT_SEARCHES, Hint, HintTask, hint
from .replay import Turn, match_key, read_records, turns
from .result import ACCURACY_SCALE, GradedPlay, Review, accuracy

DEFAULT_SEARCHES = 128
"""Guesses of the hidden cards per play (a close call gets more; see `grade`)."""

__all__ = ["ACCURACY_SCALE", "DEFAULT_SEARCHES", "HINT_SEARCHES", "Fault", "Grade", "GradedPlay", "Hint",
           "HintTask", "Reason", "RecordError", "Review", "ReviewTask", "Turn", "accuracy", "assemble",
           "hint", "read_records", "review_match", "review_tasks", "review_turn"]

ReviewTask = tuple[Turn, str, int]
"""One play to grade: the turn, the seed of its valuation, the searches."""


def review_tasks(record: dict[str, Any], searches: int = DEFAULT_SEARCHES) -> list[ReviewTask]:
    """Every play of the match as a task for `review_turn`; raises RecordError."""
    if searches < 1:
        raise ValueError("a review needs at least one search per move")
    key = match_key(record)
    return [(turn, f"{key}/{turn.round}/{turn.play}", searches) for turn in turns(record)]


def review_turn(task: ReviewTask) -> GradedPlay:
    """One play graded, with the reason for a loss."""
    turn, seed, searches = task
    view, played = turn.view, turn.played
    graded = grade(view, played, seed, searches)
    if graded.equivalent is not None:
        why: Reason | None = Reason(Fault.EQUIVALENT, cards=(graded.equivalent.card,))
    else:
        why = reason(view, played, graded.best, seed) if graded.loss > 0 else None
    return GradedPlay(turn.round, turn.play, turn.seat, played, graded.best, graded.loss, graded.choices,
                      view.table, view.hand, why)


def assemble(record: dict[str, Any], searches: int, plays: list[GradedPlay]) -> Review:
    """The review of `record` from its plays graded by `review_turn`, in the order played."""
    return Review(str(record["variant"]), int(record["seats"]), searches, tuple(plays))


def review_match(record: dict[str, Any], searches: int = DEFAULT_SEARCHES) -> Review:
    """The review of a `scopa-record/1` match, in this process; raises RecordError."""
    return assemble(record, searches, [review_turn(task) for task in review_tasks(record, searches)])
