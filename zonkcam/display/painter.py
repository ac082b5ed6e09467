"""The painter: draws a :class:`~zonkcam.display.view.ScreenView` onto a Surface of any size.

The layout is in proportions of the surface and every font is sized from its height, so
the same code fills 1920x1080 and reads from two metres on an 800x480 Pi screen: every
figure a player acts on is drawn at least :data:`FIGURE` of the height (28 px lines at
480). High contrast: white and yellow on near-black, big digits for the totals.

::

    +---------------------------------------------------------+
    | Ann's turn                       rules  [FINAL ROUND]    |  header
    +-----------------+-----------+---------------------------+
    | camera view     | TURN      | keeps, or the next step   |  middle (banners
    | (or the odds)   | 1,050     | (ROLL 3 DICE, or BANK...) |  cover this band)
    +-----------------+-----------+---------------------------+
    | > Ann      not on board                           1,000 |  scoreboard
    +---------------------------------------------------------+
    | DRINKS DUE: Noodle 2, Captain 1      hold ROLL: drunk    |  drinking table
    +---------------------------------------------------------+
    | SELECT a keep, ROLL on or BANK   (or why a press failed) |  footer
    +---------------------------------------------------------+
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pygame

from zonkcam.display.view import (
    KeepRow,
    OddsView,
    PlayerRow,
    ScreenView,
    ShownBanner,
    ShownDie,
    die_at,
)
from zonkcam.game.dice import DIE_COLOURS

RGB = tuple[int, int, int]
BACKGROUND: RGB = (12, 12, 16)
PANEL: RGB = (32, 32, 40)
TEXT: RGB = (255, 255, 255)
DIM: RGB = (150, 150, 160)
LIGHT: RGB = (215, 215, 225)
ACCENT: RGB = (255, 210, 0)
"""Yellow: the turn total, the selected keep, the current player."""
WARN: RGB = (255, 140, 0)
SURE: RGB = (0, 230, 60)
"""Outline of a die read with confidence."""
UNSURE: RGB = (255, 0, 255)
"""Outline of a die the players should confirm."""
DRINK: RGB = (200, 0, 110)
"""The drinks-due band."""
DIE_SWATCHES: dict[str, RGB] = {c.name: c.rgb for c in DIE_COLOURS if c.letter}
"""The chip beside a die's value on a table that plays with colours."""
DIE_LETTERS: dict[str, str] = {c.name: c.letter.upper() for c in DIE_COLOURS if c.letter}
"""The letter on that chip: W, R, G... (the command line's "2r" is a red 2)."""

FIGURE = 0.0875
"""The smallest font for anything a player acts on, as a share of the screen's height:
42 at 480 px, whose lines are 28 px tall."""
BOARD_SLOTS = 3
"""Scoreboard rows the layout keeps room for (more players make it taller)."""


@dataclass(frozen=True)
class Layout:
    """Where each part of the game screen goes on a surface of ``size``."""

    size: tuple[int, int]
    header: pygame.Rect
    camera: pygame.Rect
    turn: pygame.Rect
    keeps: pygame.Rect
    """The keeps of the roll on the table, or the next step."""
    board: pygame.Rect
    banner: pygame.Rect
    """Over the middle band: never over the header or the scoreboard."""
    odds: pygame.Rect
    """The odds panel, over the camera view when it is shown."""
    drinks: pygame.Rect | None
    """The drinks-due band (None when nobody owes a drink)."""
    footer: pygame.Rect


def layout_for(
    size: tuple[int, int], *, players: int = BOARD_SLOTS, drinks: bool = False
) -> Layout:
    w, h = size
    pad = max(4, h // 80)
    header = pygame.Rect(0, 0, w, round(h * 0.11))
    footer_h = round(h * 0.09)
    footer = pygame.Rect(0, h - footer_h, w, footer_h)
    bottom = footer.top - pad
    band = None
    if drinks:
        band = pygame.Rect(0, bottom - footer_h, w, footer_h)
        bottom = band.top - pad
    row_h = round(h * 0.075)
    board_h = min(max(BOARD_SLOTS, players) * row_h, round(h * 0.5)) + 2 * pad
    board = pygame.Rect(pad, bottom - board_h, w - 2 * pad, board_h)
    top = header.bottom + pad
    middle_h = board.top - pad - top
    camera_w, turn_w = round(w * 0.38), round(w * 0.22)
    camera = pygame.Rect(pad, top, camera_w - pad, middle_h)
    turn = pygame.Rect(camera.right + pad, top, turn_w - pad, middle_h)
    keeps = pygame.Rect(turn.right + pad, top, w - turn.right - 2 * pad, middle_h)
    return Layout(
        size=(w, h),
        header=header,
        camera=camera,
        turn=turn,
        keeps=keeps,
        board=board,
        banner=pygame.Rect(0, top - pad, w, middle_h + 2 * pad),
        odds=camera.copy(),
        drinks=band,
        footer=footer,
    )


@dataclass(frozen=True)
class DrawnText:
    """A piece of text the screen drew, and how (so tests can check the pixels)."""

    text: str
    rect: pygame.Rect
    size: int
    color: RGB
    background: RGB
    label: bool = False
    """A label (a panel's title, the table's name), not a figure anyone acts on."""


@dataclass(frozen=True)
class CameraFit:
    """How the camera frame was scaled into its box: maps screen taps to frame pixels."""

    rect: pygame.Rect
    """Where the frame was drawn on the screen."""
    scale: float

    def to_screen(self, bbox: tuple[float, float, float, float]) -> pygame.Rect:
        """A box in frame pixels (x0, y0, x1, y1) as a screen rectangle."""
        x0, y0, x1, y1 = bbox
        left, top = self.rect.x + round(x0 * self.scale), self.rect.y + round(y0 * self.scale)
        return pygame.Rect(
            left, top, max(1, round((x1 - x0) * self.scale)), max(1, round((y1 - y0) * self.scale))
        )

    def to_frame(self, pos: tuple[float, float]) -> tuple[float, float] | None:
        if not self.rect.collidepoint(pos):
            return None
        return ((pos[0] - self.rect.x) / self.scale, (pos[1] - self.rect.y) / self.scale)


class Fonts:
    """pygame's built-in font at any pixel height, cached (no font files needed)."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._cache: dict[int, pygame.font.Font] = {}

    def __call__(self, size: int) -> pygame.font.Font:
        size = max(8, int(size))
        if size not in self._cache:
            self._cache[size] = pygame.font.Font(None, size)
        return self._cache[size]

    def render(self, text: str, size: int, color: RGB, background: RGB) -> pygame.Surface:
        """The text as the screen draws it (on a solid background, so pixels are exact)."""
        return self(size).render(text, True, color, background)

    def fit(self, text: str, size: int, width: int) -> int:
        """The largest size up to ``size`` at which ``text`` fits ``width`` pixels."""
        size = max(8, int(size))
        while size > 8 and self(size).size(text)[0] > width:
            size = max(8, int(size * 0.9))
        return size


class Painter:
    """Draws game screens (the drawing under GameScreen); keeps what it drew last (texts,
    camera fit) for taps and tests."""

    def __init__(self) -> None:
        self.fonts = Fonts()
        self.texts: list[DrawnText] = []
        self.camera_fit: CameraFit | None = None
        self.layout: Layout | None = None

    # -- the whole screen ----------------------------------------------------------------

    def draw(self, surface: pygame.Surface, view: ScreenView) -> Layout:
        lay = layout_for(surface.get_size(), players=len(view.board), drinks=bool(view.owed))
        self.layout, self.texts, self.camera_fit = lay, [], None
        surface.fill(BACKGROUND)
        self._header(surface, lay.header, view)
        self._camera(surface, lay.camera, view)
        self._turn(surface, lay.turn, view)
        self._keeps(surface, lay.keeps, view)
        self._board(surface, lay.board, view)
        if lay.drinks is not None:
            self._drinks(surface, lay.drinks, view)
        self._footer(surface, lay.footer, view)
        if view.odds is not None:
            self._odds(surface, lay.odds, view.odds)
        if view.banner is not None:
            self.draw_banner(surface, view.banner, lay.banner)
        return lay

    def draw_photo(self, surface: pygame.Surface, photo: np.ndarray, caption: str) -> None:
        """A roll's photo (BGR) over the whole screen, its caption along the bottom."""
        w, h = surface.get_size()
        surface.fill(BACKGROUND)
        bar = round(h * 0.1)
        fh, fw = photo.shape[:2]
        scale = min(w / fw, (h - bar) / fh)
        size = (max(1, round(fw * scale)), max(1, round(fh * scale)))
        bgr = np.ascontiguousarray(photo[:, :, :3], dtype=np.uint8)
        image = pygame.transform.smoothscale(pygame.image.frombuffer(bgr, (fw, fh), "BGR"), size)
        surface.blit(image, image.get_rect(midtop=(w // 2, 0)))
        self.text(
            surface, caption, round(h * 0.06), (w // 2, h - bar // 2), anchor="center", width=w - 20
        )

    def tapped_die(self, pos: tuple[float, float], view: ScreenView) -> int | None:
        """Which die a tap at screen position ``pos`` hit on the last drawn camera view."""
        if self.camera_fit is None:
            return None
        at = self.camera_fit.to_frame(pos)
        return die_at(at, [d.die for d in view.dice]) if at is not None else None

    # -- drawing helpers -----------------------------------------------------------------

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        size: int,
        pos: tuple[int, int],
        *,
        color: RGB = TEXT,
        background: RGB = BACKGROUND,
        anchor: str = "topleft",
        width: int | None = None,
        label: bool = False,
    ) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` point at ``pos``, shrunk to fit ``width``;
        ``label``: a title or name tag, not a figure anyone acts on."""
        if width is not None:
            size = self.fonts.fit(text, size, width)
        image = self.fonts.render(text, size, color, background)
        rect = image.get_rect(**{anchor: pos})
        surface.blit(image, rect)
        self.texts.append(DrawnText(text, rect, max(8, int(size)), color, background, label))
        return rect

    def panel(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, PANEL, rect, border_radius=max(2, rect.h // 40))

    @staticmethod
    def _figure(surface: pygame.Surface) -> int:
        return round(surface.get_height() * FIGURE)

    # -- parts ---------------------------------------------------------------------------

    def _header(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        """Whose turn on the left; the table's name and the game's flags on the right."""
        h = surface.get_height()
        pad = max(4, h // 80)
        figure = self._figure(surface)
        name = self.text(
            surface,
            view.rules_name,
            round(h * 0.035),
            (rect.right - pad, 2),
            color=DIM,
            anchor="topright",
            width=rect.w // 3,
            label=True,
        )
        flags = [("FINAL ROUND", BACKGROUND, TEXT)] if view.final_round else []
        if view.turn_of:
            flags.append((view.turn_of, BACKGROUND, ACCENT))
        if view.muted:
            flags.append(("MUTED", TEXT, PANEL))
        right = rect.right - pad
        for word, colour, background in reversed(flags):  # side by side, never on top
            chip = pygame.Rect(
                0, 0, self.fonts(figure).size(word)[0] + 2 * pad, self.fonts(figure).get_height()
            )
            chip.bottomright = (right, rect.bottom - 2)
            pygame.draw.rect(surface, background, chip)
            self.text(
                surface,
                word,
                figure,
                chip.center,
                color=colour,
                background=background,
                anchor="center",
            )
            right = chip.left - pad
        if view.finished:
            title = "GAME OVER"
        elif view.player:
            title = f"{view.player}'s turn"
        else:
            title = "zonkcam"
        space = (right if flags else name.left) - 3 * pad
        self.text(
            surface,
            title,
            round(h * 0.1),
            (pad, rect.centery),
            color=ACCENT,
            anchor="midleft",
            width=space,
        )

    def _camera(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        self.draw_camera(surface, rect, view.frame, view.dice)

    def draw_camera(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        frame: np.ndarray | None,
        dice: Sequence[ShownDie],
    ) -> CameraFit | None:
        """The camera frame fitted into ``rect``, each die outlined with its value (a die
        to confirm in magenta with a ``?``); "no camera" without a frame. The fit is kept
        in :attr:`camera_fit` for taps."""
        h = surface.get_height()
        self.camera_fit = None
        if frame is None or getattr(frame, "ndim", 0) != 3 or frame.shape[2] < 3:
            self.panel(surface, rect)
            self.text(
                surface,
                "no camera",
                round(h * 0.05),
                rect.center,
                color=DIM,
                background=PANEL,
                anchor="center",
                label=True,
            )
            return None
        fh, fw = frame.shape[:2]
        scale = min(rect.w / fw, rect.h / fh)
        size = (max(1, round(fw * scale)), max(1, round(fh * scale)))
        bgr = np.ascontiguousarray(frame[:, :, :3], dtype=np.uint8)  # no copy for a camera frame
        image = pygame.transform.scale(pygame.image.frombuffer(bgr, (fw, fh), "BGR"), size)
        placed = image.get_rect(center=rect.center)
        surface.blit(image, placed)
        self.camera_fit = CameraFit(placed, scale)
        boxes = [self._outline(surface, die, self.camera_fit) for die in dice]
        taken = list(boxes)  # a value never hides a die, nor another die's value
        for die, box in zip(dice, boxes, strict=True):
            taken.append(self._value(surface, die, box, self.camera_fit.rect, taken))
        return self.camera_fit

    def _outline(self, surface: pygame.Surface, shown: ShownDie, fit: CameraFit) -> pygame.Rect:
        """The die's outline: green, or magenta for one to confirm; the rect it covers."""
        h = surface.get_height()
        box = fit.to_screen(shown.die.bbox).inflate(6, 6)
        width = max(2, h // (90 if shown.unsure else 160))
        pygame.draw.rect(surface, UNSURE if shown.unsure else SURE, box, width)
        return box

    def _value(
        self,
        surface: pygame.Surface,
        shown: ShownDie,
        box: pygame.Rect,
        frame: pygame.Rect,
        taken: Sequence[pygame.Rect],
    ) -> pygame.Rect:
        """The die's value in figures read across the table, above the die (below it, or
        beside it, where that is taken), with its colour's mark on a table that plays
        with colours: a chip of the colour, as tall as the value, with its letter."""
        label = (
            "?"
            if shown.unknown
            else f"{shown.die.value}?"
            if shown.unsure
            else str(shown.die.value)
        )
        size = self._figure(surface)
        font = self.fonts(size)
        tw, th = font.size(label)
        colour = DIE_SWATCHES.get(shown.colour or "")
        letter = DIE_LETTERS.get(shown.colour or "", "")
        chip_w = max(th, font.size(letter)[0] + 4) if colour is not None else 0
        whole = pygame.Rect(0, 0, tw + (chip_w + 2 if chip_w else 0), th)
        spots = [
            {"midbottom": (box.centerx, box.top - 1)},
            {"midtop": (box.centerx, box.bottom + 1)},
            {"midleft": (box.right + 1, box.centery)},
            {"midright": (box.left - 1, box.centery)},
        ]
        placed = [whole.copy() for _ in spots]
        for rect, spot in zip(placed, spots, strict=True):
            setattr(rect, *next(iter(spot.items())))
        inside = [r for r in placed if frame.contains(r)] or placed[:2]
        free = [r for r in inside if r.collidelist(list(taken)) < 0]
        where = (free or inside)[0]
        r = self.text(
            surface,
            label,
            size,
            where.topleft,
            color=UNSURE if shown.unsure else TEXT,
        )
        if colour is not None:
            chip = pygame.Rect(r.right + 2, r.top, chip_w, r.h)
            pygame.draw.rect(surface, colour, chip)
            ink = BACKGROUND if sum(colour) > 380 else TEXT
            self.text(
                surface,
                letter,
                size,
                chip.center,
                color=ink,
                background=colour,
                anchor="center",
            )
            r = r.union(chip)
        return r

    def _turn(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        """The turn total in big digits, the dice to throw next and the selected keep."""
        h = surface.get_height()
        pad = max(4, h // 80)
        figure = self._figure(surface)
        self.panel(surface, rect)
        label = self.text(
            surface,
            "TURN TOTAL",
            round(h * 0.045),
            (rect.x + pad, rect.y + pad),
            color=DIM,
            background=PANEL,
            label=True,
        )
        total = self.text(
            surface,
            f"{view.turn_total:,}",
            round(h * 0.2),
            (rect.centerx, label.bottom),
            color=ACCENT,
            background=PANEL,
            anchor="midtop",
            width=rect.w - 2 * pad,
        )
        if not view.dice_to_roll or view.finished:
            return
        n = view.dice_after_keep
        y = max(total.bottom, rect.y + round(rect.h * 0.55))
        dice = self.text(
            surface,
            f"{n} {'DIE' if n == 1 else 'DICE'}",
            figure,
            (rect.centerx, y),
            background=PANEL,
            anchor="midtop",
            width=rect.w - 2 * pad,
        )
        keep = view.selected_keep
        if keep is not None:
            self.text(
                surface,
                f"keep +{keep.points:,}",
                figure,
                (rect.centerx, dice.bottom),
                color=ACCENT,
                background=PANEL,
                anchor="midtop",
                width=rect.w - 2 * pad,
            )

    def _keeps(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        """The legal keeps of the roll on the table (one selected), or the next step."""
        h = surface.get_height()
        pad = max(4, h // 80)
        self.panel(surface, rect)
        if not view.keeps:
            self._next_step(surface, rect, view)
            return
        unsure = [f"{view.dice[i].die.value}?" for i in view.unsure_dice]
        if unsure:  # read with low confidence: the players check them (tap to fix)
            title = self.text(
                surface,
                "CHECK " + " ".join(unsure),
                self._figure(surface),
                (rect.x + pad, rect.y + pad),
                color=UNSURE,
                background=PANEL,
                width=rect.w - 2 * pad,
            )
        else:
            title = self.text(
                surface,
                "KEEPS",
                round(h * 0.045),
                (rect.x + pad, rect.y + pad),
                color=DIM,
                background=PANEL,
                label=True,
            )
        row_h = max(round(h * 0.08), self.fonts(self._figure(surface)).get_height() + 4)
        top = title.bottom + pad // 2
        fits = max(1, (rect.bottom - top) // row_h)
        chosen = next((i for i, k in enumerate(view.keeps) if k.selected), 0)
        first = min(max(0, chosen - fits + 1), max(0, len(view.keeps) - fits))
        advised = any(k.best for k in view.keeps)  # the odds panel is shown
        for n, keep in enumerate(view.keeps[first : first + fits]):
            row = pygame.Rect(rect.x + pad, top + n * row_h, rect.w - 2 * pad, row_h - 2)
            self._keep_row(surface, row, keep, self._figure(surface), advised)

    def _keep_row(
        self, surface: pygame.Surface, row: pygame.Rect, keep: KeepRow, size: int, advised: bool
    ) -> None:
        """One keep: the highlighted one (SELECT moves it) a solid bar; while the odds panel
        is shown the advisor's choice is the solid bar (green) and the highlight only an
        outline, so that from across the table the advice is what stands out."""
        radius = max(2, row.h // 6)
        solid = keep.best if advised else keep.selected
        bg = (SURE if advised else ACCENT) if solid else PANEL
        fg = BACKGROUND if solid else TEXT
        if solid:
            pygame.draw.rect(surface, bg, row, border_radius=radius)
        if advised and keep.selected:
            pygame.draw.rect(surface, ACCENT, row, max(2, row.h // 12), border_radius=radius)
        points = self.text(
            surface,
            f"{keep.points:,}",
            size,
            (row.right - 6, row.centery),
            color=fg,
            background=bg,
            anchor="midright",
        )
        self.text(
            surface,
            keep.label,
            size,
            (row.x + 6, row.centery),
            color=fg,
            background=bg,
            anchor="midleft",
            width=points.left - row.x - 16,
        )

    def _next_step(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        """While no roll is on the table: ROLL 3 DICE in big letters, what else the player
        may do (bank, piggyback) or needs, and the dice set aside so far."""
        h = surface.get_height()
        pad = max(4, h // 80)
        figure = self._figure(surface)
        width = rect.w - 2 * pad
        y = rect.y + pad
        for i, line in enumerate(view.next_step):
            r = self.text(
                surface,
                line,
                round(h * 0.12) if i == 0 else figure,
                (rect.x + pad, y),
                color=TEXT if i == 0 else ACCENT,
                background=PANEL,
                width=width,
            )
            y = r.bottom + (pad if i == 0 else 0)
        if view.set_aside:
            label = self.text(
                surface,
                "SET ASIDE",
                round(h * 0.045),
                (rect.x + pad, y + pad),
                color=DIM,
                background=PANEL,
                label=True,
            )
            self.text(
                surface,
                " ".join(map(str, view.set_aside)),
                figure,
                (label.right + pad, label.centery),
                background=PANEL,
                anchor="midleft",
                width=rect.right - label.right - 2 * pad,
            )

    def _odds(self, surface: pygame.Surface, rect: pygame.Rect, odds: OddsView) -> None:
        """Zonk chance, bank against rolling on, the chance to win and the advice, over the
        camera view."""
        h = surface.get_height()
        pad = max(4, h // 80)
        figure = self._figure(surface)
        pygame.draw.rect(surface, PANEL, rect)
        pygame.draw.rect(surface, SURE, rect, max(2, h // 160))
        width = rect.w - 2 * pad
        y = rect.y + pad
        if not odds.ready:
            for line in ("ODDS:", "working them out"):
                y = self.text(
                    surface,
                    line,
                    figure,
                    (rect.x + pad, y),
                    color=DIM,
                    background=PANEL,
                    width=width,
                ).bottom
            return
        small = round(figure * 0.8)
        y = self.text(
            surface,
            odds.title.upper(),
            figure,
            (rect.x + pad, y),
            color=ACCENT,
            background=PANEL,
            width=width,
        ).bottom
        for line in odds.lines:
            y = self.text(
                surface, line, small, (rect.x + pad, y), background=PANEL, width=width
            ).bottom
        advised = odds.advised if odds.objective != "last turn" else f"last turn, {odds.advised}"
        self.text(
            surface,
            advised,
            small,
            (rect.x + pad, y + pad),
            color=SURE,
            background=PANEL,
            width=width,
        )

    def _board(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        h = surface.get_height()
        pad = max(4, h // 80)
        self.panel(surface, rect)
        if not view.board:
            return
        row_h = min(round(h * 0.075), (rect.h - 2 * pad) // len(view.board))
        size = self.fonts.fit("0", round(h * 0.1), 10_000)
        while size > 8 and self.fonts(size).get_height() > row_h:
            size -= 1
        name_w = max(self.fonts(size).size(p.name)[0] for p in view.board)
        name_w = min(name_w, round(rect.w * 0.3))
        for n, player in enumerate(view.board):
            row = pygame.Rect(rect.x + pad, rect.y + pad + n * row_h, rect.w - 2 * pad, row_h)
            self._player_row(surface, row, player, size, name_w)

    def _player_row(
        self, surface: pygame.Surface, row: pygame.Rect, p: PlayerRow, size: int, name_w: int
    ) -> None:
        """One line: name, what the player needs to know (badges), B's and the score."""
        bg = PANEL
        bar = max(3, row.h // 8)
        if p.current or p.winner:
            pygame.draw.rect(surface, ACCENT, (row.x, row.y + 2, bar, row.h - 4))
        score_colour = DIM if p.on_board is False or p.left else (ACCENT if p.winner else TEXT)
        score = self.text(
            surface,
            f"{p.score:,}",
            size,
            (row.right - 4, row.centery),
            color=score_colour,
            background=bg,
            anchor="midright",
        )
        end = score.left - 12
        if p.bees is not None:  # B's win the game where the table has them: show them big
            end = (
                self.text(
                    surface,
                    f"{p.bees} B",
                    size,
                    (end, row.centery),
                    color=ACCENT,
                    background=bg,
                    anchor="midright",
                ).left
                - 12
            )
        name_x = row.x + bar + 8
        self.text(
            surface,
            p.name,
            size,
            (name_x, row.centery),
            color=DIM if p.left else (ACCENT if p.current or p.winner else TEXT),
            background=bg,
            anchor="midleft",
            width=name_w,
        )
        x = name_x + name_w + 16
        dot = self.fonts(size).size(" · ")[0]
        for i, badge in enumerate(p.badges):
            colour = ACCENT if badge == "WINNER" else WARN if badge == "SPACED" else LIGHT
            if x + (dot if i else 0) + self.fonts(size).size(badge)[0] > end:
                break  # no room: the rest is in the terminal's board and the log
            if i:
                x = self.text(
                    surface,
                    " · ",
                    size,
                    (x, row.centery),
                    color=DIM,
                    background=bg,
                    anchor="midleft",
                    label=True,
                ).right
            x = self.text(
                surface,
                badge,
                size,
                (x, row.centery),
                color=colour,
                background=bg,
                anchor="midleft",
            ).right

    def _drinks(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        """Who owes what ROLL held settles next (drinks due, then drinks to hand out, then
        drinking rules to make), across the screen in the table's colour."""
        h = surface.get_height()
        pad = max(4, h // 80)
        figure = self._figure(surface)
        pygame.draw.rect(surface, DRINK, rect)
        owed = view.owed
        hint = f"hold ROLL: {view.hold_roll}"
        hint_w = self.fonts(figure).size(hint)[0]
        room = rect.w - 2 * pad
        if self.fonts(figure).size(owed)[0] + hint_w + 4 * pad <= room:
            self.text(
                surface,
                hint,
                figure,
                (rect.right - pad, rect.centery),
                color=TEXT,
                background=DRINK,
                anchor="midright",
            )
            room -= hint_w + 4 * pad
        self.text(
            surface,
            owed,
            figure,
            (rect.x + pad, rect.centery),
            color=TEXT,
            background=DRINK,
            anchor="midleft",
            width=room,
        )

    def _footer(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        """What to press next, or why the last press was refused."""
        h = surface.get_height()
        pad = max(4, h // 80)
        text, colour = (view.message, WARN) if view.message else (view.prompt, TEXT)
        self.text(
            surface,
            text,
            self._figure(surface),
            (rect.x + pad, rect.centery),
            color=colour,
            anchor="midleft",
            width=rect.w - 2 * pad,
        )

    def draw_banner(
        self, surface: pygame.Surface, banner: ShownBanner, rect: pygame.Rect | None = None
    ) -> pygame.Rect:
        """The banner as a band across the screen, in its own colours."""
        w, h = surface.get_size()
        rect = rect or layout_for((w, h)).banner
        pygame.draw.rect(surface, banner.background, rect)
        edge = max(3, h // 100)
        pygame.draw.rect(surface, banner.foreground, rect.inflate(-2 * edge, -2 * edge), edge)
        if banner.subtitle:
            sub = max(round(rect.h * 0.2), self._figure(surface))
            title_size = min(round(rect.h * 0.5), rect.h - 2 * sub)
            self.text(
                surface,
                banner.title,
                title_size,
                (rect.centerx, rect.centery + edge),
                color=banner.foreground,
                background=banner.background,
                anchor="midbottom",
                width=rect.w - 8 * edge,
            )
            self.text(
                surface,
                banner.subtitle,
                sub,
                (rect.centerx, rect.centery + 2 * edge),
                color=banner.foreground,
                background=banner.background,
                anchor="midtop",
                width=rect.w - 8 * edge,
            )
        else:
            self.text(
                surface,
                banner.title,
                round(rect.h * 0.6),
                rect.center,
                color=banner.foreground,
                background=banner.background,
                anchor="center",
                width=rect.w - 8 * edge,
            )
        return rect
