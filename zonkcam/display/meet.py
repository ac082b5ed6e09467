""" "Meet the dice" on the screen: the table learns its own dice at set-up.

The scorekeeper throws all the dice; once they settle the screen shows them as read, on
the camera view (a die read with low confidence with a ``?``) and as a row of values.
A misread die is fixed as in the game, or with the buttons alone:

* tap the die (on the camera view or in the row) and type its value, or tap it again to
  count its value up;
* SELECT picks the next die, BANK counts the picked die's value up (6, then 1);
* ROLL (Enter, the TEACH button) confirms the throw: only a confirmed throw teaches
  (:meth:`~zonkcam.table.teaching.Teacher.teach`, each crop in its eight turns);
* UNDO (SELECT held, ``u``, the SKIP button) skips the throw: nothing taught;
* QUIT (Esc, the DONE button), or SELECT while no throw is on screen, skips the rest.

The step ends after its throws. It reads no camera itself: the app hands it each
settled :class:`~zonkcam.table.observe.TableReport` (:meth:`MeetTheDice.observe`) and
the frame to show, and its commands (:meth:`MeetTheDice.handle`), as for the other
set-up screens (:mod:`zonkcam.display.setup`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import numpy as np
import pygame

from zonkcam.controls import Control, Press
from zonkcam.display.draw import ACCENT, BACKGROUND, DIM, FIGURE, PANEL, TEXT, UNSURE, WARN
from zonkcam.display.painter import Painter
from zonkcam.display.taps import CameraFit
from zonkcam.display.view import CONFIRM_BELOW, ShownDie, die_at
from zonkcam.game.names import counted
from zonkcam.table.observe import TableEvent

if TYPE_CHECKING:
    from zonkcam.table.observe import TableReport
    from zonkcam.table.reading import SeenDie
    from zonkcam.table.teaching import Teacher
    from zonkcam.table.zones import TableDie

THROWS = 3
"""Throws "meet the dice" asks for unless told (``zonkcam play --meet-dice N``)."""


class Stage(StrEnum):
    THROW = "throw"
    """Waiting for a settled throw of all the dice."""
    CHECK = "check"
    """A throw on screen for the scorekeeper to check, fix and confirm."""


class MeetTheDice:
    """The "meet the dice" screen: a set-up step, driven like the others (``done``)."""

    wants_text = False
    cancelled = False
    """Esc ends this step, not the set-up."""

    def __init__(
        self, teacher: Teacher, throws: int = THROWS, confirm_below: float = CONFIRM_BELOW
    ) -> None:
        self.teacher = teacher
        self.throws = throws
        self.confirm_below = confirm_below
        self.thrown = 0
        """Throws checked so far (confirmed or skipped)."""
        self.taught = 0
        """Dice taught so far."""
        self.dice: tuple[TableDie, ...] = ()
        """The throw on screen (empty while waiting for one)."""
        self.values: list[int | None] = []
        """Each die's value as it stands: as read, or as fixed (None: cocked, unfixed)."""
        self.seen: list[SeenDie | None] = []
        """What the reader saw of each die when the throw settled (what is taught)."""
        self.picked: int | None = None
        """The die being fixed."""
        self.frame: np.ndarray | None = None
        """The camera frame to show."""
        self.message = ""
        self.done = False
        self._fit: CameraFit | None = None
        self._touch: list[tuple[pygame.Rect, Press]] = []
        """Where the screen's touch buttons and value chips were drawn last."""

    @property
    def stage(self) -> Stage:
        return Stage.CHECK if self.dice else Stage.THROW

    # -- what the table saw -------------------------------------------------------------

    def observe(self, obs: TableReport) -> None:
        """A table report: a settled throw is shown for checking; dice thrown again
        before it was confirmed drop it (it teaches nothing)."""
        if self.done:
            return
        if obs.event in (TableEvent.ROLLING, TableEvent.SPINNING) and self.dice:
            self._clear()
            self.message = "thrown again: that throw taught nothing"
        if obs.event is not TableEvent.SETTLED or obs.change is None or not obs.rolled:
            return
        self.dice = tuple(obs.rolled)
        self.values = [d.value if d.known else None for d in self.dice]
        self.seen = [self.teacher.reader.recall(d.bbox) for d in self.dice]
        self.picked = None
        self.message = ""

    # -- what the scorekeeper does ------------------------------------------------------

    def handle(self, command: Press) -> None:
        kind = command.kind
        if kind is Control.QUIT:
            self.done = True
            return
        if self.stage is Stage.THROW:
            if kind is Control.SELECT:
                self.done = True
            elif kind in (Control.ROLL, Control.BANK, Control.UNDO):
                self.message = "throw all your dice on the mat first"
            return
        n = len(self.dice)
        if kind is Control.ROLL:
            self._confirm()
        elif kind is Control.UNDO:
            self._next(f"throw {self.thrown + 1} skipped: nothing taught")
        elif kind is Control.SELECT:
            self.picked = (
                0 if self.picked is None else (self.picked + 1 if self.picked + 1 < n else None)
            )
        elif kind is Control.BACK:
            self.picked = (
                n - 1 if self.picked is None else (self.picked - 1 if self.picked else None)
            )
        elif kind is Control.TAP_DIE and isinstance(command.value, int) and 0 <= command.value < n:
            if self.picked == command.value:
                self._count_up(command.value)
            else:
                self.picked = command.value
        elif kind is Control.BANK:
            if self.picked is None:
                self.message = "SELECT (or tap) the die to fix first"
            else:
                self._count_up(self.picked)
        elif kind is Control.DIGIT:
            if self.picked is None:
                self.message = "tap (or SELECT) the die to fix first"
            elif not 1 <= command.value <= 6:
                self.message = f"a die shows 1 to 6, not {command.value}"
            else:
                self.values[self.picked] = int(command.value)
                self.picked, self.message = None, ""

    def _count_up(self, k: int) -> None:
        self.values[k] = (self.values[k] or 0) % 6 + 1
        self.message = ""

    def _confirm(self) -> None:
        """The throw as it stands is right: teach every die read with a value."""
        pairs = [
            (s, v, d.color)
            for s, v, d in zip(self.seen, self.values, self.dice, strict=True)
            if s is not None and v is not None
        ]
        if pairs and self.teacher.teach(
            [p[0] for p in pairs], [p[1] for p in pairs], [p[2] for p in pairs], turns=True
        ):
            self.taught += len(pairs)
        left = len(self.dice) - len(pairs)
        self._next(
            f"throw {self.thrown + 1}: {counted(len(pairs), 'die', 'dice')} taught"
            + (f", {left} not (cocked with no value given, or not read)" if left else "")
        )

    def _next(self, message: str) -> None:
        self.thrown += 1
        self._clear()
        self.message = message
        if self.thrown >= self.throws:
            self.done = True

    def _clear(self) -> None:
        self.dice, self.values, self.seen, self.picked = (), [], [], None

    def tapped(self, pos: tuple[float, float]) -> Press | None:
        """The command a tap at screen position ``pos`` stands for on the screen drawn
        last: a touch button's, or TAP_DIE for a die (on the camera view or in the row)."""
        for rect, command in self._touch:
            if rect.collidepoint(pos):
                return command
        if self._fit is not None and self.dice:
            at = self._fit.to_frame(pos)
            index = die_at(at, self.dice) if at is not None else None
            if index is not None:
                return Press(Control.TAP_DIE, index)
        return None

    @property
    def summary(self) -> str:
        """What the table knows of its dice (the taught examples)."""
        return self.teacher.summary()

    # -- drawing -------------------------------------------------------------------------

    def shown_dice(self) -> tuple[ShownDie, ...]:
        """The throw's dice as the camera view marks them: fixed ones with their value."""
        colours = {d.color for d in self.dice}
        out = []
        for d, v in zip(self.dice, self.values, strict=True):
            fixed = v is not None and (not d.known or v != d.value)
            die = d.confirmed(v) if fixed else d
            unsure = not fixed and (not d.known or d.confidence < self.confirm_below)
            out.append(ShownDie(die, unsure, d.color if len(colours) > 1 else None))
        return tuple(out)

    def draw(self, surface: pygame.Surface, screen: Painter) -> None:
        """Title and throws left; the camera view with the dice; the values and the touch
        buttons; what the table knows; what to press (or the last message)."""
        screen.texts = []
        self._touch = []
        w, h = surface.get_size()
        pad = max(6, h // 40)
        figure = round(h * FIGURE)
        surface.fill(BACKGROUND)
        left = f"throw {min(self.thrown + 1, self.throws)} of {self.throws}"
        count = screen.text(surface, left, figure, (w - pad, pad), color=TEXT, anchor="topright")
        title = screen.text(
            surface,
            "Meet the dice",
            round(h * 0.11),
            (pad, pad),
            color=ACCENT,
            width=count.left - 3 * pad,
        )
        top = max(title.bottom, count.bottom) + pad
        bottom = h - pad
        lines = [
            (self._hint(), 0.045, DIM, False),
            (f"the table knows: {self.summary}", 0.045, DIM, True),
        ]
        if self.message:
            lines.append((self.message, 0.05, WARN, False))
        for text, size, colour, label in lines:  # stacked up from the bottom edge
            bottom = (
                screen.text(
                    surface,
                    text,
                    round(h * size),
                    (pad, bottom),
                    color=colour,
                    anchor="bottomleft",
                    width=w - 2 * pad,
                    label=label,
                ).top
                - pad // 2
            )
        camera = pygame.Rect(pad, top, round(w * 0.55) - pad, bottom - top)
        self._fit = screen.draw_camera(surface, camera, self.frame, self.shown_dice())
        if self._fit is not None and self.picked is not None:
            box = self._fit.to_screen(self.dice[self.picked].bbox)
            pygame.draw.rect(surface, ACCENT, box.inflate(14, 14), max(3, h // 120))
        panel = pygame.Rect(camera.right + pad, top, w - camera.right - 2 * pad, bottom - top)
        pygame.draw.rect(surface, PANEL, panel, border_radius=max(2, panel.h // 40))
        self._panel(surface, screen, panel, figure, pad)

    def _hint(self) -> str:
        if self.stage is Stage.THROW:
            return "throw all your dice on the mat   SELECT / Esc: done"
        if self.picked is not None:
            return f"die {self.picked + 1}: BANK or tap it again: +1, or type 1-6   ROLL: teach"
        return "ROLL / Enter: teach   SELECT or tap: fix a die   hold SELECT / u: skip"

    def _panel(
        self, surface: pygame.Surface, screen: Painter, panel: pygame.Rect, figure: int, pad: int
    ) -> None:
        h = surface.get_height()
        inner = panel.w - 2 * pad
        heading = "ALL RIGHT?" if self.stage is Stage.CHECK else "THROW ALL YOUR DICE"
        y = screen.text(
            surface,
            heading,
            round(h * 0.1),
            (panel.x + pad, panel.y + pad),
            background=PANEL,
            width=inner,
        ).bottom
        button_h = round(h * 0.14)
        buttons = pygame.Rect(panel.x + pad, panel.bottom - pad - button_h, inner, button_h)
        if self.stage is Stage.CHECK:
            self._chips(surface, screen, panel, y + pad, figure, pad)
            touch = [
                ("TEACH", Press(Control.ROLL), ACCENT),
                ("SKIP", Press(Control.UNDO), TEXT),
                ("DONE", Press(Control.QUIT), DIM),
            ]
        else:
            screen.text(
                surface,
                "then check what the table read",
                round(h * 0.05),
                (panel.x + pad, y + pad),
                color=DIM,
                background=PANEL,
                width=inner,
                label=True,
            )
            touch = [("DONE", Press(Control.QUIT), DIM)]
        gap = pad
        each = (buttons.w - gap * (len(touch) - 1)) // len(touch)
        for i, (word, command, colour) in enumerate(touch):
            rect = pygame.Rect(buttons.x + i * (each + gap), buttons.y, each, buttons.h)
            pygame.draw.rect(surface, colour, rect, border_radius=rect.h // 6)
            screen.text(
                surface,
                word,
                figure,
                rect.center,
                color=BACKGROUND,
                background=colour,
                anchor="center",
                width=rect.w - pad,
            )
            self._touch.append((rect, command))

    def _chips(
        self,
        surface: pygame.Surface,
        screen: Painter,
        panel: pygame.Rect,
        top: int,
        figure: int,
        pad: int,
    ) -> None:
        """The throw's values in a row, numbered as the dice: the picked one highlighted,
        a fixed one in yellow, one to confirm with a ``?``; each is a touch target."""
        n = len(self.dice)
        inner = panel.w - 2 * pad
        side = min(round(surface.get_height() * 0.13), (inner - (n - 1) * pad // 2) // max(1, n))
        for k, (d, v) in enumerate(zip(self.dice, self.values, strict=True)):
            rect = pygame.Rect(panel.x + pad + k * (side + pad // 2), top, side, side)
            picked = k == self.picked
            fixed = v is not None and (not d.known or v != d.value)
            unsure = not fixed and (not d.known or d.confidence < self.confirm_below)
            background = ACCENT if picked else BACKGROUND
            colour = BACKGROUND if picked else ACCENT if fixed else UNSURE if unsure else TEXT
            pygame.draw.rect(surface, background, rect, border_radius=side // 6)
            pygame.draw.rect(
                surface,
                UNSURE if unsure else DIM,
                rect,
                max(2, side // 20),
                border_radius=side // 6,
            )
            label = "?" if v is None else f"{v}?" if unsure else str(v)
            screen.text(
                surface,
                label,
                figure,
                rect.center,
                color=colour,
                background=background,
                anchor="center",
                width=side - 4,
            )
            self._touch.append((rect, Press(Control.TAP_DIE, k)))
