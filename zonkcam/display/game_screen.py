"""The game screen's moving parts in one object, for the app's main loop.

::

    with Window.open() as window:
        ui = GameScreen(window, buttons=open_buttons())       # None without GPIO
        while running:
            for command in ui.commands():                      # keyboard, taps, buttons
                action = action_for(command, logged.state, ui.selected_keep)
                if action is not None:
                    try:
                        ui.played(logged.play(action))         # banners, sounds
                    except TableError as exc:
                        ui.message = str(exc)                  # one line, no traceback
            ui.draw(logged.state, camera)                      # once a frame

SELECT, BACK, MUTE and ODDS are handled here (they change only the screen) and are still
returned, so the app can log or ignore them. On the game-over screen SELECT shows the
game's charts (:mod:`zonkcam.display.charts`, from ``charts_of``) and shows the
scoreboard again. Banners belong to the turn whose action raised
them: the action that ends a turn drops the turn's earlier ones, and its own go once the
next player acts. The
odds panel (off at first; ODDS shows and hides it) reads advice from
:class:`~zonkcam.display.odds_worker.OddsWorker`, which works it out on its own thread: drawing a
frame never waits for it. The app hands the screen its worker, with the app's advisor;
without one the odds come from an advisor with no two-player tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from zonkcam.controls import Buttons, Control, Press
from zonkcam.display.banners import BannerQueue, winner_banner
from zonkcam.display.charts import draw_charts
from zonkcam.display.keyboard import KeyboardInput
from zonkcam.display.odds_worker import OddsWorker
from zonkcam.display.painter import Painter
from zonkcam.display.sounds import Sounds
from zonkcam.display.view import CONFIRM_BELOW, CameraView, ScreenView, view_for
from zonkcam.display.window import Window
from zonkcam.game.state import GameState
from zonkcam.review.dice import Pool
from zonkcam.review.night import GameReview

Charts = tuple[GameReview, Sequence[Pool]]
"""A finished game's review and the pools of the dice it threw."""


class GameScreen:
    def __init__(
        self,
        window: Window,
        *,
        buttons: Buttons | None = None,
        sounds: Sounds | None = None,
        banners: BannerQueue | None = None,
        confirm_below: float = CONFIRM_BELOW,
        odds: OddsWorker | None = None,
        charts_of: Callable[[GameState], Charts | None] | None = None,
    ) -> None:
        self.window = window
        self.confirm_below = confirm_below
        """Dice read with less confidence than this get a '?' (`zonkcam play --confirm-below`)."""
        self.buttons = buttons
        self.sounds = sounds if sounds is not None else Sounds()
        self.banners = banners if banners is not None else BannerQueue()
        self.painter = Painter()
        self.keyboard = KeyboardInput(tap_to_die=self._tapped)
        self.selected_keep = 0
        self.message = ""
        self.view: ScreenView | None = None
        """The view drawn last (what a tap refers to)."""
        self.photo: tuple[np.ndarray, str] | None = None
        """A roll's photo shown instead of the game (PHOTO), with its caption."""
        self.show_odds = False
        self.odds = odds if odds is not None else OddsWorker()
        self._turn_now: tuple | None = None
        """The turn in play as last seen (drawn or played)."""
        self._banners_from: tuple | None = None
        """The turn in which the banners queued were raised."""
        self.charts_of = charts_of
        """The charts of a finished game (None: this screen has none to show)."""
        self.show_charts = False
        self._charts: tuple[tuple, Charts | None] | None = None
        """The charts drawn last, and the game (turn_in_play) they are of."""

    def commands(self) -> list[Press]:
        """Every command since the last call: keyboard and taps, then the GPIO buttons."""
        out = self.keyboard.commands(self.window.events())
        if self.buttons is not None:
            out += self.buttons.commands()
        for command in out:
            over = self._turn_now is not None and self._turn_now[2]
            if over and self.charts_of is not None and command.kind is Control.SELECT:
                self.show_charts = not self.show_charts
            elif over and command.kind is Control.BACK:
                self.show_charts = False
            elif command.kind is Control.SELECT:
                self.selected_keep += 1
            elif command.kind is Control.BACK:
                self.selected_keep -= 1
            elif command.kind is Control.MUTE:
                self.sounds.toggle_mute()
            elif command.kind is Control.ODDS:
                self.show_odds = not self.show_odds
        return out

    def played(self, state: GameState) -> None:
        """An action was accepted and led to ``state``: banners, sounds, a fresh selection."""
        acted_in, now = self._turn_now, turn_in_play(state)
        if acted_in is not None and (now != acted_in or self._banners_from not in (None, acted_in)):
            # the turn ended, or a later one is being played: earlier banners are old news
            self.banners.clear()
        if state.banners:
            self._banners_from = acted_in
        self._turn_now = now
        self.banners.push_state(state)
        self.sounds.play_banners(state.banners)
        self.selected_keep = 0
        self.message = ""
        self.photo = None  # the game moved on
        self.show_charts, self._charts = False, None

    def draw(self, state: GameState, camera: CameraView | None = None) -> ScreenView:
        """Draw ``state`` (and what the camera saw) and show it; returns the view drawn."""
        self._turn_now = turn_in_play(state)
        odds = self.odds.advice(state) if self.show_odds and not state.finished else False
        self.view = view_for(
            state,
            camera,
            self.selected_keep,
            banner=self.banners.current() or (winner_banner(state) if state.finished else None),
            message=self.message,
            muted=self.sounds.muted,
            confirm_below=self.confirm_below,
            odds=odds,
        )
        charts = self._charts_for(state) if self.show_charts and state.finished else None
        if self.photo is not None:
            self.painter.draw_photo(self.window.surface, *self.photo)
        elif charts is not None:
            draw_charts(self.painter, self.window.surface, *charts, target=state.rules.target)
        else:
            self.painter.draw(self.window.surface, self.view)
        self.window.show()
        return self.view

    def _charts_for(self, state: GameState) -> Charts | None:
        """The charts of the finished game on screen, worked out once per game."""
        if self.charts_of is None:
            return None
        game = turn_in_play(state)
        if self._charts is None or self._charts[0] != game:
            self._charts = (game, self.charts_of(state))
        if self._charts[1] is None:
            self.show_charts = False
        return self._charts[1]

    def _tapped(self, pos: tuple[float, float]) -> int | None:
        return self.painter.tapped_die(pos, self.view) if self.view is not None else None


def turn_in_play(state: GameState) -> tuple:
    """Tells one turn of a game from another: turns finished, whose turn, game over."""
    return (sum(p.turns for p in state.players), state.current, state.finished)
