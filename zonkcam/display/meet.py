""" "Meet the dice" on the screen: the table learns its own dice at set-up.

Face by face (:class:`MeetFaces`, ``zonkcam play --meet-dice``): the screen asks for
every die showing 1 on the mat, then 2, ... then 6, and shows the dice as the table read
them once they settle:

* ROLL (Enter, the TAKE button) takes the scene: each die is taught the step's face
  (:class:`~zonkcam.table.teaching.FaceByFace`), and a die that plainly shows another face
  is pointed out, not taught;
* REDO (SELECT held, ``u``, the REDO button) goes back to the last face taken: what it
  taught is forgotten and its scene is taken again;
* QUIT (Esc, the DONE button) or SELECT ends the meeting; what was taught stays.

By throws (:class:`MeetTheDice`, ``--meet-dice throws``): the scorekeeper throws all the
dice; once they settle the screen shows them as read, on the camera view (a die read
with low confidence with a ``?``) and as a row of values. A misread die is fixed as in
the game, or with the buttons alone:

* tap the die (on the camera view or in the row) and type its value, or tap it again to
  count its value up;
* SELECT picks the next die, BANK counts the picked die's value up (6, then 1);
* ROLL (Enter, the TEACH button) confirms the throw: only a confirmed throw teaches
  (:meth:`~zonkcam.table.teaching.Teacher.teach`, each crop in its eight turns);
* UNDO (SELECT held, ``u``, the SKIP button) skips the throw: nothing taught;
* QUIT (Esc, the DONE button), or SELECT while no throw is on screen, skips the rest.

The step ends after its throws (or its six faces). It reads no camera itself: the app
hands it each :class:`~zonkcam.table.observe.TableReport` (``observe``), tells it of each
frame (``tick``), gives it the frame to show and its commands (``handle``), as for the
other set-up screens (:mod:`zonkcam.display.setup`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import numpy as np
import pygame

from zonkcam.controls import Control, Press
from zonkcam.display.draw import ACCENT, BACKGROUND, DIM, FIGURE, PANEL, RGB, TEXT, UNSURE, WARN
from zonkcam.display.painter import Painter
from zonkcam.display.taps import CameraFit
from zonkcam.display.view import CONFIRM_BELOW, ShownDie, die_at
from zonkcam.game.names import counted
from zonkcam.table.observe import TableEvent
from zonkcam.table.teaching import THROWS, FaceByFace, FaceLesson, plainly_other
from zonkcam.vision.examples import VALUES

if TYPE_CHECKING:
    from zonkcam.table.observe import TableReport
    from zonkcam.table.teaching import Teacher
    from zonkcam.table.zones import TableDie
    from zonkcam.vision.die import Sight


class Stage(StrEnum):
    THROW = "throw"
    """Waiting for a settled throw of all the dice."""
    CHECK = "check"
    """A throw on screen for the scorekeeper to check, fix and confirm."""


Button = tuple[str, Press, tuple[int, int, int]]
"""A touch button: its word, the command it stands for, its colour."""


class _MeetScreen:
    """What both ways of meeting the dice draw: the title and how far along; the camera
    view with the dice; a panel with its touch buttons; the hint, what the table knows and
    the last message, stacked up from the bottom edge."""

    wants_text = False
    cancelled = False
    """Esc ends this step, not the set-up."""

    def __init__(self, teacher: Teacher, confirm_below: float) -> None:
        self.teacher = teacher
        self.confirm_below = confirm_below
        self.frame: np.ndarray | None = None
        """The camera frame to show."""
        self.message = ""
        self._fit: CameraFit | None = None
        self._touch: list[tuple[pygame.Rect, Press]] = []
        """Where the screen's touch buttons and value chips were drawn last."""

    @property
    def summary(self) -> str:
        """What the table knows of its dice (the taught examples)."""
        return self.teacher.summary()

    def tick(self) -> None:
        """One camera frame went by (after its reports)."""

    def tapped(self, pos: tuple[float, float]) -> Press | None:
        """The command a tap at screen position ``pos`` stands for on the screen drawn
        last: a touch button's, or TAP_DIE for a die (on the camera view or in the row)."""
        for rect, command in self._touch:
            if rect.collidepoint(pos):
                return command
        dice = self._shown()
        if self._fit is not None and dice:
            at = self._fit.to_frame(pos)
            index = die_at(at, dice) if at is not None else None
            if index is not None:
                return Press(Control.TAP_DIE, index)
        return None

    # -- what each way of meeting shows --------------------------------------------------

    def _shown(self) -> tuple[TableDie, ...]:
        """The dice marked on the camera view."""
        raise NotImplementedError

    def shown_dice(self) -> tuple[ShownDie, ...]:
        raise NotImplementedError

    def _count(self) -> str:
        """How far along (top right)."""
        raise NotImplementedError

    def _hint(self) -> str:
        raise NotImplementedError

    def _heading(self) -> str:
        raise NotImplementedError

    def _buttons(self) -> list[Button]:
        raise NotImplementedError

    def _body(
        self, surface: pygame.Surface, screen: Painter, panel: pygame.Rect, top: int, pad: int
    ) -> None:
        """The panel between its heading and its touch buttons."""

    def _picked(self) -> TableDie | None:
        """The die picked for fixing, outlined on the camera view."""
        return None

    # -- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, screen: Painter) -> None:
        """Title and how far along; the camera view with the dice; the panel and its touch
        buttons; what the table knows; what to press (or the last message)."""
        screen.texts = []
        self._touch = []
        w, h = surface.get_size()
        pad = max(6, h // 40)
        figure = round(h * FIGURE)
        surface.fill(BACKGROUND)
        count = screen.text(
            surface, self._count(), figure, (w - pad, pad), color=TEXT, anchor="topright"
        )
        title = screen.text(
            surface,
            "Meet the dice",
            round(h * 0.11),
            (pad, pad),
            color=ACCENT,
            width=count.left - 3 * pad,
        )
        top = max(title.bottom, count.bottom) + pad
        foot = [
            (self._hint(), round(h * 0.045), DIM, False),
            (f"the table knows: {self.summary}", round(h * 0.045), DIM, True),
        ]
        if self.message:
            foot.append((self.message, round(h * 0.05), WARN, False))
        bottom = screen.stack_up(surface, foot, h - pad, x=pad, width=w - 2 * pad, gap=pad // 2)
        camera = pygame.Rect(pad, top, round(w * 0.55) - pad, bottom - top)
        self._fit = screen.draw_camera(surface, camera, self.frame, self.shown_dice())
        picked = self._picked()
        if self._fit is not None and picked is not None:
            box = self._fit.to_screen(picked.bbox)
            pygame.draw.rect(surface, ACCENT, box.inflate(14, 14), max(3, h // 120))
        panel = pygame.Rect(camera.right + pad, top, w - camera.right - 2 * pad, bottom - top)
        pygame.draw.rect(surface, PANEL, panel, border_radius=max(2, panel.h // 40))
        inner = panel.w - 2 * pad
        y = screen.text(
            surface,
            self._heading(),
            round(h * 0.1),
            (panel.x + pad, panel.y + pad),
            background=PANEL,
            width=inner,
        ).bottom
        self._body(surface, screen, panel, y + pad, pad)
        button_h = round(h * 0.14)
        buttons = pygame.Rect(panel.x + pad, panel.bottom - pad - button_h, inner, button_h)
        touch = self._buttons()
        each = (buttons.w - pad * (len(touch) - 1)) // len(touch)
        for i, (word, command, colour) in enumerate(touch):
            rect = pygame.Rect(buttons.x + i * (each + pad), buttons.y, each, buttons.h)
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
        pad: int,
        chips: list[tuple[str, tuple[int, int, int], tuple[int, int, int], bool]],
    ) -> int:
        """A row of value chips (label, its colour, its outline, picked), numbered as the
        dice; each is a touch target. Returns the row's bottom."""
        n = len(chips)
        h = surface.get_height()
        inner = panel.w - 2 * pad
        side = min(round(h * 0.13), (inner - (n - 1) * pad // 2) // max(1, n))
        for k, (label, colour, outline, picked) in enumerate(chips):
            rect = pygame.Rect(panel.x + pad + k * (side + pad // 2), top, side, side)
            background = ACCENT if picked else BACKGROUND
            pygame.draw.rect(surface, background, rect, border_radius=side // 6)
            pygame.draw.rect(surface, outline, rect, max(2, side // 20), border_radius=side // 6)
            screen.text(
                surface,
                label,
                round(h * FIGURE),
                rect.center,
                color=BACKGROUND if picked else colour,
                background=background,
                anchor="center",
                width=side - 4,
            )
            self._touch.append((rect, Press(Control.TAP_DIE, k)))
        return top + side


class MeetFaces(_MeetScreen):
    """Meeting the dice face by face: a set-up step, driven like the others (``done``)."""

    def __init__(self, teacher: Teacher, confirm_below: float = CONFIRM_BELOW) -> None:
        super().__init__(teacher, confirm_below)
        self.meeting = FaceByFace(teacher)
        self.lesson: FaceLesson | None = None
        """What the last face taken taught (and pointed out)."""

    @property
    def done(self) -> bool:
        return self.meeting.done

    @property
    def taught(self) -> int:
        """Dice taught so far."""
        return self.meeting.taught

    @property
    def value(self) -> int:
        """The face asked for now."""
        return self.meeting.value

    @property
    def waiting(self) -> bool:
        """Whether it waits for the table to settle on the step's dice."""
        return not self.meeting.ready

    # -- what the table saw -------------------------------------------------------------

    def observe(self, report: TableReport) -> None:
        self.meeting.observe(report)

    def tick(self) -> None:
        self.meeting.tick()

    # -- what the scorekeeper does ------------------------------------------------------

    def handle(self, command: Press) -> None:
        kind = command.kind
        if kind in (Control.QUIT, Control.SELECT):
            self.meeting.ended = True
        elif kind is Control.ROLL:
            got = self.meeting.take()
            if isinstance(got, FaceLesson):
                self.lesson, self.message = got, str(got)
            else:
                self.message = got
        elif kind is Control.UNDO:
            self.message = self.meeting.redo()
            self.lesson = self.meeting.lessons[-1] if self.meeting.lessons else None
        elif kind in (Control.BANK, Control.DIGIT, Control.TAP_DIE):
            self.message = "ROLL takes the dice on the mat, hold SELECT redoes the last face"

    # -- drawing -------------------------------------------------------------------------

    def _shown(self) -> tuple[TableDie, ...]:
        m = self.meeting
        return m.scene if m.fresh and not m.moving and not m.done else ()

    def shown_dice(self) -> tuple[ShownDie, ...]:
        """The scene to take: a die that plainly shows another face with a ``?``."""
        dice = self._shown()
        colours = {d.color for d in dice}
        return tuple(
            ShownDie(
                d,
                plainly_other(d, self.value) is not None or d.confidence < self.confirm_below,
                d.color if len(colours) > 1 else None,
            )
            for d in dice
        )

    def _count(self) -> str:
        return f"face {min(self.value, VALUES)} of {VALUES}"

    def _hint(self) -> str:
        if self.done:
            return "every face is met"
        return f"Put every die showing {self.value} on the mat, then ROLL"

    def _heading(self) -> str:
        return f"ALL {self.value}s" if not self.done else "MET"

    def _status(self) -> str:
        """Why no dice are shown to take, in a few words."""
        m = self.meeting
        if m.done:
            return "every face is met"
        if m.blocked:
            return "something is in the way"
        if m.moving:
            return "the dice are moving"
        return f"waiting for the {self.value}s"

    def _buttons(self) -> list[Button]:
        return [
            ("TAKE", Press(Control.ROLL), ACCENT),
            ("REDO", Press(Control.UNDO), TEXT),
            ("DONE", Press(Control.QUIT), DIM),
        ]

    def _body(
        self, surface: pygame.Surface, screen: Painter, panel: pygame.Rect, top: int, pad: int
    ) -> None:
        """The scene's dice as read, from the left (one that plainly shows another face
        in orange), then what the last face taken left untaught."""
        h = surface.get_height()
        inner = panel.w - 2 * pad

        def note(text: str, share: float, colour: RGB, at: int) -> int:
            """A line of the panel with its top at ``at``; where it ends."""
            size = round(h * share)
            where = (panel.x + pad, at)
            return screen.text(
                surface, text, size, where, color=colour, background=PANEL, width=inner, label=True
            ).bottom

        dice = self._shown()
        y = top
        if dice:
            y = self._chips(
                surface,
                screen,
                panel,
                top,
                pad,
                [
                    (
                        str(d.value) if d.known else "?",
                        WARN if plainly_other(d, self.value) else TEXT,
                        WARN if plainly_other(d, self.value) else DIM,
                        False,
                    )
                    for d in dice
                ],
            )
        else:
            y = note(self._status(), 0.06, DIM, y)
        lessons = self.meeting.lessons
        redo = f"hold SELECT: redo face {lessons[-1].value}   " if lessons else ""
        y = note(f"{redo}SELECT / Esc: done", 0.04, DIM, y + pad // 2)
        if self.lesson is not None and self.lesson.pointed_out:
            y += pad // 2
            for line in (f"face {self.lesson.value}, not taught:", *self.lesson.pointed_out):
                y = note(line, 0.04, WARN, y)


class MeetTheDice(_MeetScreen):
    """Meeting the dice by throws: a set-up step, driven like the others (``done``)."""

    def __init__(
        self, teacher: Teacher, throws: int = THROWS, confirm_below: float = CONFIRM_BELOW
    ) -> None:
        super().__init__(teacher, confirm_below)
        self.throws = throws
        self.thrown = 0
        """Throws checked so far (confirmed or skipped)."""
        self.taught = 0
        """Dice taught so far."""
        self.dice: tuple[TableDie, ...] = ()
        """The throw on screen (empty while waiting for one)."""
        self.values: list[int | None] = []
        """Each die's value as it stands: as read, or as fixed (None: cocked, unfixed)."""
        self.seen: list[Sight | None] = []
        """What the reader saw of each die when the throw settled (what is taught)."""
        self.picked: int | None = None
        """The die being fixed."""
        self.done = False

    @property
    def stage(self) -> Stage:
        return Stage.CHECK if self.dice else Stage.THROW

    @property
    def waiting(self) -> bool:
        """Whether it waits for a throw."""
        return self.stage is Stage.THROW

    # -- what the table saw -------------------------------------------------------------

    def observe(self, report: TableReport) -> None:
        """A table report: a settled throw is shown for checking; dice thrown again
        before it was confirmed drop it (it teaches nothing)."""
        if self.done:
            return
        if report.event in (TableEvent.ROLLING, TableEvent.SPINNING) and self.dice:
            self._clear()
            self.message = "thrown again: that throw taught nothing"
        if report.event is not TableEvent.SETTLED or report.change is None or not report.rolled:
            return
        self.dice = tuple(report.rolled)
        self.values = [d.value if d.known else None for d in self.dice]
        self.seen = [d.sight for d in self.dice]
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

    # -- drawing -------------------------------------------------------------------------

    def _shown(self) -> tuple[TableDie, ...]:
        return self.dice

    def _picked(self) -> TableDie | None:
        return self.dice[self.picked] if self.picked is not None else None

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

    def _count(self) -> str:
        return f"throw {min(self.thrown + 1, self.throws)} of {self.throws}"

    def _hint(self) -> str:
        if self.stage is Stage.THROW:
            return "throw all your dice on the mat   SELECT / Esc: done"
        if self.picked is not None:
            return f"die {self.picked + 1}: BANK or tap it again: +1, or type 1-6   ROLL: teach"
        return "ROLL / Enter: teach   SELECT or tap: fix a die   hold SELECT / u: skip"

    def _heading(self) -> str:
        return "ALL RIGHT?" if self.stage is Stage.CHECK else "THROW ALL YOUR DICE"

    def _buttons(self) -> list[Button]:
        if self.stage is Stage.CHECK:
            return [
                ("TEACH", Press(Control.ROLL), ACCENT),
                ("SKIP", Press(Control.UNDO), TEXT),
                ("DONE", Press(Control.QUIT), DIM),
            ]
        return [("DONE", Press(Control.QUIT), DIM)]

    def _body(
        self, surface: pygame.Surface, screen: Painter, panel: pygame.Rect, top: int, pad: int
    ) -> None:
        """The throw's values in a row, numbered as the dice: the picked one highlighted,
        a fixed one in yellow, one to confirm with a ``?``; or, before a throw, what then."""
        if self.stage is Stage.CHECK:
            chips = []
            for k, (d, v) in enumerate(zip(self.dice, self.values, strict=True)):
                fixed = v is not None and (not d.known or v != d.value)
                unsure = not fixed and (not d.known or d.confidence < self.confirm_below)
                label = "?" if v is None else f"{v}?" if unsure else str(v)
                colour = ACCENT if fixed else UNSURE if unsure else TEXT
                chips.append((label, colour, UNSURE if unsure else DIM, k == self.picked))
            self._chips(surface, screen, panel, top, pad, chips)
            return
        screen.text(
            surface,
            "then check what the table read",
            round(surface.get_height() * 0.05),
            (panel.x + pad, top),
            color=DIM,
            background=PANEL,
            width=panel.w - 2 * pad,
            label=True,
        )
