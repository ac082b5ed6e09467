"""The set-up screens before a game: resume one, choose the table's rules, seat the players.

Each screen is a small state machine driven by the same :class:`~zonkcam.controls.Press`
values as the game screen (SELECT / BACK move, ROLL confirms, typed CHARs for names,
QUIT cancels) with a ``draw`` method; ``done`` says when it has its answer.
Names are checked by the rules engine itself, so the screens refuse exactly what a
game would refuse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pygame

from zonkcam.controls import Control, Press
from zonkcam.display.draw import ACCENT, BACKGROUND, DIM, PANEL, TEXT, WARN
from zonkcam.display.painter import Painter
from zonkcam.game import actions as A
from zonkcam.game.errors import TableError
from zonkcam.game.game import Game
from zonkcam.game.names import counted
from zonkcam.game.rules import PRESETS, RuleSet

MAX_NAME = 16


@dataclass(frozen=True)
class ResumableGame:
    """An unfinished game offered for resuming (plain data from the event log)."""

    id: int
    rules_name: str
    players: tuple[str, ...]
    actions: int

    @property
    def label(self) -> str:
        players = ", ".join(self.players)
        return f"#{self.id} {self.rules_name}: {players} ({counted(self.actions, 'action')})"


class _Menu:
    """Pick one of ``options`` with SELECT / BACK / a digit, confirm with ROLL."""

    title = ""
    hint = "SELECT: next   ROLL: choose"
    wants_text = False

    def __init__(self, options: Sequence[str], selected: int = 0) -> None:
        self.options = list(options)
        self.selected = selected % len(self.options) if self.options else 0
        self.done = False
        self.cancelled = False

    def handle(self, command: Press) -> None:
        kind = command.kind
        if kind is Control.SELECT:
            self.selected = (self.selected + 1) % len(self.options)
        elif kind is Control.BACK:
            self.selected = (self.selected - 1) % len(self.options)
        elif kind is Control.DIGIT and 1 <= command.value <= len(self.options):
            self.selected = command.value - 1
        elif kind is Control.ROLL:
            self.done = True
        elif kind is Control.QUIT:
            self.cancelled = self.done = True

    def draw(self, surface: pygame.Surface, screen: Painter) -> None:
        draw_menu(surface, screen, self.title, self.options, self.selected, self.hint)


class ChooseGame(_Menu):
    """Resume an unfinished game or start a new one; ``game_id`` is None for a new game."""

    title = "Resume a game?"

    def __init__(self, games: Sequence[ResumableGame]) -> None:
        self.games = list(games)
        super().__init__([g.label for g in self.games] + ["New game"])

    @property
    def game_id(self) -> int | None:
        return self.games[self.selected].id if self.selected < len(self.games) else None


MEET_THE_DICE = "Meet the dice (teach the table)"
"""The last item of the rules menu where the table can learn its dice."""


class ChooseRules(_Menu):
    """The table's rules, from the presets; with ``meet``, a last item that teaches the
    table its dice first (:mod:`zonkcam.display.meet`) and comes back here."""

    title = "Which table?"

    def __init__(
        self,
        presets: Mapping[str, RuleSet] = PRESETS,
        selected: str | None = None,
        meet: bool = False,
    ):
        self.presets = dict(presets)
        names = list(self.presets)
        super().__init__(
            names + [MEET_THE_DICE] * meet, names.index(selected) if selected in names else 0
        )

    @property
    def meet(self) -> bool:
        """The scorekeeper chose to meet the dice (no rules chosen yet)."""
        return self.selected >= len(self.presets)

    @property
    def rules(self) -> RuleSet:
        return self.presets[self.options[min(self.selected, len(self.presets) - 1)]]


class EnterPlayers:
    """Type the players' names in turn order; on the drinking table, then their zonk names.

    ROLL (Enter) adds the typed name; ROLL on an empty line finishes. ERASE deletes a
    letter, or the last player when the line is empty. For zonk names (the drinking table)
    each player names their left neighbour (the next in turn order), and every player
    gets one: the table shows only zonk names.
    """

    wants_text = True

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.players: list[str] = []
        self.zonk_names: dict[str, str] = {}
        self.typed = ""
        self.message = ""
        self.naming: int | None = None
        """While choosing zonk names: the index of the player naming their left neighbour."""
        self.done = False
        self.cancelled = False
        self._game: Game | None = None

    @classmethod
    def naming_zonk_names(cls, rules: RuleSet, players: list[str]) -> EnterPlayers:
        """The screen at its zonk names, for players seated already (``--players``)."""
        screen = cls(rules)
        screen.players = list(players)
        screen._game = Game(rules, [A.Players(tuple(players))])
        screen.naming = 0
        return screen

    @property
    def actions(self) -> list[A.Action]:
        """What to play on a new game: seat the players, then their zonk names."""
        out: list[A.Action] = [A.Players(tuple(self.players))]
        for i, namer in enumerate(self.players):
            named = self._left_of(i)
            if named in self.zonk_names:
                out.append(A.ZonkName(named, self.zonk_names[named], namer))
        return out

    @property
    def prompt(self) -> str:
        if self.naming is not None:
            return f"{self.players[self.naming]}, a zonk name for {self._left_of(self.naming)}:"
        return f"Player {len(self.players) + 1}:"

    def handle(self, command: Press) -> None:
        kind = command.kind
        if kind is Control.QUIT:
            self.cancelled = self.done = True
        elif kind is Control.CHAR:
            if len(self.typed) < MAX_NAME:
                self.typed += command.value
        elif kind is Control.ERASE:
            if self.typed:
                self.typed = self.typed[:-1]
            elif self.naming is None and self.players:
                self.players.pop()
        elif kind is Control.ROLL:
            self.message = ""
            if self.naming is None:
                self._enter_player()
            else:
                self._enter_zonk_name()

    def _left_of(self, i: int) -> str:
        return self.players[(i + 1) % len(self.players)]

    def _enter_player(self) -> None:
        name = self.typed.strip()
        if not name:
            if not self.players:
                self.message = "type a name first"
                return
            if self.rules.drinking.zonk_names and len(self.players) > 1:
                self._game = Game(self.rules, [A.Players(tuple(self.players))])
                self.naming = 0
            else:
                self.done = True
            return
        try:
            Game(self.rules).play(A.Players((*self.players, name)))
        except TableError as exc:
            self.message = str(exc)
            return
        self.players.append(name)
        self.typed = ""

    def _enter_zonk_name(self) -> None:
        assert self.naming is not None and self._game is not None
        name = self.typed.strip()
        namer, named = self.players[self.naming], self._left_of(self.naming)
        if not name:
            self.message = f"{named} needs a zonk name: the drinking table shows only those"
            return
        try:
            self._game.play(A.ZonkName(named, name, namer))
        except TableError as exc:
            self.message = str(exc)
            return
        self.zonk_names[named] = name
        self.typed = ""
        self.naming += 1
        if self.naming >= len(self.players):
            self.naming = None
            self.done = True

    def draw(self, surface: pygame.Surface, screen: Painter) -> None:
        names = [
            f"{i}. {n}" + (f"  ({self.zonk_names[n]})" if n in self.zonk_names else "")
            for i, n in enumerate(self.players, start=1)
        ]
        hint = "Enter: add   empty Enter: start   Backspace: erase"
        if self.naming is not None:
            hint = "Enter: next (the name is shown, not the player's)"
        title = "Zonk names" if self.naming is not None else f"Players ({self.rules.name})"
        draw_menu(
            surface,
            screen,
            title,
            names,
            None,
            hint,
            typed=(self.prompt, self.typed),
            message=self.message,
        )


def draw_menu(
    surface: pygame.Surface,
    screen: Painter,
    title: str,
    items: Sequence[str],
    selected: int | None,
    hint: str,
    *,
    typed: tuple[str, str] | None = None,
    message: str = "",
) -> None:
    """A set-up screen: title, a list (one item highlighted), a typing line, a hint."""
    screen.texts = []
    w, h = surface.get_size()
    pad = max(6, h // 40)
    surface.fill(BACKGROUND)
    top = (
        screen.text(
            surface, title, round(h * 0.11), (pad, pad), color=ACCENT, width=w - 2 * pad
        ).bottom
        + pad
    )
    bottom = h - pad
    bottom = (
        screen.text(
            surface,
            hint,
            round(h * 0.045),
            (pad, bottom),
            color=DIM,
            anchor="bottomleft",
            width=w - 2 * pad,
        ).top
        - pad
    )
    if message:
        bottom = (
            screen.text(
                surface,
                message,
                round(h * 0.05),
                (pad, bottom),
                color=WARN,
                anchor="bottomleft",
                width=w - 2 * pad,
            ).top
            - pad
        )
    if typed is not None:
        prompt, text = typed
        line = pygame.Rect(pad, bottom - round(h * 0.1), w - 2 * pad, round(h * 0.1))
        pygame.draw.rect(surface, PANEL, line)
        r = screen.text(
            surface,
            prompt,
            round(h * 0.06),
            (line.x + pad, line.centery),
            color=DIM,
            background=PANEL,
            anchor="midleft",
            width=line.w // 2,
        )
        screen.text(
            surface,
            text + "_",
            round(h * 0.07),
            (r.right + pad, line.centery),
            background=PANEL,
            anchor="midleft",
            width=line.right - r.right - 2 * pad,
        )
        bottom = line.top - pad
    row_h = round(h * 0.085)
    fits = max(1, (bottom - top) // row_h)
    first = 0 if selected is None else min(max(0, selected - fits + 1), max(0, len(items) - fits))
    if selected is None:
        first = max(0, len(items) - fits)  # typed lists: show the newest
    for n, item in enumerate(items[first : first + fits]):
        i = first + n
        row = pygame.Rect(pad, top + n * row_h, w - 2 * pad, row_h - 4)
        on = i == selected
        if on:
            pygame.draw.rect(surface, ACCENT, row, border_radius=row.h // 6)
        screen.text(
            surface,
            item,
            round(row.h * 0.8),
            (row.x + pad, row.centery),
            color=BACKGROUND if on else TEXT,
            background=ACCENT if on else BACKGROUND,
            anchor="midleft",
            width=row.w - 2 * pad,
        )
