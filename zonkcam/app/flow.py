"""Game flow from the table: settled rolls and keeps seen by the camera become actions.

:class:`TableFlow` turns each table :class:`~zonkcam.table.observe.TableReport` into the
table actions it stands for in the current game state (a throw is a ``Roll``; dice slid
into the keep strip are a ``Keep``; a die off the mat on the drinking table is a sloppy
throw; a scoring die touching a board image passes a drink), or into a question for the
scorekeeper (a missing or cocked die) - never a silent penalty. A throw with a die no read
could read is an :class:`AskValues`: the app holds it until its values are given (on the
screen, or by a later look of the camera: a ``read`` report) and then plays it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from zonkcam.game import actions as A
from zonkcam.game.dice import DETROIT_DICE, PLAIN_DICE, Die
from zonkcam.game.names import counted
from zonkcam.game.scoring import score_roll
from zonkcam.game.state import GameState, Phase
from zonkcam.table.observe import TableEvent, TableReport
from zonkcam.table.tracking import Change
from zonkcam.table.zones import TableDie, Zone

THROW_PHASES = (Phase.ROLL, Phase.GO_FOR_1000, Phase.PAIR)


@dataclass(frozen=True)
class Question:
    """Something the scorekeeper must settle; shown on the screen."""

    text: str


@dataclass(frozen=True)
class AskValues(Question):
    """The throw waits for the values of its unread dice (the ``?`` on the camera view)."""

    unread: int = 1


def unread_words(n: int, who: str) -> str:
    """The question for a throw with ``n`` dice no read could read."""
    dice = "1 die" if n == 1 else f"{n} dice"
    its = "its value" if n == 1 else "their values"
    return (
        f"I cannot read {dice} (the ? on the table): type {its} (1-6), tap a die to "
        f"fix it, or {who} throws again"
    )


Outcome = A.Action | Question


class TableFlow:
    def on_report(self, report: TableReport, state: GameState) -> list[Outcome]:
        if report.event != TableEvent.SETTLED or state.finished or state.player is None:
            return []
        phase, who = state.phase, state.shown_name(state.player)
        if report.change is Change.KEEP:
            if phase is not Phase.DECIDE or not report.keep:
                return []
            if not all(d.known for d in report.keep):
                return [Question("a die set aside was never read: choose the keep with SELECT")]
            return [A.Keep(tuple(sorted(d.value for d in report.keep)))]
        if report.change is Change.MOVED:
            return [
                Question(f"a die was moved, not thrown: {who}, throw again (or fix it on screen)")
            ]
        if report.change is not Change.ROLL:
            return []  # the first look, dice picked up, an empty table
        if phase in THROW_PHASES:
            return self._throw(report, state)
        if phase is Phase.DECIDE and report.keep and all(d.known for d in report.keep):
            # the keep slid into the strip and the rest thrown in one go
            keep = state.options.keep(d.value for d in report.keep)
            if keep is not None:
                rolls = state.options.roll_after(keep)
                return [A.Keep(keep.dice), *self._throw(report, state, rolls)]
        if phase is Phase.DECIDE:
            return [
                Question(
                    "set the keep aside in the keep strip (or choose it with SELECT) "
                    "before throwing again"
                )
            ]
        return []

    def _throw(
        self, report: TableReport, state: GameState, expected: int | None = None
    ) -> list[Outcome]:
        """The throw's outcomes; ``expected``: the dice it should have where a keep set
        aside in the same go (not yet played) changes them."""
        rules, t = state.rules, state.turn
        who = state.shown_name(state.player)
        if report.off_mat:
            if rules.drinking.penalties:
                return [A.Penalty(A.PenaltyKind.SLOPPY)]
            return [Question(f"a die is off the mat: {who}, throw again")]
        cocked = [d for d in report.dice if d.cocked and d.zone == Zone.ROLLING]
        if cocked:
            return [
                Question(
                    f"{len(cocked)} cocked {'die' if len(cocked) == 1 else 'dice'}: "
                    f"{who}, throw again (or set the value on screen)"
                )
            ]
        rolled = list(report.rolled)
        if expected is None:
            expected = 1 if state.phase is Phase.GO_FOR_1000 else t.dice_to_roll
        if len(rolled) != expected:
            return [
                Question(
                    f"{who} should have thrown {counted(expected, 'die', 'dice')} but I see "
                    f"{len(rolled)}: is one hidden or stacked? Throw again or fix it "
                    "on screen"
                )
            ]
        unread = sum(d.unread for d in rolled)
        if unread:
            return [AskValues(unread_words(unread, who), unread)]
        out: list[Outcome] = []
        if state.phase is Phase.PAIR:
            out.append(A.Reroll())  # throwing the pair again is the re-roll
        roll = roll_of(rolled, detroit=rules.points.colour_pairs > 0)
        out.append(roll)
        if rules.drinking.board_images and state.phase is not Phase.GO_FOR_1000:
            best = score_roll(rules, roll.dice).best
            scoring = Counter(best.dice if best else ())
            for d in rolled:
                if not d.touching or scoring[d.value] == 0:
                    continue
                scoring[d.value] -= 1
                for landing in d.touching:
                    if landing is A.Landing.CHOOSE:
                        out.append(Question(f"{who}: a scoring die touched CHOOSE: who drinks?"))
                    else:
                        out.append(A.Land(landing))
        return out


def roll_of(seen: list[TableDie], *, detroit: bool) -> A.Roll:
    """The roll of these read dice (dice_of), with the colours read kept beside dice that
    carry none (Roll.seen: the night's review follows each die by them)."""
    dice = dice_of(seen, detroit=detroit)
    if any(d.color for d in dice):
        return A.Roll(dice)
    return A.Roll(dice, tuple(d.color for d in seen))


def dice_of(seen: list[TableDie], *, detroit: bool) -> tuple[Die, ...]:
    """Engine dice from read dice; colours only where the table plays with them and the
    colours read can be right (never more than a pair of one colour): a roll whose colours
    were misread still counts, without its colour pairs."""
    colours = Counter(d.color for d in seen)
    if detroit and set(colours) <= set(DETROIT_DICE) and max(colours.values(), default=0) <= 2:
        return tuple(d.die for d in seen)
    return tuple(PLAIN_DICE[d.value] for d in seen)
