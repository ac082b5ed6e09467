"""The game's charts on the screen after a game (SELECT on the game-over screen): the score
race, each player's final score, zonks and hot dice (drinks taken and handed out on the drinking
table), and the faces the dice showed with their fairness verdict; the same figures as
the night's report page (``zonkcam games report``), drawn for two metres away.

::

    +---------------------------------------------------------+
    | GAME 12  classic-10000               WINNER: Ann          |
    +-----------------------------------+---------------------+
    | score race (a line per player,    | Ann          10,150 |
    | the target dashed)                | zonks 2  hot dice 1 |
    |                                   | Bob           8,200 |
    |                                   | zonks 4  hot dice 0 |
    |                                   +---------------------+
    |                                   | faces 1-6 (bars)    |
    |                                   | too few throws ...  |
    +-----------------------------------+---------------------+
    | SELECT: scoreboard  ROLL: new game  BANK: new players   |
    +---------------------------------------------------------+
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from zonkcam.display.draw import ACCENT, BACKGROUND, DIM, FIGURE, PANEL, TEXT
from zonkcam.display.painter import Painter
from zonkcam.game.names import counted
from zonkcam.review.dice import Pool
from zonkcam.review.night import GameReview

LINE_COLOURS = (
    ACCENT,
    (0, 200, 255),
    (0, 230, 60),
    (255, 90, 200),
    (255, 140, 0),
    (235, 235, 235),
    (150, 110, 255),
    (255, 60, 60),
)
"""One colour per player, in seating order (more players reuse them)."""
CHARTS_PROMPT = "SELECT: scoreboard   ROLL: new game   BANK: new players"


def colour_of(index: int) -> tuple[int, int, int]:
    return LINE_COLOURS[index % len(LINE_COLOURS)]


def draw_charts(
    painter: Painter,
    surface: pygame.Surface,
    review: GameReview,
    pools: Sequence[Pool],
    target: int = 0,
) -> None:
    """The game's charts over the whole screen; ``target``: the score the race runs to
    (drawn dashed; 0 for none)."""
    painter.texts = []
    painter.layout = painter.camera_fit = None
    w, h = surface.get_size()
    surface.fill(BACKGROUND)
    pad = max(4, h // 60)
    small = max(12, round(h * 0.05))
    figure = round(h * 0.07)
    header = pygame.Rect(0, 0, w, round(h * 0.12))
    footer = pygame.Rect(0, h - round(h * 0.11), w, round(h * 0.11))
    body = pygame.Rect(pad, header.bottom, w - 2 * pad, footer.top - header.bottom - pad)
    left = pygame.Rect(body.x, body.y, round(body.w * 0.58), body.h)
    right = pygame.Rect(left.right + pad, body.y, body.right - left.right - pad, body.h)

    title = f"GAME {review.game_id}  {review.rules_name}"
    painter.text(surface, title, figure, (pad, header.centery), anchor="midleft", label=True)
    if review.winners:
        won = f"WINNER: {' & '.join(review.winners)}"
        painter.text(
            surface,
            won,
            figure,
            (w - pad, header.centery),
            color=ACCENT,
            anchor="midright",
            width=w // 2 - pad,
        )
    _race(painter, surface, left, review, target, small)
    rows = _player_rows(review)
    table = pygame.Rect(right.x, right.y, right.w, round(right.h * 0.5))
    _rows(painter, surface, table, review, rows, small)
    faces = pygame.Rect(right.x, table.bottom + pad, right.w, right.bottom - table.bottom - pad)
    _faces(painter, surface, faces, pools, small)
    painter.text(
        surface,
        CHARTS_PROMPT,
        round(h * 0.0875),
        (pad, footer.centery),
        anchor="midleft",
        width=w - 2 * pad,
    )


def _player_rows(review: GameReview) -> list[str]:
    """Each player's line of counts, in seating order."""
    out = []
    for name in review.players:
        if review.drinking:
            out.append(
                f"zonks {review.zonks.get(name, 0)}  owed {review.drinks_owed.get(name, 0)}"
                f"  handed {review.handouts.get(name, 0)}"
            )
        else:
            hot = review.hot_dice.get(name, 0)
            out.append(f"zonks {review.zonks.get(name, 0)}  hot dice {hot}")
    return out


def _race(
    painter: Painter,
    surface: pygame.Surface,
    rect: pygame.Rect,
    review: GameReview,
    target: int,
    small: int,
) -> None:
    """A line per player: the score after each turn of the game."""
    painter.panel(surface, rect)
    painter.text(
        surface,
        "SCORE RACE",
        small,
        (rect.x + 8, rect.y + 6),
        color=DIM,
        background=PANEL,
        label=True,
    )
    if not review.race:
        _nothing(painter, surface, rect, "no turn finished", small)
        return
    plot = rect.inflate(-24, -small * 2 - 12).move(0, small // 2)
    top = max([target] + [s for _, scores in review.race for s in scores.values()] + [1])
    last = max(turn for turn, _ in review.race)

    def at(turn: int, score: int) -> tuple[int, int]:
        x = plot.x + round(plot.w * turn / max(1, last))
        y = plot.bottom - round(plot.h * max(0, score) / top)
        return x, y

    pygame.draw.line(surface, DIM, plot.bottomleft, plot.bottomright, 1)
    if 0 < target:
        y = at(0, target)[1]
        for x in range(plot.x, plot.right, 12):
            pygame.draw.line(surface, DIM, (x, y), (min(x + 6, plot.right), y), 1)
        painter.text(
            surface,
            f"{target:,}",
            small,
            (plot.x, y + 3),
            color=DIM,
            background=PANEL,
            anchor="topleft",
            label=True,
        )
    width = max(2, rect.h // 90)
    for i, name in enumerate(review.players):
        points = [at(0, 0)] + [at(turn, scores.get(name, 0)) for turn, scores in review.race]
        pygame.draw.lines(surface, colour_of(i), False, points, width)
        end = points[-1]
        painter.text(
            surface,
            name,
            small,
            (min(end[0], plot.right) - 4, end[1] - 4),
            color=colour_of(i),
            background=PANEL,
            anchor="bottomright",
            label=True,
        )


def final_scores(review: GameReview) -> dict[str, int]:
    """Each player's score at the end of the game (after its last turn; 0 before any)."""
    last = review.race[-1][1] if review.race else {}
    return {name: last.get(name, 0) for name in review.players}


def _rows(
    painter: Painter,
    surface: pygame.Surface,
    rect: pygame.Rect,
    review: GameReview,
    rows: list[str],
    small: int,
) -> None:
    """A row per player: the name in the player's colour and the final score in big
    figures, the counts under them (beside them where the rows are too many for two
    lines each)."""
    painter.panel(surface, rect)
    if not rows:
        return
    scores = final_scores(review)
    step = (rect.h - 8) / len(rows)
    # two lines a player where the name and score in figures and the counts under them
    # fit; else one: the counts between the name and the score
    big = round(surface.get_height() * FIGURE)
    while (
        big > small and painter.fonts(big).get_height() + painter.fonts(small).get_height() > step
    ):
        big -= 1
    two_lines = painter.fonts(big).get_height() + painter.fonts(small).get_height() <= step
    if not two_lines:
        big = max(10, round(step / 1.3))
    name_w = rect.w // 4
    score_w = max(painter.fonts.width(f"{v:,}", big) for v in scores.values())
    beside = rect.w - name_w - score_w - 24
    counts = min(
        painter.fonts.fit(line, small, rect.w - 16 if two_lines else beside) for line in rows
    )
    for i, (name, line) in enumerate(zip(review.players, rows, strict=True)):
        y = rect.y + 4 + round(i * step)
        head = painter.text(
            surface,
            name,
            big,
            (rect.x + 8, y),
            color=colour_of(i),
            background=PANEL,
            width=rect.w // 2 - 12 if two_lines else name_w - 12,
        )
        score = painter.text(
            surface,
            f"{scores[name]:,}",
            big,
            (rect.right - 8, y),
            color=ACCENT if name in review.winners else TEXT,
            background=PANEL,
            anchor="topright",
            width=rect.w // 2 - 8,
        )
        if two_lines:
            painter.text(
                surface,
                line,
                counts,
                (rect.x + 8, max(head.bottom, score.bottom) + 2),
                color=DIM,
                background=PANEL,
            )
        else:
            painter.text(
                surface,
                line,
                counts,
                (rect.x + name_w, head.centery),
                color=DIM,
                background=PANEL,
                anchor="midleft",
            )


def _faces(
    painter: Painter,
    surface: pygame.Surface,
    rect: pygame.Rect,
    pools: Sequence[Pool],
    small: int,
) -> None:
    """The biggest pool's faces as six bars, and its verdict."""
    painter.panel(surface, rect)
    if not pools:
        _nothing(painter, surface, rect, "no dice thrown", small)
        return
    pool = pools[0]
    counts = pool.verdict.counts
    label = f"{pool.name}: {counted(pool.verdict.throws, 'throw')}" + (
        f" (+{len(pools) - 1} more pools)" if len(pools) > 1 else ""
    )
    painter.text(
        surface,
        label,
        small,
        (rect.x + 8, rect.y + 4),
        color=DIM,
        background=PANEL,
        width=rect.w - 16,
        label=True,
    )
    lines = wrap(painter, pool.verdict.text, small, rect.w - 16, most=3)
    size = painter.fonts.fit(max(lines, key=len), small, rect.w - 16)
    y = rect.bottom - 4
    for line in reversed(lines):
        y = painter.text(
            surface,
            line,
            size,
            (rect.x + 8, y),
            background=PANEL,
            anchor="bottomleft",
            width=rect.w - 16,
        ).top
    bars = pygame.Rect(rect.x + 8, rect.y + small + 8, rect.w - 16, 0)
    bars.h = max(4, y - bars.y - small - 6)
    most = max(max(counts), 1)
    slot = bars.w / len(counts)
    for face, n in enumerate(counts, start=1):
        x = bars.x + round((face - 1) * slot)
        bar_h = round(bars.h * n / most)
        pygame.draw.rect(
            surface, ACCENT, (x + 2, bars.bottom - bar_h, max(1, round(slot) - 4), bar_h)
        )
        painter.text(
            surface,
            str(face),
            small,
            (x + round(slot / 2), bars.bottom + 2),
            background=PANEL,
            anchor="midtop",
            label=True,
        )


def _nothing(
    painter: Painter, surface: pygame.Surface, rect: pygame.Rect, text: str, small: int
) -> None:
    """A panel's words for having nothing to chart."""
    painter.text(surface, text, small, rect.center, color=DIM, background=PANEL, anchor="center")


def wrap(painter: Painter, text: str, size: int, width: int, most: int) -> list[str]:
    """``text`` in lines of words that fit ``width`` px at ``size``, at most ``most`` of
    them (the last takes the rest, and is shrunk to fit when drawn)."""
    lines: list[str] = []
    for word in text.split():
        longer = f"{lines[-1]} {word}" if lines else word
        if lines and len(lines) <= most and painter.fonts.width(longer, size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        elif len(lines) < most:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}"
    return lines or [""]
