"""The set-up screens before a game: resume one, choose the table's rules, seat the players
(at the start, and from the game-over screen for the next game).

Each screen is a small state machine driven by the same :class:`~zonkcam.controls.Press`
values as the game screen (SELECT / BACK move, ROLL confirms, BANK removes or goes back,
typed CHARs for names, QUIT cancels) with a ``draw`` method; ``done`` says when it has
its answer. Everything can be done with the three buttons alone: each screen's bottom
line says what each button does at that moment. Names are checked by the rules engine
itself, so the screens refuse exactly what a game would refuse.
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


ADD_PLAYER = "+ Add a player"
START = "Start the game"


def table_row(rules: RuleSet) -> str:
    """The seating's row that changes the table, naming the table chosen."""
    return f"Table: {rules.name}"


class SeatPlayers:
    """Seat the players in turn order with the three buttons (or the keyboard); on the
    drinking table, then their zonk names.

    The seating is a list: the players, then "+ Add a player", "Table: NAME" and "Start
    the game". SELECT (Down, Tab) goes down it and BACK (Up) up; ROLL (Enter) acts on the
    row lit: on a player it picks them up to move (SELECT / BACK move them down / up,
    ROLL puts them down), on "+ Add a player" it opens the names played before
    (``known``, the latest first, then "Player N"): ROLL adds the name lit, BANK goes
    back. BANK on a player removes them; elsewhere it is "back" where the screen has one
    (``back``: what it goes back to). UNDO (SELECT held) takes back the last change.
    A name typed on a keyboard and Enter adds it; Backspace on an empty line removes the
    player lit (or the last one). Every seating and zonk name is checked by the rules
    engine itself, so the screen refuses exactly what a game would refuse.

    Zonk names: each player names their left neighbour (the next in turn order), and
    every player gets one (the table shows only zonk names): ROLL takes the name lit
    from a list (the player's own zonk names before, ``zonk_names``, then the others
    there, then ``stock_zonk_names``) or the name typed; BANK goes back a player.
    """

    wants_text = True

    def __init__(
        self,
        rules: RuleSet,
        players: Sequence[str] = (),
        known: Sequence[str] = (),
        *,
        zonk_names: Sequence[tuple[str, str]] = (),
        stock_zonk_names: Sequence[str] = (),
        presets: Mapping[str, RuleSet] = PRESETS,
        back: str | None = None,
    ) -> None:
        self.rules = rules
        self.players: list[str] = list(players)
        self.known = list(known)
        self.zonk_names_known = list(zonk_names)
        """(player, zonk name) pairs, the latest first."""
        self.stock_zonk_names = list(stock_zonk_names)
        self.presets = presets
        self.back = back
        self.zonk_names: dict[str, str] = {}
        self.typed = ""
        self.message = ""
        self.row = len(self.players) + (2 if self.players else 0)  # Start, or + Add
        self.moving: int | None = None
        """The player (index) picked up to move."""
        self.adding = False
        """The list of names to add is open."""
        self.pick = 0
        """The name lit in the list of names (to add, or zonk names)."""
        self.tables: ChooseRules | None = None
        """The list of tables, while it is open."""
        self.naming: int | None = None
        """While choosing zonk names: the index of the player naming their left neighbour."""
        self.went_back = False
        """BANK on "back": the screen is done with no seating."""
        self.done = False
        self.cancelled = False
        self._undo: list[tuple[list[str], int]] = []
        self._game: Game | None = None

    @classmethod
    def naming_zonk_names(cls, rules: RuleSet, players: Sequence[str], **options) -> SeatPlayers:
        """The screen at its zonk names, for players seated already (``--players``)."""
        screen = cls(rules, players, **options)
        screen._start()
        return screen

    @property
    def rows(self) -> list[str]:
        """The seating list as shown: numbered players, then add, table and start."""
        names = [
            f"{i}. {n}" + ("  <- moving" if i - 1 == self.moving else "")
            for i, n in enumerate(self.players, start=1)
        ]
        return names + [ADD_PLAYER, table_row(self.rules), START]

    @property
    def choices(self) -> list[str]:
        """The names the list offers: to add, or as a zonk name."""
        return self._zonk_choices() if self.naming is not None else self._names_to_add()

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
    def title(self) -> str:
        if self.naming is not None:
            return f"{self.players[self.naming]}, a zonk name for {self._left_of(self.naming)}"
        return "Add a player" if self.adding else f"Players ({self.rules.name})"

    def handle(self, command: Press) -> None:
        kind = command.kind
        if kind is Control.QUIT:
            self.cancelled = self.done = True
        elif self.tables is not None:
            self._handle_tables(command)
        elif kind is Control.CHAR:
            if len(self.typed) < MAX_NAME and self.moving is None:
                self.typed += command.value
        elif kind is Control.ERASE and self.typed:
            self.typed = self.typed[:-1]
        elif self.naming is not None:
            self._handle_naming(command)
        elif self.moving is not None:
            self._handle_moving(command)
        elif self.adding:
            self._handle_adding(command)
        else:
            self._handle_seating(command)

    # -- the seating list ------------------------------------------------------------------

    def _handle_seating(self, command: Press) -> None:
        kind, rows = command.kind, len(self.players) + 3
        on = self.row if self.row < len(self.players) else None  # the player lit
        if kind in (Control.SELECT, Control.BACK):
            self.row = (self.row + (1 if kind is Control.SELECT else -1)) % rows
        elif kind is Control.UNDO:
            self._take_back()
        elif kind is Control.ERASE:
            if self.players:
                self._remove(len(self.players) - 1 if on is None else on)
        elif kind is Control.BANK:
            if on is not None:
                self._remove(on)
            elif self.back is not None:
                self.went_back = self.done = True
        elif kind is Control.ROLL:
            self.message = ""
            if self.typed.strip():
                if self._add(self.typed.strip()):
                    self.row = len(self.players) + 2  # Enter again starts, as typed
            elif on is not None:
                self.moving = on
            elif self.row == len(self.players):
                self.adding, self.pick = True, 0
            elif self.row == len(self.players) + 1:
                self.tables = ChooseRules(self.presets, selected=self.rules.name)
            else:
                self._start()

    def _handle_moving(self, command: Press) -> None:
        kind, i = command.kind, self.moving
        assert i is not None
        if kind in (Control.SELECT, Control.BACK):
            j = (i + (1 if kind is Control.SELECT else -1)) % len(self.players)
            self._remember()
            self.players.insert(j, self.players.pop(i))
            self.moving = self.row = j
        elif kind in (Control.ROLL, Control.BANK):
            self.moving = None

    def _handle_adding(self, command: Press) -> None:
        kind, names = command.kind, self._names_to_add()
        if kind in (Control.SELECT, Control.BACK):
            self.pick = (self.pick + (1 if kind is Control.SELECT else -1)) % len(names)
        elif kind is Control.UNDO:
            self._take_back()
        elif kind is Control.BANK:
            self.adding, self.message = False, ""
            self.row = len(self.players) + (2 if self.players else 0)
        elif kind is Control.ROLL:
            self.message = ""
            name = self.typed.strip() or names[self.pick % len(names)]
            if self._add(name):
                self.message = f"{name} plays ({counted(len(self.players), 'player')})"
                self.pick = min(self.pick, len(self._names_to_add()) - 1)

    def _handle_tables(self, command: Press) -> None:
        tables = self.tables
        assert tables is not None
        if command.kind is Control.BANK:
            self.tables = None
            return
        tables.handle(command)
        if tables.done:
            self.tables = None
            self.rules = tables.rules

    def _names_to_add(self) -> list[str]:
        """The names played before that are not seated, then the first free "Player N"."""
        seated = {n.casefold() for n in self.players}
        names = [n for n in self.known if n.casefold() not in seated]
        n = 1
        while f"player {n}" in seated:
            n += 1
        return [*names, f"Player {n}"]

    def _add(self, name: str) -> bool:
        try:
            Game(self.rules).play(A.Players((*self.players, name)))
        except TableError as exc:
            self.message = str(exc)
            return False
        self._remember()
        self.players.append(name)
        self.typed = ""
        return True

    def _remove(self, i: int) -> None:
        self._remember()
        name = self.players.pop(i)
        self.row = min(self.row, len(self.players) + 2)
        self.message = f"{name} removed (hold SELECT to undo)"

    def _remember(self) -> None:
        self._undo.append((list(self.players), self.row))

    def _take_back(self) -> None:
        if self._undo:
            self.players, self.row = self._undo.pop()
            self.message = ""

    def _start(self) -> None:
        if not self.players:
            self.message = "add a player first"
            return
        try:
            game = Game(self.rules, [A.Players(tuple(self.players))])
        except TableError as exc:
            self.message = str(exc)
            return
        if self.rules.drinking.zonk_names and len(self.players) > 1:
            self._game, self.naming, self.pick = game, 0, 0
            self.zonk_names = {}
        else:
            self.done = True

    # -- zonk names ------------------------------------------------------------------------

    def _left_of(self, i: int) -> str:
        return self.players[(i + 1) % len(self.players)]

    def _zonk_choices(self) -> list[str]:
        """Zonk names for the player being named: theirs before first, then the others
        known, then the stock ones; none taken here or a player's name."""
        assert self.naming is not None
        named = self._left_of(self.naming).casefold()
        taken = {n.casefold() for n in (*self.players, *self.zonk_names.values())}
        pairs = self.zonk_names_known
        ordered = [z for p, z in pairs if p.casefold() == named]
        ordered += [z for p, z in pairs if p.casefold() != named] + self.stock_zonk_names
        out: dict[str, str] = {}
        for z in ordered:
            if z.casefold() not in taken:
                out.setdefault(z.casefold(), z)
        return list(out.values())

    def _handle_naming(self, command: Press) -> None:
        assert self.naming is not None and self._game is not None
        kind, names = command.kind, self._zonk_choices()
        if kind in (Control.SELECT, Control.BACK) and names:
            self.pick = (self.pick + (1 if kind is Control.SELECT else -1)) % len(names)
        elif kind in (Control.BANK, Control.UNDO):
            self.message, self.pick = "", 0
            if self.naming == 0:
                self.naming = self._game = None
                self.row = len(self.players) + 2
                return
            self.naming -= 1
            self.zonk_names.pop(self._left_of(self.naming), None)
            self._game = Game(self.rules, self.actions)
        elif kind is Control.ROLL:
            self.message = ""
            name = self.typed.strip() or (names[self.pick % len(names)] if names else "")
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
            self.typed, self.pick = "", 0
            self.naming += 1
            if self.naming >= len(self.players):
                self.naming = None
                self.done = True

    # -- drawing ---------------------------------------------------------------------------

    @property
    def hint(self) -> str:
        """What each button does now, in the buttons' names (Enter's, while a name is
        typed on a keyboard: it takes the name typed)."""
        typed = self.typed.strip()
        if self.naming is not None:
            names = [typed] if typed else self._zonk_choices()
            named = self._left_of(self.naming)
            take = f"{named} is {names[self.pick % len(names)]}" if names else "choose"
            if typed:
                return f"Enter: {take}   Backspace: erase"
            return f"SELECT: next name   ROLL: {take}   BANK: back"
        if self.moving is not None:
            return f"SELECT: move down   ROLL: put {self.players[self.moving]} here"
        if typed:
            return f"Enter: add {typed}   Backspace: erase"
        if self.adding:
            names = self._names_to_add()
            return f"SELECT: next name   ROLL: add {names[self.pick % len(names)]}   BANK: done"
        if self.row < len(self.players):
            name = self.players[self.row]
            return f"SELECT: next   ROLL: move {name}   BANK: remove {name}"
        back = f"   BANK: back to {self.back}" if self.back else ""
        does = ("add a player", "change the table", "start the game")[self.row - len(self.players)]
        return f"SELECT: next   ROLL: {does}{back}"

    def draw(self, surface: pygame.Surface, screen: Painter) -> None:
        if self.tables is not None:
            draw_menu(
                surface,
                screen,
                self.tables.title,
                self.tables.options,
                self.tables.selected,
                "SELECT: next   ROLL: choose   BANK: back",
            )
            return
        seated = ", ".join(self.players) or "nobody yet"
        if self.naming is not None:
            items, lit = self._zonk_choices(), self.pick
            note = "the table shows the zonk names only"
        elif self.adding:
            items, lit = self._names_to_add(), self.pick
            note = f"playing: {seated}"
        else:
            items, lit = self.rows, self.row
            note = "in turn order; the first starts"
        draw_menu(
            surface,
            screen,
            self.title,
            items,
            lit,
            self.hint,
            typed=("or type a name:", self.typed),
            message=self.message,
            note=note,
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
    note: str = "",
) -> None:
    """A set-up screen: title (and a ``note`` under it), a list (one item highlighted), a
    typing line, a message, a hint."""
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
    if note:
        top = (
            screen.text(
                surface, note, round(h * 0.05), (pad, top - pad // 2), color=DIM, width=w - 2 * pad
            ).bottom
            + pad
        )
    foot = [(hint, round(h * 0.06), TEXT, False)]
    if message:
        foot.append((message, round(h * 0.05), WARN, False))
    bottom = screen.stack_up(surface, foot, h - pad, x=pad, width=w - 2 * pad, gap=pad)
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
