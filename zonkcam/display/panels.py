"""The panels of the game screen, each drawn into its rectangle of the
:class:`~zonkcam.display.layout.Layout` with a :class:`~zonkcam.display.draw.Pen`: the
header, the camera view, the roll's row of dice, the turn total, the keeps (or the next
step), the odds, the scoreboard, the drinks-due band, the footer, the banners and a roll's
photo.
:class:`~zonkcam.display.painter.Painter` puts them together into one screen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pygame

from zonkcam.display.draw import (
    ACCENT,
    BACKGROUND,
    DIE_BODY,
    DIE_LETTERS,
    DIE_SWATCHES,
    DIM,
    DRINK,
    LIGHT,
    PANEL,
    RGB,
    SET_ASIDE,
    SURE,
    TEXT,
    UNSURE,
    WARN,
    Pen,
    figure_size,
    ink_on,
)
from zonkcam.display.layout import layout_for
from zonkcam.display.taps import CameraFit
from zonkcam.display.view import KeepRow, OddsView, PlayerRow, ScreenView, ShownBanner, ShownDie
from zonkcam.game.state import Phase

NAME = 0.05
"""The table's name in the header, as a share of the screen's height (a label: 17 px
lines at 480)."""
TITLE = 0.045
"""A panel's title (TURN TOTAL, KEEPS, SET ASIDE), as a share of the screen's height."""


def _title(pen: Pen, surface: pygame.Surface, text: str, pos: tuple[int, int]) -> pygame.Rect:
    """A panel's title, dim on the panel, with its top left at ``pos``."""
    size = round(surface.get_height() * TITLE)
    return pen.text(surface, text, size, pos, color=DIM, background=PANEL, label=True)


def header(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
    """Whose turn on the left; the table's name and the game's flags on the right."""
    h = surface.get_height()
    pad = max(4, h // 80)
    figure = figure_size(surface)
    name = pen.text(
        surface,
        view.rules_name,
        round(h * NAME),
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
            0, 0, pen.fonts.width(word, figure) + 2 * pad, pen.fonts(figure).get_height()
        )
        chip.bottomright = (right, rect.bottom - 2)
        pygame.draw.rect(surface, background, chip)
        pen.text(
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
    pen.text(
        surface,
        title,
        round(h * 0.1),
        (pad, rect.centery),
        color=ACCENT,
        anchor="midleft",
        width=space,
    )


def camera(
    pen: Pen,
    surface: pygame.Surface,
    rect: pygame.Rect,
    frame: np.ndarray | None,
    dice: Sequence[ShownDie],
) -> CameraFit | None:
    """The camera frame fitted into ``rect``, each die outlined with its value (a die
    to confirm in magenta with a ``?``; a die of a turn that has passed in grey, without
    its value); "no camera" without a frame. Returns how the frame
    was fitted (None without one): taps go through it."""
    h = surface.get_height()
    if frame is None or getattr(frame, "ndim", 0) != 3 or frame.shape[2] < 3:
        pen.panel(surface, rect)
        pen.text(
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
    fit = CameraFit(placed, scale)
    boxes = [_outline(pen, surface, die, fit) for die in dice]
    _values(pen, surface, dice, boxes, fit.rect)
    return fit


def _outline(pen: Pen, surface: pygame.Surface, shown: ShownDie, fit: CameraFit) -> pygame.Rect:
    """The die's outline: green, magenta for one to confirm, grey for one of a turn that
    has passed; the rect it covers."""
    h = surface.get_height()
    box = fit.to_screen(shown.die.bbox).inflate(6, 6)
    width = max(2, h // (90 if shown.unsure else 160))
    colour = DIM if shown.earlier_turn else UNSURE if shown.unsure else SURE
    pygame.draw.rect(surface, colour, box, width)
    return box


LABEL_FLOOR = 0.5
"""The smallest the values on the camera view shrink to where dice lie close, as a
share of a figure's size (the roll's row shows every value big in any case)."""


def _values(
    pen: Pen,
    surface: pygame.Surface,
    dice: Sequence[ShownDie],
    boxes: Sequence[pygame.Rect],
    frame: pygame.Rect,
) -> None:
    """Each die's value beside it, never over a die nor over another value: at a
    figure's size where it finds room, else as large as it does (down to
    :data:`LABEL_FLOOR` of it, as a label: the roll's row has the figures). A die of a
    turn that has passed gets none."""
    shown = [(d, b) for d, b in zip(dice, boxes, strict=True) if not d.earlier_turn]
    figure = figure_size(surface)
    floor = max(8, round(figure * LABEL_FLOOR))
    sizes = [figure] * len(shown)
    while True:
        spots = _spots(pen, shown, boxes, frame, sizes)
        stuck = [k for k, (_, free) in enumerate(spots) if not free and sizes[k] > floor]
        if not stuck:
            break
        for k in stuck:  # only the values with no room shrink
            sizes[k] = max(floor, round(sizes[k] * 0.9))
    for (die, _), (where, _), size in zip(shown, spots, sizes, strict=True):
        _value(pen, surface, die, where, size, label=size < figure)


def _label(shown: ShownDie) -> str:
    if shown.unknown:
        return "?"
    return f"{shown.die.value}?" if shown.unsure else str(shown.die.value)


def _label_size(pen: Pen, shown: ShownDie, size: int) -> tuple[int, int, int]:
    """The width and height of a die's value at ``size``, and of its colour chip (0: none)."""
    tw, th = pen.fonts.width(_label(shown), size), pen.fonts.line_height(size)  # as drawn
    if DIE_SWATCHES.get(shown.colour or "") is None:
        return tw, th, 0
    chip_w = max(th, pen.fonts.width(DIE_LETTERS.get(shown.colour or "", ""), size) + 4)
    return tw + chip_w + 2, th, chip_w


def _spots(
    pen: Pen,
    shown: Sequence[tuple[ShownDie, pygame.Rect]],
    boxes: Sequence[pygame.Rect],
    frame: pygame.Rect,
    sizes: Sequence[int],
) -> list[tuple[pygame.Rect, bool]]:
    """Where each value goes at its size, one die after the other: above the die, below
    it, beside it, on it, the first of them inside the frame that is free of every die
    and every value placed; and whether it was free."""
    taken = list(boxes)
    out = []
    for (die, box), size in zip(shown, sizes, strict=True):
        w, h, _ = _label_size(pen, die, size)
        places = [pygame.Rect(0, 0, w, h) for _ in range(5)]
        places[0].midbottom = (box.centerx, box.top - 1)
        places[1].midtop = (box.centerx, box.bottom + 1)
        places[2].midleft = (box.right + 1, box.centery)
        places[3].midright = (box.left - 1, box.centery)
        on_die = places[4]
        on_die.center = box.center  # over its own die, but no other die nor value
        inside = [r for r in places if frame.contains(r)] or places[:2]
        free = [
            r
            for r in inside
            if r.collidelist([t for t in taken if t is not box] if r is on_die else taken) < 0
        ]
        where = (free or inside)[0]
        taken.append(where)
        out.append((where, bool(free)))
    return out


def _value(
    pen: Pen,
    surface: pygame.Surface,
    shown: ShownDie,
    where: pygame.Rect,
    size: int,
    *,
    label: bool,
) -> pygame.Rect:
    """The die's value in figures read across the table at ``where``, with its colour's
    mark on a table that plays with colours: a chip of the colour, as tall as the value,
    with its letter."""
    _, _, chip_w = _label_size(pen, shown, size)
    r = pen.text(
        surface,
        _label(shown),
        size,
        where.topleft,
        color=UNSURE if shown.unsure else TEXT,
        label=label,
    )
    colour = DIE_SWATCHES.get(shown.colour or "")
    if colour is not None:
        chip = pygame.Rect(r.right + 2, r.top, chip_w, r.h)
        pygame.draw.rect(surface, colour, chip)
        pen.text(
            surface,
            DIE_LETTERS.get(shown.colour or "", ""),
            size,
            chip.center,
            color=ink_on(colour),
            background=colour,
            anchor="center",
            label=label,
        )
        r = r.union(chip)
    return r


def roll(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
    """The roll on the table as a row of big dice, each in its colour on a table that
    plays with colours, those the highlighted keep takes ringed; after them, grey, the
    dice set aside since all dice were last picked up. Before a throw, an empty place
    for each die to throw."""
    pen.panel(surface, rect)
    if view.finished or view.phase is Phase.SETUP:
        return
    places = len(view.roll) or view.dice_to_roll
    count = places + len(view.set_aside)
    if not count:
        return
    gap = max(4, rect.h // 7)
    side = min(rect.h - 2 * gap, (rect.w - (count + 2) * gap) // count)
    if side < 8:
        return
    x, y = rect.x + gap, rect.centery - side // 2
    kept = view.kept_in_roll
    for i in range(places):
        place = pygame.Rect(x, y, side, side)
        if view.roll:
            die = view.roll[i]
            body = DIE_SWATCHES.get(die.color or "", DIE_BODY)
            pen.die(surface, place, die.value, body, ring=ACCENT if kept[i] else None)
        else:
            pygame.draw.rect(surface, DIM, place, max(2, side // 20), border_radius=side // 6)
        x += side + gap
    x += gap  # the set-aside dice a little apart
    for value in view.set_aside:
        pen.die(surface, pygame.Rect(x, y, side, side), value, SET_ASIDE)
        x += side + gap


def turn(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
    """The turn total in big digits, the dice to throw next and the selected keep."""
    h = surface.get_height()
    pad = max(4, h // 80)
    figure = figure_size(surface)
    pen.panel(surface, rect)
    label = _title(pen, surface, "TURN TOTAL", (rect.x + pad, rect.y + pad))
    lines: list[tuple[str, RGB]] = []
    if view.dice_to_roll and not view.finished:
        n = view.dice_after_keep
        lines.append((f"{n} {'DIE' if n == 1 else 'DICE'}", TEXT))
        keep = view.selected_keep
        if keep is not None:
            lines.append((f"keep +{keep.points:,}", ACCENT))
    line = pen.fonts.line_height(figure)
    space = rect.bottom - pad - label.bottom
    if len(lines) == 2 and 3 * line > space:
        lines = lines[1:]  # a low panel (many players, drinks due): the keep's points first
    size = round(h * 0.2)
    while size > figure and pen.fonts.line_height(size) > space - len(lines) * line:
        size -= 2
    total = pen.text(
        surface,
        f"{view.turn_total:,}",
        size,
        (rect.centerx, label.bottom),
        color=ACCENT,
        background=PANEL,
        anchor="midtop",
        width=rect.w - 2 * pad,
    )
    y = max(total.bottom, rect.y + round(rect.h * 0.55))
    y = max(total.bottom, min(y, rect.bottom - pad - len(lines) * line))
    for text, colour in lines:
        y = pen.text(
            surface,
            text,
            figure,
            (rect.centerx, y),
            color=colour,
            background=PANEL,
            anchor="midtop",
            width=rect.w - 2 * pad,
        ).bottom


def keeps(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
    """The legal keeps of the roll on the table (one selected), or the next step."""
    h = surface.get_height()
    pad = max(4, h // 80)
    pen.panel(surface, rect)
    if not view.keeps:
        _next_step(pen, surface, rect, view)
        return
    unsure = [f"{view.dice[i].die.value}?" for i in view.unsure_dice]
    if unsure:  # read with low confidence: the players check them (tap to fix)
        title = pen.text(
            surface,
            "CHECK " + " ".join(unsure),
            figure_size(surface),
            (rect.x + pad, rect.y + pad),
            color=UNSURE,
            background=PANEL,
            width=rect.w - 2 * pad,
        )
    else:
        title = _title(pen, surface, "KEEPS", (rect.x + pad, rect.y + pad))
    row_h = max(round(h * 0.07), pen.fonts(figure_size(surface)).get_height() + 4)
    top = title.bottom + pad // 2
    fits = max(1, (rect.bottom - top) // row_h)
    chosen = next((i for i, k in enumerate(view.keeps) if k.selected), 0)
    best = next((i for i, k in enumerate(view.keeps) if k.best), chosen)
    if abs(best - chosen) >= fits:  # no room for both: the highlighted one
        best = chosen
    first = max(0, max(chosen, best) - fits + 1)  # the highlighted and the advised in sight
    advised = any(k.best for k in view.keeps)  # the odds panel is shown
    for n, keep in enumerate(view.keeps[first : first + fits]):
        row = pygame.Rect(rect.x + pad, top + n * row_h, rect.w - 2 * pad, row_h - 2)
        _keep_row(pen, surface, row, keep, figure_size(surface), advised)


def _keep_row(
    pen: Pen, surface: pygame.Surface, row: pygame.Rect, keep: KeepRow, size: int, advised: bool
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
    points = pen.text(
        surface,
        f"{keep.points:,}",
        size,
        (row.right - 6, row.centery),
        color=fg,
        background=bg,
        anchor="midright",
    )
    pen.text(
        surface,
        keep.label,
        size,
        (row.x + 6, row.centery),
        color=fg,
        background=bg,
        anchor="midleft",
        width=points.left - row.x - 16,
    )


def _next_step(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
    """While no roll is on the table: ROLL 3 DICE in big letters, what else the player
    may do (bank, piggyback) or needs, and the dice set aside so far."""
    h = surface.get_height()
    pad = max(4, h // 80)
    figure = figure_size(surface)
    width = rect.w - 2 * pad
    y = rect.y + pad
    for i, line in enumerate(view.next_step):
        r = pen.text(
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
        label = _title(pen, surface, "SET ASIDE", (rect.x + pad, y + pad))
        pen.text(
            surface,
            " ".join(map(str, view.set_aside)),
            figure,
            (label.right + pad, label.centery),
            background=PANEL,
            anchor="midleft",
            width=rect.right - label.right - 2 * pad,
        )


def odds(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, odds: OddsView) -> None:
    """Zonk chance, bank against rolling on, the chance to win and the advice, over the
    camera view."""
    h = surface.get_height()
    pad = max(4, h // 80)
    figure = figure_size(surface)
    pygame.draw.rect(surface, PANEL, rect)
    pygame.draw.rect(surface, SURE, rect, max(2, h // 160))
    width = rect.w - 2 * pad
    y = rect.y + pad
    if not odds.ready:
        for line in ("ODDS:", "working them out"):
            y = pen.text(
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
    y = pen.text(
        surface,
        odds.title.upper(),
        figure,
        (rect.x + pad, y),
        color=ACCENT,
        background=PANEL,
        width=width,
    ).bottom
    for line in odds.lines:
        y = pen.text(surface, line, small, (rect.x + pad, y), background=PANEL, width=width).bottom
    advised = odds.advised if odds.objective != "last turn" else f"last turn, {odds.advised}"
    pen.text(
        surface,
        advised,
        small,
        (rect.x + pad, y + pad),
        color=SURE,
        background=PANEL,
        width=width,
    )


def board(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
    h = surface.get_height()
    pad = max(4, h // 80)
    pen.panel(surface, rect)
    if not view.board:
        return
    row_h = min(round(h * 0.075), (rect.h - 2 * pad) // len(view.board))
    size = pen.fonts.fit("0", round(h * 0.1), 10_000)
    while size > 8 and pen.fonts.line_height(size) > row_h:  # as drawn: rows never overlap
        size -= 1
    name_w = max(pen.fonts.width(p.name, size) for p in view.board)
    name_w = min(name_w, round(rect.w * 0.3))
    for n, player in enumerate(view.board):
        row = pygame.Rect(rect.x + pad, rect.y + pad + n * row_h, rect.w - 2 * pad, row_h)
        _player_row(pen, surface, row, player, size, name_w)


def _player_row(
    pen: Pen, surface: pygame.Surface, row: pygame.Rect, p: PlayerRow, size: int, name_w: int
) -> None:
    """One line: name, what the player needs to know (badges), B's and the score."""
    bg = PANEL
    bar = max(3, row.h // 8)
    if p.current or p.winner:
        pygame.draw.rect(surface, ACCENT, (row.x, row.y + 2, bar, row.h - 4))
    score_colour = DIM if p.on_board is False or p.left else (ACCENT if p.winner else TEXT)
    score = pen.text(
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
            pen.text(
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
    pen.text(
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
    dot = pen.fonts.width(" · ", size)
    for i, badge in enumerate(p.badges):
        colour = ACCENT if badge == "WINNER" else WARN if badge == "SPACED" else LIGHT
        if x + (dot if i else 0) + pen.fonts.width(badge, size) > end:
            break  # no room: the rest is in the terminal's board and the log
        if i:
            x = pen.text(
                surface,
                " · ",
                size,
                (x, row.centery),
                color=DIM,
                background=bg,
                anchor="midleft",
                label=True,
            ).right
        x = pen.text(
            surface,
            badge,
            size,
            (x, row.centery),
            color=colour,
            background=bg,
            anchor="midleft",
        ).right


def drinks(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
    """Who owes what ROLL held settles next (drinks due, then drinks to hand out, then
    drinking rules to make), across the screen in the table's colour."""
    h = surface.get_height()
    pad = max(4, h // 80)
    figure = figure_size(surface)
    pygame.draw.rect(surface, DRINK, rect)
    owed = view.owed
    hint = f"hold ROLL: {view.hold_roll}"
    hint_w = pen.fonts.width(hint, figure)
    room = rect.w - 2 * pad
    if pen.fonts.width(owed, figure) + hint_w + 4 * pad <= room:
        pen.text(
            surface,
            hint,
            figure,
            (rect.right - pad, rect.centery),
            color=TEXT,
            background=DRINK,
            anchor="midright",
        )
        room -= hint_w + 4 * pad
    pen.text(
        surface,
        owed,
        figure,
        (rect.x + pad, rect.centery),
        color=TEXT,
        background=DRINK,
        anchor="midleft",
        width=room,
    )


def footer(pen: Pen, surface: pygame.Surface, rect: pygame.Rect, view: ScreenView) -> None:
    """What to press next, or why the last press was refused."""
    h = surface.get_height()
    pad = max(4, h // 80)
    text, colour = (view.message, WARN) if view.message else (view.prompt, TEXT)
    pen.text(
        surface,
        text,
        figure_size(surface),
        (rect.x + pad, rect.centery),
        color=colour,
        anchor="midleft",
        width=rect.w - 2 * pad,
    )


def banner(
    pen: Pen, surface: pygame.Surface, banner: ShownBanner, rect: pygame.Rect | None = None
) -> pygame.Rect:
    """The banner as a band across the screen, in its own colours."""
    w, h = surface.get_size()
    rect = rect or layout_for((w, h)).banner
    pygame.draw.rect(surface, banner.background, rect)
    edge = max(3, h // 100)
    pygame.draw.rect(surface, banner.foreground, rect.inflate(-2 * edge, -2 * edge), edge)
    if banner.subtitle:
        sub = max(round(rect.h * 0.2), figure_size(surface))
        title_size = min(round(rect.h * 0.5), rect.h - 2 * sub)
        pen.text(
            surface,
            banner.title,
            title_size,
            (rect.centerx, rect.centery + edge),
            color=banner.foreground,
            background=banner.background,
            anchor="midbottom",
            width=rect.w - 8 * edge,
        )
        pen.text(
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
        pen.text(
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


def photo(pen: Pen, surface: pygame.Surface, photo: np.ndarray, caption: str) -> None:
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
    pen.text(
        surface, caption, round(h * 0.06), (w // 2, h - bar // 2), anchor="center", width=w - 20
    )
