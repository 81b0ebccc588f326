"""The owners' answers (`sessions.owners`) and a notice as a chat shows it."""

from __future__ import annotations

from ..i18n import t
from ..sessions.owners import BotStatus, OwnerAnswer


def owner_text(answer: OwnerAnswer, lang: str) -> str:
    if isinstance(answer, BotStatus):
        return status_text(answer, lang)
    return t(lang, answer.key, **answer.params)


def status_text(status: BotStatus, lang: str) -> str:
    store = status.store
    lines = [t(lang, "owners.status.title"),
             t(lang, "owners.status.games", running=store.running, lobbies=store.lobbies),
             t(lang, "owners.status.players", count=store.players_today),
             t(lang, "owners.status.processes", count=len(status.alive))]
    lines += [t(lang, "owners.status.process", process=p.process, platforms=p.platforms or "—",
                lag=f"{p.lag * 1000:.0f}", uptime=_duration(p.up_for)) for p in status.alive]
    if status.silent:
        lines.append(t(lang, "owners.status.silent", count=status.silent))
    lines.append(t(lang, "owners.status.database", ms=f"{status.database_ms:.1f}"))
    lines.append(t(lang, "owners.status.queues", due=store.timers_due, owed=status.announcements_owed,
                   notices=store.notices_owed))
    lines.append(t(lang, "owners.status.commands"))
    return "\n".join(lines)


def notice_text(text: str, lang: str) -> str:
    return t(lang, "owners.notice.shown", text=text)


def _duration(seconds: float) -> str:
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    hours, minutes = divmod(whole // 60, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
