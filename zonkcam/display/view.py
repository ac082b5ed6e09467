"""What the scorekeeper's screen shows, as plain data: no pygame here.

:func:`view_for` turns a :class:`~zonkcam.game.state.GameState` (plus, optionally, what the
camera saw) into a :class:`ScreenView`; :mod:`zonkcam.display.screen` draws it. Keeping the
two apart means the content of every screen can be tested without drawing anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from zonkcam.advisor.advice import Advice, Best, best_words, worth
from zonkcam.game import actions as A
from zonkcam.game.engine import allowed
from zonkcam.game.state import GameState, Phase
from zonkcam.table.zones import SeenDie

__all__ = ["SeenDie", "DieReading", "TableObservation", "ScreenView", "view_for", "die_at"]

CONFIRM_BELOW = 0.6
"""Dice read with less confidence than this are flagged for the players to confirm
(`zonkcam play --confirm-below`). Measured in session 15 with `zonkcam eval
--confirm-below BAR` and the table's reader settings (`--no-recheck --no-second-opinion
--mirrors none`): 0.6 flags 25 of the training split's 1,898 dice read right and 13 of
its 25 misread ones; 0.75 flags 70 and 17. On the matteop65 twin (session 13's, the
photos most like a table camera) 0.75 flags 37 dice read right against 11 and catches no
more of its 8 misread; the demo table's dice flag at neither. So 0.6 stays (README,
"The screen")."""


class DieReading(Protocol):
    """A die as read from the camera: the reader's :class:`SeenDie`, or the table's
    ``TableDie`` (which also says whether the die is cocked)."""

    value: int
    confidence: float
    """0-1, how sure the reader is of the value."""
    bbox: tuple[float, float, float, float]
    """Corners in camera-frame pixels: x0, y0, x1, y1."""
    color: str | None


@dataclass(frozen=True)
class TableObservation:
    """What the camera saw: the frame (BGR, as OpenCV gives it) and the dice read in it."""

    frame: Any = None
    """A numpy array of shape (height, width, 3), BGR, or None when there is no camera."""
    dice: tuple[DieReading, ...] = ()


@dataclass(frozen=True)
class ShownDie:
    """A die as the screen marks it on the camera view."""

    die: DieReading
    unsure: bool
    """Read with low confidence (or cocked): shown with a "?" for the players to confirm."""


@dataclass(frozen=True)
class KeepRow:
    """One legal keep of the roll on the table."""

    dice: tuple[int, ...]
    points: int
    combos: tuple[str, ...]
    selected: bool
    best: bool = False
    """The odds panel is shown and this is the advisor's choice."""

    @property
    def label(self) -> str:
        return " ".join(map(str, self.dice))


@dataclass(frozen=True)
class PlayerRow:
    """One line of the scoreboard. ``None`` marks a column this table does not have."""

    name: str
    """The name shown (the zonk name where the table uses them)."""
    score: int
    zonks: int
    bees: int | None = None
    drinks: int | None = None
    handouts: int | None = None
    rules: int | None = None
    """Drinking rules this player may make."""
    on_board: bool | None = None
    spaced: bool = False
    left: bool = False
    current: bool = False
    winner: bool = False


@dataclass(frozen=True)
class ShownBanner:
    """A big banner over the screen (see :mod:`zonkcam.display.banners`)."""

    name: str
    """The engine's banner name: "ZONK", "HOT DICE", "DRINK: LEFT", ..."""
    title: str
    subtitle: str = ""
    background: tuple[int, int, int] = (200, 0, 0)
    foreground: tuple[int, int, int] = (255, 255, 255)


@dataclass(frozen=True)
class OddsView:
    """The odds panel: what the advisor says about the state on screen."""

    ready: bool
    """False while the advice is being worked out (the panel says so)."""
    objective: str = ""
    """points, win or last turn."""
    zonk: str = ""
    """Chance that the next roll scores nothing, e.g. "16%"."""
    bank: str = ""
    roll: str = ""
    best: str = ""
    """The advice in a few words: "keep 1 5", "bank", "roll 3 dice", ..."""
    win: str = ""
    """The chance to win, where the objective is one."""


def odds_view(advice: Advice | None, state: GameState) -> OddsView:
    """The panel's words and numbers for ``advice`` (None: not ready)."""
    if advice is None:
        return OddsView(ready=False)
    win = worth(advice, advice.win_chance) if advice.win_chance is not None else ""
    zonk = f"{advice.zonk_chance:.0%}" if advice.zonk_chance is not None else "-"
    return OddsView(True, str(advice.objective), zonk, worth(advice, advice.bank),
                    worth(advice, advice.roll), best_words(advice, state), win)


@dataclass(frozen=True)
class ScreenView:
    """Everything the game screen shows at one moment."""

    rules_name: str
    player: str | None
    """Whose turn it is (shown name), None before seating or after the game."""
    phase: Phase
    prompt: str
    """What the current player does next, in a few words."""
    turn_total: int
    dice_to_roll: int
    """Dice to throw next; while a roll is on the table, the dice that were thrown."""
    table_dice: int = 5
    """How many dice the table plays with."""
    keeps: tuple[KeepRow, ...] = ()
    set_aside: tuple[int, ...] = ()
    """Dice set aside since all dice were last picked up (shown while the player rolls on)."""
    board: tuple[PlayerRow, ...] = ()
    final_round: bool = False
    finished: bool = False
    winners: tuple[str, ...] = ()
    frame: Any = field(default=None, compare=False)
    """The camera frame (numpy BGR array) or None."""
    dice: tuple[ShownDie, ...] = ()
    banner: ShownBanner | None = None
    message: str = ""
    """One line for the players, e.g. why the last button press was refused."""
    muted: bool = False
    odds: OddsView | None = None
    """The odds panel, when it is shown."""

    @property
    def selected_keep(self) -> KeepRow | None:
        return next((k for k in self.keeps if k.selected), None)

    @property
    def dice_after_keep(self) -> int:
        """Dice left to roll on after the selected keep (all of them again on hot dice)."""
        keep = self.selected_keep
        if keep is None:
            return self.dice_to_roll
        return self.dice_to_roll - len(keep.dice) or self.table_dice

    @property
    def unsure_dice(self) -> tuple[int, ...]:
        """Indexes of the dice the players should confirm."""
        return tuple(i for i, d in enumerate(self.dice) if d.unsure)


def view_for(
    state: GameState,
    observation: TableObservation | None = None,
    selected_keep: int = 0,
    *,
    banner: ShownBanner | None = None,
    message: str = "",
    muted: bool = False,
    confirm_below: float = CONFIRM_BELOW,
    odds: Advice | None | bool = False,
) -> ScreenView:
    """The screen for ``state``; ``selected_keep`` indexes the legal keeps (wraps around).

    ``odds``: False hides the odds panel; an :class:`Advice` fills it; None shows it
    while the advice is being worked out."""
    rules, turn = state.rules, state.turn
    advice = odds if isinstance(odds, Advice) else None
    keeps: tuple[KeepRow, ...] = ()
    if state.phase is Phase.DECIDE and turn.score is not None and turn.score.keeps:
        rows = [(k.dice, k.points, k.combos) for k in turn.score.keeps]
        if allowed(state, A.GoFor1000()):  # SELECT reaches it after the keeps
            rows.append(((), rules.go_for_1000, ("GO FOR 1000: roll one die",)))
        chosen = selected_keep % len(rows)
        best = None
        if advice is not None:
            best = () if advice.best is Best.GO_FOR_1000 else advice.best_keep
        keeps = tuple(KeepRow(*row, i == chosen, row[0] == best)
                      for i, row in enumerate(rows))
    drinking = rules.drinking
    drinks = drinking.penalties or drinking.board_images
    winners = set(state.winners) if state.finished else set()
    board = tuple(
        PlayerRow(
            name=state.shown_name(p),
            score=p.score,
            zonks=p.zonks,
            bees=p.bees if rules.bees else None,
            drinks=p.drinks if drinks else None,
            handouts=p.handouts if drinking.barrier_handouts else None,
            rules=p.rules if (drinking.rule_turn_over or drinking.rule_first_to
                              or drinking.rule_exact) else None,
            on_board=p.on_board if rules.entry_minimum else None,
            spaced=p.spaced > 0,
            left=p.left,
            current=p is state.player and not state.finished,
            winner=p.name in winners,
        )
        for p in state.players
    )
    player = state.player
    shown = state.shown_name(player) if player is not None and not state.finished else None
    seen = observation.dice if observation is not None else ()
    return ScreenView(
        rules_name=rules.name,
        player=shown,
        phase=state.phase,
        prompt=prompt_for(state),
        turn_total=turn.total,
        dice_to_roll=turn.dice_to_roll,
        table_dice=rules.dice,
        keeps=keeps,
        set_aside=turn.set_aside if not state.finished else (),
        board=board,
        final_round=state.final_round_by is not None and not state.finished,
        finished=state.finished,
        winners=tuple(_shown(state, n) for n in state.winners) if state.finished else (),
        frame=observation.frame if observation is not None else None,
        dice=tuple(ShownDie(d, d.confidence < confirm_below or getattr(d, "cocked", False))
                   for d in seen),
        banner=banner,
        message=message,
        muted=muted,
        odds=None if odds is False or state.finished else odds_view(advice, state),
    )


def prompt_for(state: GameState) -> str:
    """What the current player does next, in the words on the buttons."""
    turn = state.turn
    match state.phase:
        case Phase.SETUP:
            return "seat the players"
        case Phase.ROLL:
            dice = f"roll {turn.dice_to_roll} {'die' if turn.dice_to_roll == 1 else 'dice'}"
            if turn.bank_ok:
                return f"{dice} or BANK"
            if state.offer and not turn.rolls and not turn.piggybacked:
                return f"{dice}, or ROLL to piggyback {state.offer.total}"
            return dice
        case Phase.DECIDE:
            return "SELECT a keep, ROLL on or BANK"
        case Phase.PAIR:
            return "pair: ROLL again or BANK to pass"
        case Phase.GO_FOR_1000:
            return f"go for 1000: roll one die, needs a {turn.missing_face}"
        case _:
            return "game over"


def _shown(state: GameState, name: str) -> str:
    p = state.find(name)
    return state.shown_name(p) if p is not None else name


def die_at(point: tuple[float, float], dice: Sequence[DieReading],
           slack: float = 0.15) -> int | None:
    """Index of the die whose box holds ``point`` (frame pixels), for a tap on the screen.

    Boxes are grown by ``slack`` of their size so a finger need not be exact; where grown
    boxes overlap, the die whose centre is nearest wins. None when no die is hit.
    """
    x, y = point
    best: tuple[float, int] | None = None
    for i, d in enumerate(dice):
        x0, y0, x1, y1 = d.bbox
        mx, my = (x1 - x0) * slack, (y1 - y0) * slack
        if x0 - mx <= x <= x1 + mx and y0 - my <= y <= y1 + my:
            dist = (x - (x0 + x1) / 2) ** 2 + (y - (y0 + y1) / 2) ** 2
            if best is None or dist < best[0]:
                best = (dist, i)
    return best[1] if best is not None else None
