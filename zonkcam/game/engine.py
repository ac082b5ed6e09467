"""The rules of play: how each table action changes the game.

``apply(state, action)`` returns a new state and never changes the one it is given, so an
illegal action (which raises a :class:`~zonkcam.game.errors.TableError`) leaves the game
exactly as it was. A game is ``functools.reduce(apply, actions, new_game(rules))``.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterable

from zonkcam.game import actions as A
from zonkcam.game.dice import DETROIT_DICE, Die
from zonkcam.game.errors import (
    BadDiceError,
    BankError,
    GameOverError,
    PlayerError,
    TableError,
    TurnError,
)
from zonkcam.game.names import counted, name_problem
from zonkcam.game.rules import End, HotDice, RuleSet, WinnerBy
from zonkcam.game.scoring import LegalKeep, RollContext, score_roll
from zonkcam.game.state import (
    GameState,
    Options,
    Phase,
    PiggybackOffer,
    PlayerState,
    TurnState,
    seat_number,
)

MAX_PLAYERS = 20
"""Players at one table, those who left included (they stay on the score card)."""


def new_game(rules: RuleSet) -> GameState:
    return GameState(rules=rules)


def replay(rules: RuleSet, actions: Iterable[A.Action]) -> GameState:
    """Fold actions over a new game (``Undo`` is handled by :class:`zonkcam.game.game.Game`)."""
    return functools.reduce(apply, actions, new_game(rules))


def apply(state: GameState, action: A.Action) -> GameState:
    """The state after ``action``; raises TableError (and changes nothing) if it is illegal."""
    s = state.fork()
    s.banners = []
    step(s, action)
    return s


def allowed(state: GameState, action: A.Action) -> bool:
    """Whether the rules accept ``action`` now, by trying it (nothing changes either way).
    What the current player may do next is ``state.options``, worked out already."""
    try:
        apply(state, action)
    except TableError:
        return False
    return True


def step(s: GameState, action: A.Action, *, options: bool = True) -> None:
    """Apply ``action`` to ``s`` in place (``s`` is garbage if this raises); its options
    are then what the rules accept next. Without ``options`` they are left as they were:
    for a fold that works them out (:func:`options_for`) only for the states it keeps."""
    if isinstance(action, A.Undo):
        raise TurnError("undo is handled by the game's event log, not by the rules")
    if s.finished and not isinstance(action, A.ZonkName | A.Drunk | A.HandedOut | A.RuleMade):
        raise GameOverError(f"the game is over ({_result(s)}); start a new one")
    if s.phase is Phase.SETUP and not isinstance(action, A.Players):
        raise TurnError('seat the players first, e.g. {"players": ["Ann", "Bob"]}')
    handler = _HANDLERS.get(type(action))
    if handler is None:  # pragma: no cover - every action type has a handler
        raise TableError(f"unknown action {action!r}")
    handler(s, action)
    if options:
        s.options = options_for(s)


def options_for(s: GameState) -> Options:
    """What the rules accept from the current player in ``s``: the handlers' own checks,
    without trying any action. :func:`step` gives each state its own; a state built or
    changed by hand (a what-if, a test) gets them from here."""
    t, rules, phase = s.turn, s.rules, s.turn.phase
    if phase is Phase.DECIDE:
        assert t.score is not None
        keeps, dice = t.score.keeps, t.dice_to_roll
        return Options(
            keeps=keeps,
            dice_after=tuple(dice - len(k.dice) or rules.dice for k in keeps),
            bank=_passes(_bank_total, s),
            go_for_1000=rules.go_for_1000 and _one_die_away(s),
        )
    if phase is Phase.ROLL:
        return _rolling(
            t.dice_to_roll,
            bank=t.bank_ok and _passes(_bank_total, s),
            piggyback=rules.piggyback and _piggyback_now(s),
        )
    return _rolling(1) if phase is Phase.GO_FOR_1000 else _AT_PAIR if phase is Phase.PAIR else _NONE


@functools.cache
def _rolling(dice: int, *, bank: bool = False, piggyback: bool = False) -> Options:
    """The options before a roll (a few, kept: they are the same each turn)."""
    return Options(roll=dice, bank=bank, piggyback=piggyback)


_AT_PAIR = Options(pair=True)
_NONE = Options()


def _passes(check: Callable[[GameState], object], s: GameState) -> bool:
    """Whether ``check`` lets ``s`` through (it raises TableError where it does not)."""
    try:
        check(s)
    except TableError:
        return False
    return True


# -- seating ------------------------------------------------------------------------------


def _players(s: GameState, a: A.Players) -> None:
    if s.phase is not Phase.SETUP:
        raise TurnError("the players are already seated; use join or leave")
    if not a.names:
        raise PlayerError("a game needs at least one player")
    if len(a.names) > MAX_PLAYERS:
        raise PlayerError(f"a table seats at most {MAX_PLAYERS} players, not {len(a.names)}")
    seen: set[str] = set()
    for name in a.names:
        _check_name(s, name, "a player's name")
        if name.casefold() in seen:
            raise PlayerError(f"two players are called {name!r}: give one a different name")
        seen.add(name.casefold())
    s.players = [PlayerState(name) for name in a.names]
    s.current = 0
    _start_turn(s)
    shown = [s.shown_name(p) for p in s.players]  # seats, on a table with zonk names
    s.log.append(f"Players: {', '.join(shown)} ({shown[0]} starts)")


def _join(s: GameState, a: A.Join) -> None:
    _check_name(s, a.name, "a player's name")
    existing = s.find(a.name)
    if existing is not None and not existing.left:
        raise PlayerError(f"{a.name} is already playing")
    if existing is not None:
        existing.left = False
        s.log.append(f"{s.shown_name(existing)} rejoins with {existing.score}")
        return
    if len(s.players) >= MAX_PLAYERS:
        raise PlayerError(f"a table seats at most {MAX_PLAYERS} players (those who left included)")
    s.players.append(PlayerState(a.name))
    s.log.append(f"{s.shown_name(s.players[-1])} joins the game")


def _leave(s: GameState, a: A.Leave) -> None:
    p = _player(s, a.name)
    p.left = True
    s.log.append(f"{s.shown_name(p)} leaves the game")
    if p is s.player:
        _end_turn(s, counts=False)
    elif not s.active:
        _finish(s)


def check_namer(s: GameState, player: str, by: str) -> tuple[PlayerState, PlayerState]:
    """The player to be given a zonk name and the player who chooses it (``by``), as the
    rules accept them before the name itself is known; raises TableError (which says why)
    where the table has no zonk names, either is not playing, or ``by`` is ``player``."""
    if not s.rules.drinking.zonk_names:
        raise TableError(f"the {s.rules.name} table does not use zonk names")
    target, namer = _player(s, player), _player(s, by)
    if target is namer:
        raise PlayerError(f"nobody names themself: {by} cannot choose their own zonk name")
    return target, namer


def _zonk_name(s: GameState, a: A.ZonkName) -> None:
    target, namer = check_namer(s, a.player, a.by)
    _check_name(s, a.name, "a zonk name")
    clash = s.find(a.name)
    if clash is not None and clash is not target:
        raise PlayerError(f"{a.name!r} is already a player's name or zonk name")
    was = s.shown_name(target)
    target.zonk_name = a.name
    s.log.append(f"{s.shown_name(namer)} names {was} {a.name!r}")


def _check_name(s: GameState, name: str, what: str) -> None:
    problem = name_problem(name, what)
    if not problem and s.rules.drinking.zonk_names and seat_number(name) is not None:
        problem = f"{what} {name.strip()!r} is how this table shows a player without a zonk name"
    if problem:
        raise PlayerError(problem)


def _player(s: GameState, name: str) -> PlayerState:
    p = s.find(name)
    if p is None:
        known = ", ".join(s.shown_name(q) for q in s.active) or "nobody yet"
        raise PlayerError(f"no player called {name!r} (playing: {known})")
    if p.left:
        raise PlayerError(f"{name} has left the game")
    return p


# -- rolling ------------------------------------------------------------------------------


def _roll(s: GameState, a: A.Roll) -> None:
    t, rules, who = s.turn, s.rules, _who(s)
    if s.phase not in (Phase.ROLL, Phase.GO_FOR_1000):
        raise TurnError(_expecting(s))
    n = 1 if s.phase is Phase.GO_FOR_1000 else t.dice_to_roll
    if len(a.dice) != n:
        raise BadDiceError(f"{who} must roll {n} {'die' if n == 1 else 'dice'}, not {len(a.dice)}")
    _check_colours(rules, a.dice)
    first = t.rolls == 0 and not t.piggybacked
    t.rolls += 1
    s.offer = None
    s.log.append(f"{who} rolls {' '.join(map(str, a.dice))}")
    if s.phase is Phase.GO_FOR_1000:
        if a.dice[0].value == t.missing_face:
            t.total += rules.go_for_1000
            s.log.append(
                f"GO FOR 1000: {who} makes 1-2-3-4-5-6, +{rules.go_for_1000} (turn {t.total})"
            )
            s.banners.append("GO FOR 1000")
            _hot_dice(s)
        else:
            _zonk(s, note="go for 1000")
        return
    context = RollContext(
        full_roll=n == rules.dice,
        carried=t.carried,
        set_aside=t.set_aside,
        set_aside_points=t.set_aside_points,
    )
    score = score_roll(rules, a.dice, context)
    t.roll, t.score, t.kept = a.dice, score, None
    if not score.zonk:
        t.phase = Phase.DECIDE
        return
    if rules.two_dice_pair_reroll and n == 2 and a.dice[0].value == a.dice[1].value:
        t.phase = Phase.PAIR
        s.log.append(f"PAIR: {who} may re-roll the two dice")
        return
    _zonk(s, newbie=first and rules.newbie, dice=n)


def _check_colours(rules: RuleSet, dice: tuple[Die, ...]) -> None:
    if rules.points.colour_pairs and any(d.color for d in dice):
        other = sorted({d.color for d in dice if d.color not in DETROIT_DICE})
        if other:
            raise BadDiceError(
                f"the {rules.name} table's dice are {_listed(dict.fromkeys(DETROIT_DICE))}, "
                f"not {_listed(other)}"
            )
        for colour in {d.color for d in dice}:
            if sum(d.color == colour for d in dice) > 2:
                raise BadDiceError(
                    f"the {rules.name} table has two dice of each colour, "
                    f"not {sum(d.color == colour for d in dice)} {colour}"
                )


def check_colours_left(s: GameState, dice: tuple[Die, ...]) -> None:
    """Raises BadDiceError where a coloured roll has more dice of a colour than the table
    has left to roll after the dice set aside in this cycle (``1w 5w`` once both whites
    are kept); a keep that could have taken either of two colours counts either way. The
    text mode asks it of a typed roll; the camera's colours only count where they fit."""
    rules, t = s.rules, s.turn
    if not rules.points.colour_pairs or not any(d.color for d in dice):
        return
    rolled = Counter(d.color for d in dice if d.color)
    pairs = DETROIT_DICE.count  # each colour's dice at the table
    fits = [
        aside
        for aside in t.aside_colours
        if all(n + aside.count(c) <= pairs(c) for c, n in rolled.items())
    ]
    if fits:
        return
    for colour, n in sorted(rolled.items()):
        kept = min(aside.count(colour) for aside in t.aside_colours)
        if n + kept > pairs(colour):
            raise BadDiceError(
                f"{counted(n, f'{colour} die', f'{colour} dice')} cannot be rolled: "
                f"{kept} of the {rules.name} table's {pairs(colour)} {colour} dice "
                f"{'is' if kept == 1 else 'are'} set aside this turn"
            )
    ways = " or ".join(" ".join(aside) for aside in sorted(t.aside_colours))
    raise BadDiceError(
        f"these colours do not fit the dice set aside this turn (they are {ways}): "
        f"type the colours the dice left show"
    )


def _listed(items: Iterable[str]) -> str:
    words = list(items)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _reroll(s: GameState, a: A.Reroll) -> None:
    if s.phase is not Phase.PAIR:
        raise TurnError("a re-roll is only for a two-dice pair with nothing scoring")
    s.turn.phase = Phase.ROLL
    s.turn.bank_ok = False
    s.log.append(f"{_who(s)} re-rolls the pair")


def _pass(s: GameState, a: A.Pass) -> None:
    if s.phase is not Phase.PAIR:
        raise TurnError("pass is only for declining a two-dice pair re-roll")
    _zonk(s, dice=2)


def _go_for_1000(s: GameState, a: A.GoFor1000) -> None:
    t, rules = s.turn, s.rules
    if not rules.go_for_1000:
        raise TableError(f"the {rules.name} table has no go for 1000")
    if not _one_die_away(s):
        raise TurnError(
            "go for 1000 needs the turn's first roll to be one die away from "
            "1-2-3-4-5-6 (five different faces, one twice)"
        )
    faces = {d.value for d in t.roll or ()}
    t.missing_face = next(f for f in range(1, 7) if f not in faces)
    t.phase = Phase.GO_FOR_1000
    t.score = None
    s.log.append(f"GO FOR 1000: {_who(s)} rolls one die needing a {t.missing_face}")


def _one_die_away(s: GameState) -> bool:
    """Whether the roll on the table is the turn's first, of all the dice, and one die away
    from 1-2-3-4-5-6 (five different faces, one twice): where go for 1000 may follow."""
    t, dice = s.turn, s.rules.dice
    roll = t.roll or ()
    return (
        s.phase is Phase.DECIDE
        and t.rolls == 1
        and not t.piggybacked
        and len(roll) == dice
        and len({d.value for d in roll}) == dice - 1
    )


def _piggyback(s: GameState, a: A.Piggyback) -> None:
    t = s.turn
    if not s.rules.piggyback:
        raise TableError(f"the {s.rules.name} table has no piggyback")
    if not _piggyback_now(s):
        raise TurnError(
            "piggyback is only at the start of a turn, straight after a player "
            "banked with dice left"
        )
    assert s.offer is not None
    t.total, t.dice_to_roll, t.piggybacked, t.bank_ok = s.offer.total, s.offer.dice, True, False
    s.log.append(
        f"PIGGYBACK: {_who(s)} takes over {s.offer.total} with "
        f"{s.offer.dice} {'die' if s.offer.dice == 1 else 'dice'} from {s.offer.by}"
    )
    s.banners.append("PIGGYBACK")
    s.offer = None


def _piggyback_now(s: GameState) -> bool:
    """Whether the turn is at its start straight after a bank with dice left (an offer)."""
    t = s.turn
    return s.offer is not None and s.phase is Phase.ROLL and not t.rolls and not t.piggybacked


# -- keeping and banking -------------------------------------------------------------------


def _keep(s: GameState, a: A.Keep) -> None:
    if s.phase is not Phase.DECIDE:
        raise TurnError(_expecting(s))
    assert s.turn.score is not None
    _set_aside(s, s.turn.score.keep_for(a.values))


def _set_aside(s: GameState, keep: LegalKeep) -> None:
    t, rules = s.turn, s.rules
    t.total += keep.points
    t.kept = keep
    t.set_aside += keep.dice
    t.set_aside_points += keep.points
    if rules.points.colour_pairs and any(d.color for d in t.roll or ()):
        t.aside_colours = frozenset(
            tuple(sorted(aside + kept))
            for aside in t.aside_colours
            for kept in _kept_colours(t.roll or (), keep.dice)
        )
    if rules.carry_over_extras:
        t.carried |= keep.triples
    remaining = t.dice_to_roll - len(keep.dice)
    s.log.append(
        f"{_who(s)} keeps {' '.join(map(str, keep.dice))} for {keep.points} "
        f"({', '.join(keep.combos)}; turn {t.total})"
    )
    if remaining == 0:
        _hot_dice(s)
    else:
        t.phase, t.dice_to_roll, t.bank_ok = Phase.ROLL, remaining, rules.bank_after_keep


def _kept_colours(roll: tuple[Die, ...], values: tuple[int, ...]) -> set[tuple[str, ...]]:
    """The colours a keep of ``values`` may have taken from a coloured roll, sorted: one
    tuple for each way to pick them (``1w 1r`` kept as one 1: white, or red)."""
    ways: set[tuple[str, ...]] = {()}
    for value, n in Counter(values).items():
        colours = sorted(d.color for d in roll if d.value == value and d.color)
        picks = set(itertools.combinations(colours, n)) if len(colours) >= n else {()}
        ways = {tuple(sorted(way + pick)) for way in ways for pick in picks}
    return ways


def _hot_dice(s: GameState) -> None:
    t, rules = s.turn, s.rules
    t.phase, t.dice_to_roll = Phase.ROLL, rules.dice
    t.set_aside, t.set_aside_points, t.carried = (), 0, frozenset()
    t.aside_colours = frozenset({()})
    t.bank_ok = rules.hot_dice is HotDice.MAY and rules.bank_after_keep
    s.log.append("HOT DICE")
    s.banners.append("HOT DICE")


def _bank(s: GameState, a: A.Bank) -> None:
    p, t = s.player, s.turn
    assert p is not None
    total, left = _bank_total(s)
    if s.phase is Phase.DECIDE:
        assert t.score is not None and t.score.best is not None
        best = t.score.best
        s.log.append(
            f"{_who(s)} takes the points: {' '.join(map(str, best.dice))} for "
            f"{best.points} ({', '.join(best.combos)})"
        )
    _credit(s, p, total)
    if s.rules.piggyback and left and not s.finished:
        s.offer = PiggybackOffer(total, left, _who(s))
    _end_turn(s)


def _bank_total(s: GameState) -> tuple[int, int]:
    """What a bank now adds to the current player's score and the dice it leaves (to
    piggyback on); TableError where the rules refuse a bank: the phase, hot dice, the entry
    and bank minimums."""
    t, rules, p = s.turn, s.rules, s.player
    phase = t.phase
    assert p is not None
    if phase is Phase.DECIDE:
        assert t.score is not None and t.score.best is not None
        best = t.score.best
        if len(best.dice) == t.dice_to_roll and rules.hot_dice is HotDice.MUST:
            raise BankError(
                f"no bank straight after this roll: its best keep "
                f"({' '.join(map(str, best.dice))}) sets every die aside (hot dice), and "
                f"at the {rules.name} table all {rules.dice} dice must then be rolled "
                "again: keep them, then roll"
            )
        total, left = t.total + best.points, t.dice_to_roll - len(best.dice)
    elif phase is Phase.ROLL and t.bank_ok:
        total, left = t.total, (0 if t.dice_to_roll == rules.dice else t.dice_to_roll)
    elif phase is Phase.ROLL and t.rolls:
        if t.dice_to_roll == rules.dice and rules.hot_dice is HotDice.MUST:
            raise BankError(
                f"{_who(s)} set every die aside (hot dice), so must roll all {rules.dice} "
                "dice again before banking"
            )
        raise BankError(f"{_who(s)} set dice aside, so must roll again before banking")
    elif phase is Phase.ROLL:
        raise BankError(f"{_who(s)} must roll before banking")
    else:
        raise TurnError(_expecting(s))
    if not p.on_board and total < rules.entry_minimum:
        raise BankError(
            f"{_who(s)} needs {rules.entry_minimum} in one turn to get on the board "
            f"(turn total {total})"
        )
    if total < rules.bank_minimum:
        raise BankError(f"no bank under {rules.bank_minimum} turn points (turn total {total})")
    return total, left


def _credit(s: GameState, p: PlayerState, total: int) -> None:
    rules, drink, who = s.rules, s.rules.drinking, s.shown_name(p)
    old, new = p.score, p.score + total
    p.score, p.on_board, p.zonks_in_a_row = new, True, 0
    s.log.append(f"{who} banks {total} (total {new})")
    barriers = new // 1000 - old // 1000
    bees = 0
    if rules.bees and barriers:
        bees = barriers
        p.bees += bees
        p.frame_earned = True
        s.log.append(f"{who} crosses {barriers} barrier{'s' if barriers > 1 else ''}: +{bees} B")
    p.sheet.append(f"{new} (+{bees})" if bees else str(new))
    if drink.barrier_handouts and barriers:
        n = barriers * len(s.active)
        p.handouts += n
        s.log.append(f"{who} hands out {counted(n, 'drink')}")
        s.banners.append("HAND OUT")
    made = 0
    if drink.rule_turn_over and total > drink.rule_turn_over:
        made += 1
    for mark in drink.rule_first_to:
        if mark not in s.firsts_reached and new >= mark:
            s.firsts_reached |= {mark}
            made += 1
    if new in drink.rule_exact:
        made += 1
    if made:
        p.rules += made
        s.log.append(f"MAKE A RULE: {who} makes {made} drinking rule{'s' if made > 1 else ''}")
        s.banners.append("MAKE A RULE")
    if new >= rules.target and rules.end is End.INSTANT:
        s.winners = [p.name]
        _finish(s)
    elif new >= rules.target and rules.end is End.FINAL_ROUND and s.final_round_by is None:
        s.final_round_by = s.current
        s.log.append(f"FINAL ROUND: {who} reached {rules.target}; everyone else gets one more turn")
        s.banners.append("FINAL ROUND")


# -- zonks, penalties, drinks ---------------------------------------------------------------


def _zonk(s: GameState, *, newbie: bool = False, dice: int = 0, note: str = "") -> None:
    rules, p, who = s.rules, s.player, _who(s)
    assert p is not None
    p.zonks += 1
    s.log.append(f"{who} zonks")
    s.banners.append("ZONK")
    bees = 0
    if newbie:
        bees += 1
        s.log.append(f"NEWBIE: {who} +1 B")
        s.banners.append("NEWBIE")
    if rules.frames:
        p.frame_zonks += 1
        if p.frame_zonks == 3:
            # (a frame is earned by a barrier crossed in it; a newbie gives its B anyway)
            if p.frame_earned:
                bees += 1
                s.log.append(f"FRAME: {who}'s third zonk closes an earned frame, +1 B")
            elif newbie:
                bees += 1
                s.log.append(f"FRAME: {who}'s newbie closes an unearned frame, +1 B")
            else:
                s.log.append(f"FRAME: {who}'s third zonk closes an unearned frame")
            s.banners.append("FRAME")
            p.frame_zonks, p.frame_earned = 0, False
    p.bees += bees
    marks = [note] if note else []
    if rules.three_zonk_penalty:
        p.zonks_in_a_row += 1
        if p.zonks_in_a_row == 3:
            p.zonks_in_a_row = 0
            p.score -= rules.three_zonk_penalty
            marks.append(f"-{rules.three_zonk_penalty}")
            s.log.append(f"THREE ZONKS: {who} loses {rules.three_zonk_penalty} (total {p.score})")
            s.banners.append("THREE ZONKS")
    if newbie:
        marks.append("newbie")
    elif dice >= 5 and rules.bees:  # the all-johnnys sheet marks zonks with 5 or 6 dice
        marks.append(f"{dice} dice")
    p.sheet.append(
        "Z" + (f" ({', '.join(marks)})" if marks else "") + (f" (+{bees})" if bees else "")
    )
    _end_turn(s)


def _penalty(s: GameState, a: A.Penalty) -> None:
    if not s.rules.drinking.penalties:
        raise TableError(f"the {s.rules.name} table has no penalties")
    p = _player(s, a.player) if a.player else s.player
    assert p is not None
    who = s.shown_name(p)
    if a.kind is A.PenaltyKind.SPACED:
        p.spaced += 1
        p.drinks += 1
        s.log.append(f"SPACED: {who} loses their next turn and drinks")
        s.banners.append("SPACED")
        return
    if p is not s.player:
        raise TurnError(f"only the roller throws a sloppy die; it is {_who(s)}'s turn")
    p.drinks += 1
    s.log.append(f"SLOPPY: {who} drinks and scores nothing (a die fell off the table)")
    s.banners.append("SLOPPY")
    p.sheet.append("S")
    _end_turn(s)


def _land(s: GameState, a: A.Land) -> None:
    t = s.turn
    if not s.rules.drinking.board_images:
        raise TableError(f"the {s.rules.name} table has no board images")
    if t.score is None or t.score.zonk or s.phase not in (Phase.DECIDE, Phase.ROLL):
        raise TurnError("a board image counts only for a scoring die of the roll on the table")
    if a.image is A.Landing.CHOOSE:
        if not a.player:
            raise TableError('"choose": say who drinks, e.g. {"land": "choose", "player": "Ann"}')
        drinkers = [_player(s, a.player)]
    elif a.player:
        raise TableError(f'"{a.image}" decides who drinks by itself; "player" is only for choose')
    elif a.image is A.Landing.SOCIAL:
        drinkers = s.active
    else:
        drinkers = [_neighbour(s, +1 if a.image is A.Landing.LEFT else -1)]
    for p in drinkers:
        p.drinks += 1
    names = "everyone" if a.image is A.Landing.SOCIAL else s.shown_name(drinkers[0])
    s.log.append(f"DRINK {a.image.upper()}: {names} drinks")
    s.banners.append(f"DRINK: {a.image.upper()}")


def _drunk(s: GameState, a: A.Drunk) -> None:
    drink = s.rules.drinking
    if not (drink.penalties or drink.board_images):
        raise TableError(f"the {s.rules.name} table has no drinks")
    if a.player:
        p = _player(s, a.player)
        if not p.drinks_due:
            raise PlayerError(f"{s.shown_name(p)} owes no drink")
        owing = [p]
    else:
        owing = [p for p in s.players if p.drinks_due]
        if not owing:
            raise PlayerError("nobody owes a drink")
    done = ", ".join(f"{s.shown_name(p)} {p.drinks_due}" for p in owing)
    for p in owing:
        p.drunk = p.drinks
    s.log.append(f"DRUNK: {done}")


def _handed(s: GameState, a: A.HandedOut) -> None:
    if not s.rules.drinking.barrier_handouts:
        raise TableError(f"the {s.rules.name} table has no hand-outs")
    for p in _settled(s, a.player, lambda p: p.handouts_due, "drinks to hand out", "HANDED OUT"):
        p.handed = p.handouts


def _ruled(s: GameState, a: A.RuleMade) -> None:
    drink = s.rules.drinking
    if not (drink.rule_turn_over or drink.rule_first_to or drink.rule_exact):
        raise TableError(f"the {s.rules.name} table has no drinking rules to make")
    for p in _settled(s, a.player, lambda p: p.rules_due, "drinking rules to make", "RULES MADE"):
        p.made = p.rules


def _settled(
    s: GameState, name: str | None, due: Callable[[PlayerState], int], what: str, heading: str
) -> list[PlayerState]:
    """``name``'s player, or everyone, with ``due`` owed (PlayerError where nobody owes),
    logged under ``heading`` with what each owes; the caller marks it paid."""
    if name:
        p = _player(s, name)
        if not due(p):
            raise PlayerError(f"{s.shown_name(p)} has no {what}")
        owing = [p]
    else:
        owing = [p for p in s.players if due(p)]
        if not owing:
            raise PlayerError(f"nobody has {what}")
    s.log.append(f"{heading}: " + ", ".join(f"{s.shown_name(p)} {due(p)}" for p in owing))
    return owing


def _neighbour(s: GameState, direction: int) -> PlayerState:
    """The next active player to the left (+1, next in turn order) or right (-1)."""
    n = len(s.players)
    for k in range(1, n + 1):
        p = s.players[(s.current + direction * k) % n]
        if not p.left:
            return p
    raise PlayerError("nobody is left at the table")  # pragma: no cover


# -- turns ---------------------------------------------------------------------------------


def _start_turn(s: GameState) -> None:
    s.turn = TurnState(phase=Phase.ROLL, dice_to_roll=s.rules.dice)


def _end_turn(s: GameState, *, counts: bool = True) -> None:
    p = s.player
    if p is not None and counts:
        p.turns += 1
    if s.finished:
        s.turn = TurnState(phase=Phase.OVER)
        return
    _start_turn(s)
    n = len(s.players)
    idx = s.current
    for _ in range(4 * n + 4):
        idx = (idx + 1) % n
        if s.final_round_by is not None and idx == s.final_round_by:
            _finish(s)
            return
        if not s.active or (
            s.rules.end is End.TURNS and all(q.turns >= s.rules.turns for q in s.active)
        ):
            _finish(s)
            return
        q = s.players[idx]
        if q.left or (s.rules.end is End.TURNS and q.turns >= s.rules.turns):
            continue
        if q.spaced:
            q.spaced -= 1
            q.turns += 1
            q.sheet.append("spaced")
            s.log.append(f"{s.shown_name(q)} is spaced and loses this turn")
            continue
        s.current = idx
        return
    _finish(s)  # pragma: no cover - the loop always finds a player or finishes


def _finish(s: GameState) -> None:
    s.finished = True
    s.turn = TurnState(phase=Phase.OVER)
    s.offer = None
    if not s.winners and s.active:
        if s.rules.winner_by is WinnerBy.BEES:
            key = lambda p: (p.bees, p.score)  # noqa: E731
        else:
            key = lambda p: (p.score,)  # noqa: E731
        top = max(key(p) for p in s.active)
        s.winners = [p.name for p in s.active if key(p) == top]
    s.log.append(f"GAME OVER: {_result(s)}")
    s.banners.append("WINNER")


def _result(s: GameState) -> str:
    names = [s.shown_name(p) for w in s.winners if (p := s.find(w)) is not None]
    if not names:
        return "no winner"
    if len(names) > 1:
        return "a tie between " + " and ".join(names)
    return f"{names[0]} wins"


def _who(s: GameState) -> str:
    return s.shown_name(s.player) if s.player else "nobody"


def _expecting(s: GameState) -> str:
    """What the table is waiting for, as a sentence (for out-of-order actions)."""
    t, who = s.turn, _who(s)
    match s.phase:
        case Phase.ROLL:
            bank = " or bank" if t.bank_ok and _passes(_bank_total, s) else ""
            dice = "1 die" if t.dice_to_roll == 1 else f"{t.dice_to_roll} dice"
            return f"{who} must roll {dice} next{bank}"
        case Phase.DECIDE:
            bank = " (or bank)" if _passes(_bank_total, s) else ""
            return f"{who} must keep scoring dice from the roll{bank}"
        case Phase.PAIR:
            return f"{who} rolled a pair: re-roll it or pass"
        case Phase.GO_FOR_1000:
            return f"{who} is going for 1000 and must roll one die"
        case _:
            return "the game is not in play"


_HANDLERS = {
    A.Players: _players,
    A.Join: _join,
    A.Leave: _leave,
    A.ZonkName: _zonk_name,
    A.Roll: _roll,
    A.Reroll: _reroll,
    A.Pass: _pass,
    A.GoFor1000: _go_for_1000,
    A.Piggyback: _piggyback,
    A.Keep: _keep,
    A.Bank: _bank,
    A.Penalty: _penalty,
    A.Land: _land,
    A.Drunk: _drunk,
    A.HandedOut: _handed,
    A.RuleMade: _ruled,
}
