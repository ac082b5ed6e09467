"""Drawing a :class:`~zonkcam.display.view.ScreenView` onto a pygame Surface of any size.

The layout is in proportions of the surface and every font is sized from its height, so
the same code is readable from two metres on an 800x480 Pi screen and fills 1920x1080.
High contrast: white and yellow on near-black, big digits for the totals.
"""

from __future__ import annotations

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

RGB = tuple[int, int, int]
BACKGROUND: RGB = (12, 12, 16)
PANEL: RGB = (32, 32, 40)
TEXT: RGB = (255, 255, 255)
DIM: RGB = (150, 150, 160)
ACCENT: RGB = (255, 210, 0)
"""Yellow: the turn total, the selected keep, the current player."""
WARN: RGB = (255, 140, 0)
SURE: RGB = (0, 230, 60)
"""Outline of a die read with confidence."""
UNSURE: RGB = (255, 0, 255)
"""Outline of a die the players should confirm."""
DIE_COLOURS: dict[str, RGB] = {
    "white": (245, 245, 245), "red": (220, 30, 30), "green": (30, 180, 60),
    "blue": (40, 90, 230), "black": (20, 20, 20), "yellow": (250, 220, 0),
}


@dataclass(frozen=True)
class Layout:
    """Where each part of the game screen goes on a surface of ``size``."""

    size: tuple[int, int]
    header: pygame.Rect
    camera: pygame.Rect
    turn: pygame.Rect
    keeps: pygame.Rect
    board: pygame.Rect
    banner: pygame.Rect
    odds: pygame.Rect
    """The odds panel, over the bottom of the camera view when it is shown."""


def layout_for(size: tuple[int, int]) -> Layout:
    w, h = size
    pad = max(4, h // 80)
    header_h = round(h * 0.13)
    left_w = round(w * 0.52)
    camera_h = round(h * 0.55)
    body_top = header_h + pad
    right_x = left_w + pad
    right_w = w - right_x - pad
    keeps_h = round((h - body_top) * 0.42)
    return Layout(
        size=(w, h),
        header=pygame.Rect(0, 0, w, header_h),
        camera=pygame.Rect(pad, body_top, left_w - pad, camera_h),
        turn=pygame.Rect(pad, body_top + camera_h + pad, left_w - pad,
                         h - body_top - camera_h - 2 * pad),
        keeps=pygame.Rect(right_x, body_top, right_w, keeps_h),
        board=pygame.Rect(right_x, body_top + keeps_h + pad, right_w,
                          h - body_top - keeps_h - 2 * pad),
        banner=pygame.Rect(0, round(h * 0.30), w, round(h * 0.40)),
        odds=pygame.Rect(pad, body_top + camera_h - round(h * 0.17), left_w - pad,
                         round(h * 0.17)),
    )


@dataclass(frozen=True)
class DrawnText:
    """A piece of text the screen drew, and how (so tests can check the pixels)."""

    text: str
    rect: pygame.Rect
    size: int
    color: RGB
    background: RGB


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
        return pygame.Rect(left, top, max(1, round((x1 - x0) * self.scale)),
                           max(1, round((y1 - y0) * self.scale)))

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


class Screen:
    """Draws game screens; keeps what it drew last (texts, camera fit) for taps and tests."""

    def __init__(self) -> None:
        self.fonts = Fonts()
        self.texts: list[DrawnText] = []
        self.camera_fit: CameraFit | None = None
        self.layout: Layout | None = None

    # -- the whole screen ----------------------------------------------------------------

    def draw(self, surface: pygame.Surface, view: ScreenView) -> Layout:
        lay = layout_for(surface.get_size())
        self.layout, self.texts, self.camera_fit = lay, [], None
        surface.fill(BACKGROUND)
        self._header(surface, lay.header, view)
        self._camera(surface, lay.camera, view)
        self._turn(surface, lay.turn, view)
        self._keeps(surface, lay.keeps, view)
        self._board(surface, lay.board, view)
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
        self.text(surface, caption, round(h * 0.06), (w // 2, h - bar // 2), anchor="center",
                  width=w - 20)

    def tapped_die(self, pos: tuple[float, float], view: ScreenView) -> int | None:
        """Which die a tap at screen position ``pos`` hit on the last drawn camera view."""
        if self.camera_fit is None:
            return None
        at = self.camera_fit.to_frame(pos)
        return die_at(at, [d.die for d in view.dice]) if at is not None else None

    # -- drawing helpers -----------------------------------------------------------------

    def text(self, surface: pygame.Surface, text: str, size: int, pos: tuple[int, int], *,
             color: RGB = TEXT, background: RGB = BACKGROUND, anchor: str = "topleft",
             width: int | None = None) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` point at ``pos``, shrunk to fit ``width``."""
        if width is not None:
            size = self.fonts.fit(text, size, width)
        image = self.fonts.render(text, size, color, background)
        rect = image.get_rect(**{anchor: pos})
        surface.blit(image, rect)
        self.texts.append(DrawnText(text, rect, max(8, int(size)), color, background))
        return rect

    def _panel(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, PANEL, rect, border_radius=max(2, rect.h // 40))

    # -- parts ---------------------------------------------------------------------------

    def _header(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        h = surface.get_height()
        pad = max(4, h // 60)
        if view.finished:
            title = "GAME OVER"
        elif view.player:
            title = f"{view.player}'s turn"
        else:
            title = "zonkcam"
        right = [view.rules_name] + (["MUTED"] if view.muted else [])
        small = round(h * 0.045)
        y = pad
        for word in right:
            r = self.text(surface, word, small, (rect.right - pad, y), color=DIM,
                          anchor="topright")
            y = r.bottom
        self.text(surface, title, round(h * 0.11), (pad, rect.centery), color=ACCENT,
                  anchor="midleft", width=round(rect.w * 0.68))
        if view.final_round:
            self.text(surface, " FINAL ROUND ", small, (rect.right - pad, rect.bottom - pad),
                      color=BACKGROUND, background=TEXT, anchor="bottomright")

    def _camera(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        h = surface.get_height()
        frame = view.frame
        if frame is None or getattr(frame, "ndim", 0) != 3 or frame.shape[2] < 3:
            self._panel(surface, rect)
            self.text(surface, "no camera", round(h * 0.05), rect.center, color=DIM,
                      background=PANEL, anchor="center")
            return
        fh, fw = frame.shape[:2]
        scale = min(rect.w / fw, rect.h / fh)
        size = (max(1, round(fw * scale)), max(1, round(fh * scale)))
        bgr = np.ascontiguousarray(frame[:, :, :3], dtype=np.uint8)  # no copy for a camera frame
        image = pygame.transform.scale(pygame.image.frombuffer(bgr, (fw, fh), "BGR"), size)
        placed = image.get_rect(center=rect.center)
        surface.blit(image, placed)
        self.camera_fit = CameraFit(placed, scale)
        for die in view.dice:
            self._die(surface, die, self.camera_fit)

    def _die(self, surface: pygame.Surface, shown: ShownDie, fit: CameraFit) -> None:
        h = surface.get_height()
        box = fit.to_screen(shown.die.bbox)
        outline = UNSURE if shown.unsure else SURE
        pygame.draw.rect(surface, outline, box.inflate(6, 6), max(2, h // (90 if shown.unsure
                                                                           else 160)))
        label = f"{shown.die.value}?" if shown.unsure else str(shown.die.value)
        size = round(h * 0.06)
        anchor_y = box.top - 3 if box.top - size > fit.rect.top else box.bottom + 3
        r = self.text(surface, label, size, (box.centerx, anchor_y),
                      color=UNSURE if shown.unsure else TEXT,
                      anchor="midbottom" if anchor_y < box.top else "midtop")
        colour = DIE_COLOURS.get(shown.die.color or "")
        if colour is not None:
            swatch = pygame.Rect(r.right + 2, r.top + r.h // 4, r.h // 2, r.h // 2)
            pygame.draw.rect(surface, colour, swatch)
            pygame.draw.rect(surface, TEXT, swatch, 1)

    def _turn(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        h = surface.get_height()
        pad = max(4, h // 80)
        self._panel(surface, rect)
        label = self.text(surface, "TURN", round(h * 0.045), (rect.x + pad, rect.y + pad),
                          color=DIM, background=PANEL)
        self.text(surface, f"{view.turn_total:,}", round(h * 0.20),
                  (label.right + pad * 2, rect.y + pad), color=ACCENT, background=PANEL,
                  width=round(rect.w * 0.5))
        right = rect.right - pad
        if view.dice_to_roll and not view.finished:
            n = view.dice_after_keep
            r = self.text(surface, f"{n} {'DIE' if n == 1 else 'DICE'}", round(h * 0.08),
                          (right, rect.y + pad), background=PANEL, anchor="topright")
            keep = view.selected_keep
            if keep is not None:
                self.text(surface, f"keep +{keep.points}", round(h * 0.06),
                          (right, r.bottom + pad // 2), color=ACCENT, background=PANEL,
                          anchor="topright")
        prompt_size = round(h * 0.05)
        bottom = rect.bottom - pad
        if view.message:
            r = self.text(surface, view.message, prompt_size, (rect.x + pad, bottom),
                          color=WARN, background=PANEL, anchor="bottomleft", width=rect.w - pad * 2)
            bottom = r.top
        self.text(surface, view.prompt, prompt_size, (rect.x + pad, bottom), background=PANEL,
                  anchor="bottomleft", width=rect.w - pad * 2)

    def _keeps(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        h = surface.get_height()
        pad = max(4, h // 80)
        self._panel(surface, rect)
        if not view.keeps:
            if view.set_aside:
                title = self.text(surface, "SET ASIDE", round(h * 0.045),
                                  (rect.x + pad, rect.y + pad), color=DIM, background=PANEL)
                self.text(surface, " ".join(map(str, view.set_aside)), round(h * 0.12),
                          (rect.x + pad, title.bottom + pad), background=PANEL,
                          width=rect.w - 2 * pad)
            return
        title = self.text(surface, "KEEPS", round(h * 0.045), (rect.x + pad, rect.y + pad),
                          color=DIM, background=PANEL)
        row_h = round(h * 0.075)
        top = title.bottom + pad // 2
        fits = max(1, (rect.bottom - top) // row_h)
        chosen = next((i for i, k in enumerate(view.keeps) if k.selected), 0)
        first = min(max(0, chosen - fits + 1), max(0, len(view.keeps) - fits))
        for n, keep in enumerate(view.keeps[first:first + fits]):
            row = pygame.Rect(rect.x + pad, top + n * row_h, rect.w - 2 * pad, row_h - 2)
            self._keep_row(surface, row, keep)

    def _keep_row(self, surface: pygame.Surface, row: pygame.Rect, keep: KeepRow) -> None:
        bg = ACCENT if keep.selected else PANEL
        fg = BACKGROUND if keep.selected else TEXT
        if keep.selected:
            pygame.draw.rect(surface, bg, row, border_radius=max(2, row.h // 6))
        if keep.best:  # the advisor's choice, while the odds panel is shown
            pygame.draw.rect(surface, SURE, row, max(2, row.h // 12),
                             border_radius=max(2, row.h // 6))
        size = round(row.h * 0.85)
        points = self.text(surface, f"{keep.points:,}", size, (row.right - 4, row.centery),
                           color=fg, background=bg, anchor="midright")
        self.text(surface, keep.label, size, (row.x + 4, row.centery), color=fg, background=bg,
                  anchor="midleft", width=points.left - row.x - 12)

    def _odds(self, surface: pygame.Surface, rect: pygame.Rect, odds: OddsView) -> None:
        """Zonk chance, bank against rolling on, and the advice, in two lines."""
        h = surface.get_height()
        pad = max(4, h // 80)
        pygame.draw.rect(surface, PANEL, rect)
        pygame.draw.rect(surface, SURE, rect, max(2, h // 160))
        size = round(rect.h * 0.36)
        width = rect.w - 2 * pad
        if not odds.ready:
            self.text(surface, "ODDS: working them out...", size, (rect.x + pad, rect.centery),
                      color=DIM, background=PANEL, anchor="midleft", width=width)
            return
        first = f"ZONK {odds.zonk}   BANK {odds.bank}   ROLL {odds.roll}"
        if odds.win:
            first += f"   WIN {odds.win}"
        self.text(surface, first, size, (rect.x + pad, rect.y + pad), background=PANEL,
                  width=width)
        label = "BEST:" if odds.objective != "last turn" else "LAST TURN, BEST:"
        self.text(surface, f"{label} {odds.best.upper()}", size,
                  (rect.x + pad, rect.bottom - pad), color=SURE, background=PANEL,
                  anchor="bottomleft", width=width)

    def _board(self, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
        h = surface.get_height()
        pad = max(4, h // 80)
        self._panel(surface, rect)
        if not view.board:
            return
        row_h = min(round(h * 0.14), (rect.h - 2 * pad) // len(view.board))
        for n, player in enumerate(view.board):
            row = pygame.Rect(rect.x + pad, rect.y + pad + n * row_h, rect.w - 2 * pad, row_h)
            self._player_row(surface, row, player, two_lines=row_h >= h * 0.1)

    def _player_row(self, surface: pygame.Surface, row: pygame.Rect, p: PlayerRow,
                    two_lines: bool) -> None:
        """Name and score; the badges (B's, zonks, drinks, ...) under them where there is
        room, else squeezed between them."""
        bg = PANEL
        bar = max(3, row.h // 10)
        if p.current or p.winner:
            pygame.draw.rect(surface, ACCENT, (row.x, row.y + 2, bar, row.h - 4))
        line = pygame.Rect(row.x, row.y, row.w, round(row.h * 0.62) if two_lines else row.h)
        size = round(line.h * 0.95)
        score_colour = DIM if p.on_board is False or p.left else (ACCENT if p.winner else TEXT)
        score = self.text(surface, f"{p.score:,}", size, (line.right, line.centery),
                          color=score_colour, background=bg, anchor="midright")
        name_x = row.x + bar + 6
        name_end = score.left - 8
        if p.bees is not None:  # B's win the game where the table has them: show them big
            bees = self.text(surface, f"{p.bees} B", round(size * 0.85),
                             (name_end - 8, line.centery), color=ACCENT, background=bg,
                             anchor="midright")
            name_end = bees.left - 8
        badges = player_badges(p)
        badge_colour = WARN if (p.spaced or p.drinks) else DIM
        if badges and two_lines:
            self.text(surface, badges, round((row.h - line.h) * 0.9),
                      (name_x, line.bottom), color=badge_colour, background=bg,
                      width=row.right - name_x)
        elif badges:
            badge = self.text(surface, badges, round(size * 0.6), (name_end, line.centery),
                              color=badge_colour, background=bg, anchor="midright",
                              width=round(row.w * 0.4))
            name_end = badge.left - 8
        self.text(surface, p.name, round(size * 0.85), (name_x, line.centery),
                  color=DIM if p.left else (ACCENT if p.current or p.winner else TEXT),
                  background=bg, anchor="midleft", width=max(10, name_end - name_x))

    def draw_banner(self, surface: pygame.Surface, banner: ShownBanner,
                    rect: pygame.Rect | None = None) -> pygame.Rect:
        """The banner as a band across the screen, in its own colours."""
        w, h = surface.get_size()
        rect = rect or layout_for((w, h)).banner
        pygame.draw.rect(surface, banner.background, rect)
        edge = max(3, h // 100)
        pygame.draw.rect(surface, banner.foreground, rect.inflate(-2 * edge, -2 * edge), edge)
        title_size = round(rect.h * (0.55 if banner.subtitle else 0.7))
        if banner.subtitle:
            self.text(surface, banner.title, title_size, (rect.centerx, rect.centery + edge),
                      color=banner.foreground, background=banner.background,
                      anchor="midbottom", width=rect.w - 8 * edge)
            self.text(surface, banner.subtitle, round(rect.h * 0.22),
                      (rect.centerx, rect.centery + 2 * edge), color=banner.foreground,
                      background=banner.background, anchor="midtop", width=rect.w - 8 * edge)
        else:
            self.text(surface, banner.title, title_size, rect.center, color=banner.foreground,
                      background=banner.background, anchor="center", width=rect.w - 8 * edge)
        return rect


def player_badges(p: PlayerRow) -> str:
    """The small marks beside a player's name: zonks, drinks, hand-outs, rules, ..."""
    marks = []
    marks.append(f"zonks {p.zonks}")
    if p.drinks:
        marks.append(f"drinks {p.drinks}")
    if p.handouts:
        marks.append(f"hand out {p.handouts}")
    if p.rules:
        marks.append(f"rules {p.rules}")
    if p.on_board is False:
        marks.append("not on board")
    if p.spaced:
        marks.append("SPACED")
    if p.left:
        marks.append("left")
    if p.winner:
        marks.append("WINNER")
    return " ".join(marks)
