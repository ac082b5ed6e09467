"""A night's games as the review shows them: each game's score race, zonks and hot dice
per player, drinks handed out and taken, its turns (the biggest, the slowest), played back
from the game log's actions and the times they were written.

Pure: actions and times in, a :class:`GameReview` out (the command reads the log)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from zonkcam.game import actions as A
from zonkcam.game.game import Game
from zonkcam.game.rules import RuleSet


@dataclass(frozen=True)
class Turn:
    player: str
    """Shown name (a zonk name on the drinking table)."""
    points: int
    """Banked; 0 for a zonk."""
    seconds: float
    """From the turn's first action to its last."""
    zonk: bool
    number: int
    """The game's turn count when it ended (1 = the first turn played)."""


@dataclass
class GameReview:
    game_id: int
    rules_name: str
    players: list[str]
    race: list[tuple[int, dict[str, int]]] = field(default_factory=list)
    """After each turn: (turns played, every player's total)."""
    zonks: dict[str, int] = field(default_factory=dict)
    hot_dice: dict[str, int] = field(default_factory=dict)
    drinks_taken: dict[str, int] = field(default_factory=dict)
    handouts: dict[str, int] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    drinking: bool = False
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    actions: list[A.Action] = field(default_factory=list)
    """The game as it was kept (undos folded away)."""


def kept(actions: Sequence[A.Action], times: Sequence[float]) -> list[tuple[float, A.Action]]:
    """The actions the game kept, each with its time: an undo takes back the one before."""
    stack: list[tuple[float, A.Action]] = []
    for at, action in zip(times, actions, strict=True):
        if isinstance(action, A.Undo):
            if stack:
                stack.pop()
        else:
            stack.append((at, action))
    return stack


def review_game(
    game_id: int, rules: RuleSet, actions: Sequence[A.Action], times: Sequence[float]
) -> GameReview:
    game = Game(rules)
    timed = kept(actions, times)
    review = GameReview(game_id, rules.name, [], drinking=bool(rules.drinking.penalties))
    started: float | None = None
    played = 0
    for at, action in timed:
        before = game.state
        who = before.shown_name(before.player) if before.player is not None else None
        state = game.play(action)
        review.actions.append(action)
        if isinstance(action, A.Players | A.Join | A.ZonkName):
            continue
        if started is None:
            started = at
        if who is not None and "HOT DICE" in state.banners:
            review.hot_dice[who] = review.hot_dice.get(who, 0) + 1
        total = sum(p.turns for p in state.players)
        if total > played and who is not None:  # the turn ended (a bank or a zonk)
            played = total
            mover = next(p for p in before.players if before.shown_name(p) == who)
            after = next(p for p in state.players if p.name == mover.name)
            zonk = "ZONK" in state.banners
            review.turns.append(
                Turn(who, after.score - mover.score if not zonk else 0, at - started, zonk, total)
            )
            review.race.append((total, {state.shown_name(p): p.score for p in state.players}))
            started = None
    state = game.state
    review.players = [state.shown_name(p) for p in state.players]
    review.zonks = {state.shown_name(p): p.zonks for p in state.players}
    review.drinks_taken = {state.shown_name(p): p.drinks for p in state.players}
    review.handouts = {n: 0 for n in review.players}
    for line in state.log:  # "X hands out N" lines count what each handed out
        for name in review.players:
            if line.startswith(f"{name} hands out "):
                words = line[len(name) + len(" hands out ") :].split()
                if words and words[0].isdigit():
                    review.handouts[name] += int(words[0])
    review.finished = state.finished
    review.winners = [state.shown_name(p) for p in state.players if p.name in state.winners]
    return review
