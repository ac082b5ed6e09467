"""Where each part of the game screen goes, in proportions of the surface, so the same
layout fills 1920x1080 and an 800x480 Pi screen.

::

    +-------------------------------------------------------------+
    | Ann's turn                           rules  [FINAL ROUND]   |  header
    +-----------------+-------------------------------------------+
    | camera view     | [1] [5] [5] [3] [1]    the roll, as dice  |  middle (banners
    | (or the odds)   +-----------+-------------------------------+  cover this band)
    |                 | TURN      | keeps, or the next step       |
    |                 | 1,050     | (ROLL 3 DICE, or BANK...)     |
    +-----------------+-----------+-------------------------------+
    | > Ann      not on board                               1,000 |  scoreboard
    +-------------------------------------------------------------+
    | DRINKS DUE: Noodle 2, Captain 1          hold ROLL: drunk   |  drinking table
    +-------------------------------------------------------------+
    | SELECT a keep, ROLL on or BANK      (or why a press failed) |  footer
    +-------------------------------------------------------------+
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

ROLL_ROW = 0.13
"""The height of the roll's row of dice, as a share of the surface's height (at most 30%
of the middle band, which many players' scoreboard makes lower)."""
BOARD_SLOTS = 3
"""Scoreboard rows the layout keeps room for (more players make it taller)."""


@dataclass(frozen=True)
class Layout:
    """Where each part of the game screen goes on a surface of ``size``."""

    size: tuple[int, int]
    header: pygame.Rect
    camera: pygame.Rect
    roll: pygame.Rect
    """The roll on the table as a row of big dice, beside the camera view."""
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
    roll_h = min(round(h * ROLL_ROW), round(middle_h * 0.3))  # many players: less
    roll = pygame.Rect(camera.right + pad, top, w - camera.right - 2 * pad, roll_h)
    below = roll.bottom + pad
    turn = pygame.Rect(camera.right + pad, below, turn_w - pad, board.top - pad - below)
    keeps = pygame.Rect(turn.right + pad, below, w - turn.right - 2 * pad, turn.h)
    return Layout(
        size=(w, h),
        header=header,
        camera=camera,
        roll=roll,
        turn=turn,
        keeps=keeps,
        board=board,
        banner=pygame.Rect(0, top - pad, w, middle_h + 2 * pad),
        odds=camera.copy(),
        drinks=band,
        footer=footer,
    )
