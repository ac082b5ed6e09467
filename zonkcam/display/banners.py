"""The big banners (ZONK, HOT DICE, WINNER, ...): their colours and the queue that times them.

The engine names the banners an action raised (``GameState.banners``); :func:`banners_for`
dresses them for the screen and :class:`BannerQueue` shows them one after another, each for
a set time. The queue reads a clock you pass in, so tests move time by hand.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from zonkcam.display.view import ShownBanner
from zonkcam.game.state import GameState

RGB = tuple[int, int, int]
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)


@dataclass(frozen=True)
class BannerStyle:
    title: str
    background: RGB
    foreground: RGB = WHITE


STYLES: dict[str, BannerStyle] = {
    "ZONK": BannerStyle("ZONK!", (200, 20, 20)),
    "HOT DICE": BannerStyle("HOT DICE!", (255, 120, 0), BLACK),
    "NEWBIE": BannerStyle("NEWBIE", (120, 40, 200)),
    "FRAME": BannerStyle("FRAME", (0, 90, 200)),
    "GO FOR 1000": BannerStyle("GO FOR 1000", (0, 160, 160), BLACK),
    "SLOPPY": BannerStyle("SLOPPY!", (140, 80, 20)),
    "DRINK: LEFT": BannerStyle("DRINK: LEFT", (230, 0, 120)),
    "DRINK: RIGHT": BannerStyle("DRINK: RIGHT", (160, 0, 230)),
    "DRINK: CHOOSE": BannerStyle("DRINK: CHOOSE", (255, 210, 0), BLACK),
    "DRINK: SOCIAL": BannerStyle("DRINK: SOCIAL", (0, 190, 70), BLACK),
    "MAKE A RULE": BannerStyle("MAKE A RULE", (20, 20, 120)),
    "FINAL ROUND": BannerStyle("FINAL ROUND", (240, 240, 240), BLACK),
    "WINNER": BannerStyle("WINNER", (255, 200, 0), BLACK),
    "PIGGYBACK": BannerStyle("PIGGYBACK", (255, 150, 180), BLACK),
    "SPACED": BannerStyle("SPACED", (90, 90, 90)),
    "HAND OUT": BannerStyle("HAND OUT", (0, 120, 60)),
    "UNDO": BannerStyle("UNDO", (60, 60, 60)),
    "THREE ZONKS": BannerStyle("THREE ZONKS", (120, 0, 0)),
}
_DEFAULT = BannerStyle("", (60, 60, 60))

# Log lines whose text after the prefix says who a banner is about.
_LOG_PREFIX = {
    "DRINK: LEFT": "DRINK LEFT: ",
    "DRINK: RIGHT": "DRINK RIGHT: ",
    "DRINK: CHOOSE": "DRINK CHOOSE: ",
    "DRINK: SOCIAL": "DRINK SOCIAL: ",
    "MAKE A RULE": "MAKE A RULE: ",
    "SPACED": "SPACED: ",
    "NEWBIE": "NEWBIE: ",
    "FRAME": "FRAME: ",
    "SLOPPY": "SLOPPY: ",
    "THREE ZONKS": "THREE ZONKS: ",
}


def banner(name: str, subtitle: str = "") -> ShownBanner:
    """The banner called ``name`` in its own colours."""
    style = STYLES.get(name, _DEFAULT)
    return ShownBanner(name, style.title or name, subtitle, style.background, style.foreground)


def banners_for(state: GameState) -> list[ShownBanner]:
    """The banners the last action raised, with who they are about where the log says; the
    game's last action's WINNER first (what else it raised, a hand-out say, after it)."""
    shown = []
    names = sorted(state.banners, key=lambda n: n != "WINNER") if state.finished else state.banners
    for name in names:
        subtitle = ""
        if name == "WINNER":
            subtitle = _winners(state)
        elif name == "FINAL ROUND" and state.final_round_by is not None:
            who = state.shown_name(state.players[state.final_round_by])
            subtitle = f"{who} reached {state.rules.target:,}: one more turn each"
        elif name in _LOG_PREFIX:
            prefix = _LOG_PREFIX[name]
            line = next((e for e in _recent(state) if e.startswith(prefix)), "")
            subtitle = line[len(prefix) :].split(" (")[0]  # the why in brackets: in the log
        elif name in ("ZONK", "HAND OUT"):
            words = {"ZONK": " zonks", "HAND OUT": " hands out "}
            subtitle = next((e for e in _recent(state) if words[name] in e), "")
        shown.append(banner(name, subtitle))
    return shown


def winner_banner(state: GameState) -> ShownBanner:
    """The banner the game-over screen keeps up once the others have been shown: WINNER,
    with the winners' names."""
    return banner("WINNER", _winners(state))


def _winners(state: GameState) -> str:
    return " & ".join(state.shown_name(p) for p in state.players if p.name in state.winners)


def _recent(state: GameState) -> Iterator[str]:
    """The log's last lines, newest first: those of the action that raised the banners
    are among them, and a long game's early lines are never searched."""
    return itertools.islice(reversed(state.log), 64)


class BannerQueue:
    """Banners waiting to be shown; each is shown for ``seconds``, then the next one.

    >>> now = [0.0]
    >>> q = BannerQueue(seconds=2, clock=lambda: now[0])
    >>> q.push([banner("ZONK"), banner("NEWBIE")])
    >>> q.current().name
    'ZONK'
    >>> now[0] = 2.5
    >>> q.current().name
    'NEWBIE'
    >>> now[0] = 5
    >>> q.current() is None
    True
    """

    def __init__(
        self,
        seconds: float = 2.5,
        clock: Callable[[], float] = time.monotonic,
        durations: dict[str, float] | None = None,
    ) -> None:
        self.seconds = seconds
        self.durations = dict(durations or {})
        """Per banner name, a time other than ``seconds`` (e.g. a longer WINNER)."""
        self.clock = clock
        self._waiting: deque[ShownBanner] = deque()
        self._showing: ShownBanner | None = None
        self._until = 0.0

    def push(self, banners: Iterable[ShownBanner]) -> None:
        self._waiting.extend(banners)

    def push_state(self, state: GameState) -> None:
        """Queue the banners the action that led to ``state`` raised."""
        self.push(banners_for(state))

    def clear(self) -> None:
        self._waiting.clear()
        self._showing = None

    def current(self) -> ShownBanner | None:
        """The banner to show now (advancing the queue as time passes), or None."""
        now = self.clock()
        if self._showing is not None and now >= self._until:
            self._showing = None
        if self._showing is None and self._waiting:
            self._showing = self._waiting.popleft()
            self._until = now + self.durations.get(self._showing.name, self.seconds)
        return self._showing

    def __len__(self) -> int:
        return len(self._waiting) + (self._showing is not None)
