"""A game's times read through jumps of the clock.

A Raspberry Pi has no clock of its own that runs while it is off: it boots with the time
it last saved (or any other), and jumps to the right time when the network gives it one,
maybe in the middle of a game; a person may set it by hand. Each action is written with
the clock's time, in the order it was played, so the log itself shows where the clock
jumped between two actions:

- back: an action written more than :data:`BACK_SLACK_S` before the one before it
  (a smaller step back is the clock being trimmed: no time passed);
- forward: an action written more than :data:`LONGEST_S` (6 hours) after the one
  before it. No turn takes that long: the clock jumped, or the game was left and taken
  up again another day. Either way it is no time the game was played.

The time across a jump is unknown and counted as none. The clock after the game's last
jump is taken as the right one: clocks are set right (by the network, by a person) far
more often than wrong. The times before a jump are moved by it, so that each part of the
game ends where the next begins; the game's times then never go back, its first action's
time (so moved) dates it (its night), and a turn across a jump took an unknown time.

A game played wholly on a clock that was ahead shows it beside the games stored after it:
a game stored before another began before it (:func:`in_order`). One played wholly on a
clock that was behind keeps its times: nothing shows the jump. Pure: times in, a
:class:`Timeline` out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

LONGEST_S = 6 * 3600.0
"""The longest believable time between two actions, and the longest turn: past it the
clock jumped (or the game was left for another day) and the time is unknown."""

BACK_SLACK_S = 2.0
"""A step back of the clock this small (trimmed by the network) is no jump: no time."""


@dataclass(frozen=True)
class Jump:
    """The clock jumped between two actions of a game."""

    index: int
    """The action written first after the jump (its place in the game's log, from 0)."""
    before: float
    """The clock's time at the action before (seconds since the epoch)."""
    after: float
    """...and at the action after."""

    @property
    def by(self) -> float:
        """How far the clock moved (seconds): below 0 back, above 0 forward."""
        return self.after - self.before

    def words(self) -> str:
        """How far, in words: back 1 day; forward 2 years; forward 20 h 5 min (or the
        game was left that long)."""
        if self.by < 0:
            return f"back {duration_words(-self.by)}"
        left = " (or the game was left that long)" if self.by < 365 * 86400 else ""
        return f"forward {duration_words(self.by)}{left}"


@dataclass(frozen=True)
class Timeline:
    """A game's action times with the clock's jumps taken out."""

    times: tuple[float, ...]
    """Each action's time, moved by the jumps after it: never going back."""
    jumps: tuple[Jump, ...]

    @property
    def began(self) -> float | None:
        """When the game began, by the clock after its last jump (None: no action)."""
        return self.times[0] if self.times else None

    @property
    def ended(self) -> float | None:
        return self.times[-1] if self.times else None

    def jumped(self, start: int, end: int) -> bool:
        """Whether the clock jumped after action `start` up to action `end` (places in
        the game's log, from 0): the time between them is unknown."""
        return any(start < j.index <= end for j in self.jumps)


def timeline(times: Sequence[float]) -> Timeline:
    """The game's `times` (the clock's, in the order the actions were written) with the
    jumps taken out: the last action keeps its time, each one before it is the next one's
    time less the step between them (none across a jump or a small step back)."""
    jumps = []
    steps = [0.0] * len(times)
    for i in range(1, len(times)):
        step = times[i] - times[i - 1]
        if step < -BACK_SLACK_S or step > LONGEST_S:
            jumps.append(Jump(i, times[i - 1], times[i]))
        else:
            steps[i] = max(step, 0.0)
    moved = [0.0] * len(times)
    if times:
        moved[-1] = times[-1]
    for i in range(len(times) - 1, 0, -1):
        moved[i - 1] = moved[i] - steps[i]
    return Timeline(tuple(moved), tuple(jumps))


def in_order(began: Sequence[float | None]) -> list[float | None]:
    """When each game began (as :attr:`Timeline.began` says, None: unknown), the games in
    the order they were stored, with the clock's jumps between games taken out: a game
    stored before another began before it, so one that seems to begin after a later
    game (the clock was ahead while it was played, and set right before the next) is
    taken to begin when that one began. The last game's clock is the right one."""
    out = list(began)
    bound: float | None = None
    for i in range(len(out) - 1, -1, -1):
        at = out[i]
        if at is None:
            continue
        if bound is not None and at > bound:
            out[i] = at = bound
        bound = at
    return out


def duration_words(seconds: float) -> str:
    """A length of time, as roughly as it needs: "40 s", "12 min", "3 h 5 min", "1 day",
    "45 days", "2 years"."""
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    days = round(seconds / 86400)
    if days < 730:
        return f"{days} day{'s' * (days != 1)}"
    years = f"{seconds / (365.25 * 86400):.1f}".removesuffix(".0")
    return f"{years} years"
