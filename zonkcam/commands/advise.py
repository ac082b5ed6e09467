"""`zonkcam advise`: the odds and the best play for one state of a turn, as JSON.

    zonkcam advise --rules classic-10000 --turn-total 350 --dice 3 --roll 1 5 2
    zonkcam advise --rules chicago --turn-total 0 --dice 5 --score 7500 --opponent 9000

Without ``--roll`` the player is about to throw ``--dice`` dice; with it, that roll is on
the table and every legal keep is valued. ``--score`` and ``--opponent`` give the win
chance from the two-player table built by ``zonkcam solve`` (without a table: expected
points, and a note saying how to build one). ``--not-on-board`` (or ``--score 0``) on a
table with an entry minimum: the player has not banked the points to get on the board yet,
so no bank under the entry minimum; otherwise the player is on the board.
"""

from __future__ import annotations

import argparse
import json

from zonkcam.advisor.race import unsupported
from zonkcam.errors import UserError
from zonkcam.game.dice import parse_dice
from zonkcam.game.engine import options_for
from zonkcam.game.names import counted
from zonkcam.game.rules import HotDice, load_rules
from zonkcam.game.scoring import RollContext, colours_needed, score_roll
from zonkcam.game.state import GameState, Phase, PlayerState, TurnState
from zonkcam.record.win_tables import cached_advisor


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "advise",
        help="the odds and best play for a turn, as JSON",
        description="The advisor's view of one state of a turn, as JSON: the chance that "
        "the next roll scores nothing, what banking and rolling on are worth, every legal "
        "keep of --roll valued, the best play, and with --score and --opponent the chance "
        "to win (from the table zonkcam solve builds).",
    )
    p.add_argument(
        "--rules", default="classic-10000", help="preset name or TOML file (default: classic-10000)"
    )
    p.add_argument(
        "--turn-total",
        type=int,
        default=0,
        metavar="N",
        help="points set aside this turn so far (default 0)",
    )
    p.add_argument(
        "--dice",
        type=int,
        metavar="D",
        help="dice to throw next, or thrown in --roll (default: all)",
    )
    p.add_argument(
        "--roll",
        nargs="+",
        metavar="DIE",
        help="the roll on the table, e.g. 1 5 5 2 3 6 (detroit: 2w 2w 3r ...)",
    )
    p.add_argument("--score", type=int, help="the player's game total (0: not on the board)")
    p.add_argument(
        "--not-on-board",
        action="store_true",
        help="the player is not on the board yet: the first bank needs the table's entry "
        "minimum (classic-10000 1,000, all-johnnys 1,000, drinking 350)",
    )
    p.add_argument("--opponent", type=int, help="the opponent's game total (two players)")
    p.set_defaults(func=run)


def state_for(args: argparse.Namespace) -> GameState:
    """The game state the arguments describe, as the engine would hold it."""
    rules = load_rules(args.rules)
    dice = args.dice if args.dice is not None else (len(args.roll) if args.roll else rules.dice)
    total = args.turn_total
    if not 1 <= dice <= rules.dice:
        raise UserError(f"--dice must be 1 to {rules.dice} on {rules.name}, not {dice}")
    if total < 0:
        raise UserError(f"--turn-total must be 0 or more, not {total}")
    if (args.opponent is not None) != (args.score is not None):
        raise UserError("give --score and --opponent together")
    for name, value in (("--score", args.score), ("--opponent", args.opponent)):
        if value is not None and value < 0:
            raise UserError(f"{name} must be 0 or more, not {value}")
    if args.not_on_board and not rules.entry_minimum:
        raise UserError(
            f"{rules.name} has no entry minimum: every player is on the board from the start"
        )
    if args.not_on_board and args.score:
        raise UserError(f"--not-on-board with --score {args.score}: a player with points is on it")
    fresh = total == 0 and dice == rules.dice
    turn = TurnState(
        phase=Phase.ROLL,
        total=total,
        dice_to_roll=dice,
        rolls=0 if fresh else 1,
        bank_ok=not fresh
        and (
            rules.bank_after_keep
            if dice < rules.dice
            else rules.hot_dice is HotDice.MAY and rules.bank_after_keep
        ),
    )
    if args.roll:
        roll = parse_dice(args.roll)
        if len(roll) != dice:
            raise UserError(f"--roll has {counted(len(roll), 'die', 'dice')}, --dice says {dice}")
        question = colours_needed(rules, roll)
        if question:
            raise UserError(question)
        score = score_roll(rules, roll, RollContext(full_roll=dice == rules.dice))
        turn.rolls += 1
        turn.roll, turn.score = roll, score
        turn.phase = (
            Phase.DECIDE
            if score.keeps
            else Phase.PAIR
            if (rules.two_dice_pair_reroll and dice == 2 and roll[0].value == roll[1].value)
            else Phase.OVER
        )
    me = PlayerState(
        "you",
        score=args.score or 0,
        on_board=not rules.entry_minimum or not (args.not_on_board or args.score == 0),
    )
    players = [me]
    if args.opponent is not None:
        players.append(PlayerState("opponent", score=args.opponent, on_board=args.opponent > 0))
    state = GameState(rules=rules, players=players, current=0, turn=turn)
    state.options = options_for(state)  # built by hand: what the rules accept in it
    return state


def run(args: argparse.Namespace) -> int:
    state = state_for(args)
    rules, turn = state.rules, state.turn
    advisor = cached_advisor()
    out = {"rules": args.rules, "turn_total": turn.total, "dice": turn.dice_to_roll}
    if rules.entry_minimum:
        out["on_board"] = state.players[0].on_board
    if turn.phase is Phase.OVER:
        out |= {"zonk": True, "note": "nothing scores: the turn ends with a zonk"}
        print(json.dumps(out))
        return 0
    if turn.total % advisor.model(rules).step:
        raise UserError(
            f"--turn-total {turn.total} is not a total {rules.name} can reach "
            f"(every total is a multiple of {advisor.model(rules).step})"
        )
    advice = advisor.advise(state)
    assert advice is not None
    out |= advice.to_json()
    if args.roll:
        out["thrown"] = [str(d) if d.color else d.value for d in turn.roll]
    if args.score is not None and advice.win_chance is None:
        reason = unsupported(rules)
        out["note"] = (
            f"no win chance: {reason}"
            if reason
            else f"no two-player table for {rules.name}: build it with "
            f"zonkcam solve --rules {args.rules}"
        )
    print(json.dumps(out))
    return 0
