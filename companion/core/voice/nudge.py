"""The silence nudge's rules, without Qt: how long a silence is too long (a content
value), the text, and which round types listen (an opt-in kept in the preferences)."""

from __future__ import annotations

# The chapter's "If you go silent for 20 seconds: narrate". The pack carries it as the
# recovery item's `silence_seconds:` and `nudge:`; this is used when no pack gives it.
DEFAULT_SILENCE_SECONDS = 20.0
MIN_SILENCE_SECONDS, MAX_SILENCE_SECONDS = 5.0, 120.0
SUGGESTED_ROUNDS = ("coding", "design")  # where "silence is worse than narration"
PREF_KEY = "voice.silence_nudge_rounds"


def silence_limit(content) -> float:
    """Seconds of silence before the nudge: the pack's ``silence_seconds:`` (checked by
    ``companion content check``), clamped to a sane range; else the default."""
    if not hasattr(content, "silence_nudge"):
        return DEFAULT_SILENCE_SECONDS
    seconds = float(content.silence_nudge().seconds)
    return min(MAX_SILENCE_SECONDS, max(MIN_SILENCE_SECONDS, seconds))


def nudge_text(content) -> str:
    """What the card says after that silence: the pack's ``nudge:``."""
    if not hasattr(content, "silence_nudge"):
        return "Narrate."
    return content.silence_nudge().text


def opted_in(settings, round_type: str | None) -> bool:
    """``settings``: the database's (companion.core.settings.Settings)."""
    if not round_type:
        return False
    rounds = settings.get(PREF_KEY, [])
    return isinstance(rounds, list) and round_type in rounds


def set_opted_in(settings, round_type: str, on: bool) -> str | None:
    """Remember the choice; returns the save error, if any."""
    rounds = settings.get(PREF_KEY, [])
    rounds = [r for r in rounds if isinstance(r, str)] if isinstance(rounds, list) else []
    if on and round_type not in rounds:
        rounds.append(round_type)
    elif not on:
        rounds = [r for r in rounds if r != round_type]
    return settings.keep(PREF_KEY, sorted(rounds))


class SilenceWatch:
    """Shown once the silence reaches the limit; cleared by speech."""

    def __init__(self, limit: float = DEFAULT_SILENCE_SECONDS) -> None:
        self.limit = limit
        self.showing = False

    def silence(self, seconds: float) -> bool:
        """Returns True when this changed whether the nudge shows."""
        if not self.showing and seconds >= self.limit:
            self.showing = True
            return True
        return False

    def speech(self) -> bool:
        if self.showing:
            self.showing = False
            return True
        return False
