"""What the scorekeeper's screen shows, as plain data: no pygame here.

:func:`view_for` turns a :class:`~zonkcam.game.state.GameState` (plus, optionally, what the
camera saw) into a :class:`ScreenView`; :mod:`zonkcam.display.painter` draws it. Keeping the
two apart means the content of every screen can be tested without drawing anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from zonkcam.advisor.advice import Advice, Best, Objective, best_words, worth
from zonkcam.controls import settle_next
from zonkcam.game.dice import Die
from zonkcam.game.rules import End, HotDice
from zonkcam.game.state import GameState, Phase, PlayerState
from zonkcam.vision.confidence import CONFIRM_BELOW

__all__ = ["DieReading", "CameraView", "ScreenView", "view_for", "die_at"]


class DieReading(Protocol):
    """A die as read from the camera: the reader's :class:`~zonkcam.vision.die.Reading`, or
    the table's ``TableDie`` (which also says whether the die is cocked)."""

    value: int
    confidence: float
    """0-1, how sure the reader is of the value."""
    bbox: tuple[float, float, float, float]
    """Corners in camera-frame pixels: x0, y0, x1, y1."""
    color: str | None


@dataclass(frozen=True)
class CameraView:
    """What the camera saw, for the screen's camera view: the frame (BGR, as OpenCV gives
    it) and the dice read in it. What the table watcher makes of the frames is
    :class:`~zonkcam.table.observe.TableReport`."""

    frame: Any = None
    """A numpy array of shape (height, width, 3), BGR, or None when there is no camera."""
    dice: tuple[DieReading, ...] = ()
    earlier_turn: bool = False
    """The dice are those of a turn that has passed (the last player's, still lying on
    the table): the screen outlines them in grey without their values, so that nobody
    reads them as the next player's roll; a tap still picks one to correct."""


@dataclass(frozen=True)
class ShownDie:
    """A die as the screen marks it on the camera view."""

    die: DieReading
    unsure: bool
    """Read with low confidence (or cocked): shown with a "?" for the players to confirm."""
    colour: str | None = None
    """The colour read, on a table that plays with colours (detroit)."""
    unknown: bool = False
    """No value read at all (cocked, or unread): shown as a bare "?"."""
    earlier_turn: bool = False
    """A die of a turn that has passed: outlined in grey, its value left off."""


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
    """Drinks this player has still to hand out (those handed out are off the board)."""
    rules: int | None = None
    """Drinking rules this player has still to make."""
    on_board: bool | None = None
    spaced: bool = False
    left: bool = False
    current: bool = False
    winner: bool = False
    drinks_due: int | None = None
    """Drinks this player still owes (the drinking table's band lists them)."""
    badges: tuple[str, ...] = ()
    """What the row says beside the name, most important first: WINNER, SPACED, not on
    board, hand-outs, rules to make, the last score-sheet entry, zonks a rule counts."""


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
    """The odds panel: what the advisor says about the state on screen, each figure in
    words that say what it is for."""

    ready: bool
    """False while the advice is being worked out (the panel says so)."""
    objective: str = ""
    """points, win or last turn."""
    title: str = ""
    """Whose figures follow: the highlighted keep ("keep 1 5, 150"), or "now" before a roll."""
    lines: tuple[str, ...] = ()
    """For the highlighted keep (before a roll: for the turn as it stands): "next roll, 4
    dice: zonk 16%", "bank now: 150", "roll on: 252 expected"."""
    advised: str = ""
    """The advice in a few words and what it is worth ("advised: keep 1, then bank: 450")."""


def odds_view(advice: Advice | None, state: GameState, selected: KeepRow | None = None) -> OddsView:
    """The panel's words and numbers for ``advice`` (None: not ready), for the keep
    highlighted on screen (`selected`) and the advised play."""
    if advice is None:
        return OddsView(ready=False)
    expected = "expected" if advice.objective is Objective.POINTS else "to win"
    row = None
    if selected is not None:
        row = next((k for k in advice.keeps if k.dice == selected.dice), None)
    if row is not None:
        title = f"{row.label}, {row.points:,}"
        n, zonk, bank, roll = row.dice_left, row.zonk_chance, row.bank, row.roll
    else:
        title = "now"
        n = 1 if state.phase is Phase.GO_FOR_1000 else state.turn.dice_to_roll
        zonk, bank, roll = advice.zonk_chance, advice.bank, advice.roll
        if advice.keeps:  # after a roll with nothing highlighted: the advice's own figures
            n = next((k.dice_left for k in advice.keeps if k.dice == advice.best_keep), n)
    lines = (
        [f"next roll, {n} {'die' if n == 1 else 'dice'}: zonk {zonk:.0%}"]
        if zonk is not None
        else []
    )
    if bank is not None:
        lines.append(f"bank now: {worth(advice, bank)}")
    elif (
        state.turn.rolls
        and state.phase in (Phase.ROLL, Phase.DECIDE)
        and (row is not None or not advice.keeps)
    ):
        lines.append(no_bank_words(state, row.points if row is not None else 0, n))
    if roll is not None:
        lines.append(f"roll on: {worth(advice, roll)} {expected}")
    advised = f"advised: {best_words(advice, state)}: {worth(advice, advice.value)}"
    return OddsView(True, str(advice.objective), title, tuple(lines), advised)


def no_bank_words(state: GameState, points: int, dice_left: int) -> str:
    """Why the odds panel has no bank figure: the turn's total (with a keep of ``points``
    that leaves ``dice_left`` dice) is under what the rules let a player bank, or the
    rules make hot dice roll on."""
    rules, me = state.rules, state.player
    total = state.turn.total + points
    need = rules.bank_minimum
    if me is not None and not me.on_board:
        need = max(need, rules.entry_minimum)
    if total < need:
        return f"bank: not under {need:,}"
    if dice_left == rules.dice and rules.hot_dice is HotDice.MUST:
        return "bank: no, hot dice roll on"
    return "bank: not now"


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
    roll: tuple[Die, ...] = ()
    """The roll on the table as the game scored it (each die with its colour on a table
    that plays with colours), shown as a row of big dice; () while none is."""
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
    next_step: tuple[str, ...] = ()
    """While no roll is on the table: what the player does next (the first line, in big
    letters) and what else they may do or need."""
    turn_of: str = ""
    """On a table that counts turns: the current player's turn, e.g. "TURN 4 OF 21"."""
    drinks_due: tuple[tuple[str, int], ...] = ()
    """Who owes how many drinks (the drinking table), in seating order."""
    owed: str = ""
    """The drinking table's band: what ROLL held settles next and who owes it ("DRINKS
    DUE: Noodle 2, Captain 1", then "TO HAND OUT: ...", then "RULES TO MAKE: ..."), or ""."""
    hold_roll: str = ""
    """What ROLL held does to it, in a word or two ("drunk", "handed out", "rules made")."""

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
    def kept_in_roll(self) -> tuple[bool, ...]:
        """For each die of :attr:`roll`, whether the selected keep takes it."""
        keep = self.selected_keep
        wanted = list(keep.dice) if keep is not None else []
        taken = []
        for die in self.roll:
            taken.append(die.value in wanted)
            if taken[-1]:
                wanted.remove(die.value)
        return tuple(taken)

    @property
    def unsure_dice(self) -> tuple[int, ...]:
        """Indexes of the dice the players should confirm."""
        return tuple(i for i, d in enumerate(self.dice) if d.unsure)


def view_for(
    state: GameState,
    camera: CameraView | None = None,
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
        if state.options.go_for_1000:  # SELECT reaches it after the keeps
            rows.append(((), rules.go_for_1000, ("GO FOR 1000: roll one die",)))
        chosen = selected_keep % len(rows)
        best = None
        if advice is not None:
            best = () if advice.best is Best.GO_FOR_1000 else advice.best_keep
        keeps = tuple(KeepRow(*row, i == chosen, row[0] == best) for i, row in enumerate(rows))
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
            handouts=p.handouts_due if drinking.barrier_handouts else None,
            rules=p.rules_due
            if (drinking.rule_turn_over or drinking.rule_first_to or drinking.rule_exact)
            else None,
            on_board=p.on_board if rules.entry_minimum else None,
            spaced=p.spaced > 0,
            left=p.left,
            current=p is state.player and not state.finished,
            winner=p.name in winners,
            drinks_due=p.drinks_due if drinks else None,
            badges=badges_for(state, p, p.name in winners),
        )
        for p in state.players
    )
    player = state.player
    shown = state.shown_name(player) if player is not None and not state.finished else None
    seen = camera.dice if camera is not None else ()
    passed = camera is not None and camera.earlier_turn
    _, hold_roll = settle_next(state)
    return ScreenView(
        rules_name=rules.name,
        player=shown,
        phase=state.phase,
        prompt=prompt_for(state),
        turn_total=turn.total,
        dice_to_roll=1 if state.phase is Phase.GO_FOR_1000 else turn.dice_to_roll,
        table_dice=rules.dice,
        keeps=keeps,
        roll=tuple(d if rules.points.colour_pairs else Die(d.value) for d in turn.roll or ())
        if state.phase in (Phase.DECIDE, Phase.PAIR) and not state.finished
        else (),
        set_aside=turn.set_aside if not state.finished else (),
        board=board,
        final_round=state.final_round_by is not None and not state.finished,
        finished=state.finished,
        winners=tuple(_shown(state, n) for n in state.winners) if state.finished else (),
        frame=camera.frame if camera is not None else None,
        dice=tuple(
            ShownDie(
                d,
                not passed and (d.confidence < confirm_below or not getattr(d, "known", True)),
                d.color if rules.points.colour_pairs else None,
                not getattr(d, "known", True),
                passed,
            )
            for d in seen
        ),
        banner=banner,
        message=message,
        muted=muted,
        odds=None
        if odds is False or state.finished
        else odds_view(advice, state, next((k for k in keeps if k.selected), None)),
        next_step=next_step_for(state) if not keeps else (),
        turn_of=(
            f"TURN {min(player.turns + 1, rules.turns)} OF {rules.turns}"
            if rules.end is End.TURNS and player is not None and not state.finished
            else ""
        ),
        drinks_due=tuple(
            (state.shown_name(p), p.drinks_due) for p in state.players if p.drinks_due
        ),
        owed=owed_band(state, hold_roll),
        hold_roll=hold_roll,
    )


_BANDS = {
    "drunk": ("DRINKS DUE", lambda p: p.drinks_due),
    "handed out": ("TO HAND OUT", lambda p: p.handouts_due),
    "rules made": ("RULES TO MAKE", lambda p: p.rules_due),
}


def owed_band(state: GameState, hold_roll: str) -> str:
    """Who owes what ROLL held settles next (``hold_roll``, from
    :func:`~zonkcam.controls.settle_next`), e.g. "TO HAND OUT: Snake 3"; "" for nothing."""
    if not hold_roll:
        return ""
    title, due = _BANDS[hold_roll]
    owing = ", ".join(f"{state.shown_name(p)} {due(p)}" for p in state.players if due(p))
    return f"{title}: {owing}"


def badges_for(state: GameState, p: PlayerState, winner: bool) -> tuple[str, ...]:
    """The marks beside a player's name that someone acts on, most important first."""
    rules, out = state.rules, []
    handouts, rules_due = p.handouts_due, p.rules_due
    owed = [f"hand out {handouts}"] if handouts else []
    owed += [f"{rules_due} rule{'s' * (rules_due != 1)} to make"] if rules_due else []
    if state.finished:  # the winner is in the big banner: what is still owed comes first
        return (*owed, *(["WINNER"] if winner else []))
    if winner:
        out.append("WINNER")
    if p.spaced:
        out.append("SPACED")
    if p.left:
        out.append("left")
    if rules.entry_minimum and not p.on_board:
        out.append("not on board")
    out += owed
    if rules.bees and p.sheet:
        out.append(f"last {p.sheet[-1]}")
    if rules.frames and p.frame_zonks:
        out.append(f"zonks {p.frame_zonks}/3")  # the third closes the frame
    if rules.three_zonk_penalty and p.zonks_in_a_row:
        out.append(f"zonks {p.zonks_in_a_row}/3")  # the third costs points
    return tuple(out)


def next_step_for(state: GameState) -> tuple[str, ...]:
    """What the current player does next while no roll is on the table, in big words."""
    t, rules, p = state.turn, state.rules, state.player
    match state.phase:
        case Phase.SETUP:
            return ("SEAT THE PLAYERS",)
        case Phase.OVER:
            return ("GAME OVER", "ROLL: same players", "BANK: new players")
        case Phase.GO_FOR_1000:
            return ("ROLL 1 DIE", f"NEEDS A {t.missing_face}")
        case Phase.PAIR:
            return ("PAIR: ROLL AGAIN", "or BANK to pass")
        case Phase.DECIDE:
            return ()
    lines = [f"ROLL {t.dice_to_roll} {'DIE' if t.dice_to_roll == 1 else 'DICE'}"]
    offer = state.offer
    if offer and state.options.piggyback:
        lines += [
            f"or PIGGYBACK {offer.total:,}",
            f"on {offer.dice} {'die' if offer.dice == 1 else 'dice'}: press ROLL",
        ]
    if state.options.bank:
        lines.append(f"or BANK {t.total:,}")
    elif p is not None and rules.entry_minimum and not p.on_board:
        lines.append(f"{rules.entry_minimum:,} TO GET ON")
    return tuple(lines)


def prompt_for(state: GameState) -> str:
    """What the current player does next, in the words on the buttons."""
    turn = state.turn
    match state.phase:
        case Phase.SETUP:
            return "seat the players"
        case Phase.ROLL:
            dice = f"roll {turn.dice_to_roll} {'die' if turn.dice_to_roll == 1 else 'dice'}"
            if state.options.bank:
                return f"{dice} or BANK"
            if state.offer and state.options.piggyback:
                return f"{dice}, or ROLL to piggyback {state.offer.total:,}"
            return dice
        case Phase.DECIDE:
            return "SELECT a keep, ROLL on" + (" or BANK" if state.options.bank else "")
        case Phase.PAIR:
            return "pair: ROLL again or BANK to pass"
        case Phase.GO_FOR_1000:
            return f"go for 1000: roll one die, needs a {turn.missing_face}"
        case _:
            return "ROLL: same players, BANK: new players, SELECT: the charts"


def _shown(state: GameState, name: str) -> str:
    p = state.find(name)
    return state.shown_name(p) if p is not None else name


def die_at(
    point: tuple[float, float], dice: Sequence[DieReading], slack: float = 0.15
) -> int | None:
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
