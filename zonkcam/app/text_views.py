"""The terminal's views of a game: the status line, what players owe, the keeps, the
scoreboard, the score sheet and the odds, each as text (the text mode prints them;
``zonkcam games`` shows the board).
"""

from __future__ import annotations

from collections.abc import Callable

from zonkcam.advisor.advice import Advisor, Objective, best_words, worth
from zonkcam.game.rules import End
from zonkcam.game.state import GameState, Phase, PlayerState


def status_line(state: GameState) -> str:
    """One line: whose turn, what they must do, the turn total."""
    if state.finished:
        return state.log[-1] if state.log else "game over"
    if state.phase is Phase.SETUP or state.player is None:
        return "no players are seated yet: type their names, e.g. Ann Bob Cy"
    p, t = state.player, state.turn
    who = state.shown_name(p)
    if state.rules.end is End.TURNS:
        who += f" (turn {p.turns + 1} of {state.rules.turns})"
    bank = state.options.bank
    match state.phase:
        case Phase.ROLL:
            extra = " (or bank)" if bank else ""
            if state.options.piggyback:
                extra += (
                    f" (or pig: take over {state.offer.total} with {_dice_word(state.offer.dice)})"
                )
            todo = f"roll {_dice_word(t.dice_to_roll)}{extra}"
        case Phase.DECIDE:
            todo = "keep scoring dice, or bank" if bank else "keep scoring dice"
        case Phase.PAIR:
            todo = "reroll the pair, or pass"
        case Phase.GO_FOR_1000:
            todo = f"roll one die (needs a {t.missing_face})"
        case _:
            todo = "?"
    return f"{who}: {todo} | turn total {t.total}"


def drinks_line(state: GameState) -> str:
    """Who owes how many drinks, or "" when nobody does."""
    return _owed(state, "DRINKS DUE", lambda p: p.drinks_due, "drunk when they are drunk")


def owed_lines(state: GameState) -> list[str]:
    """What players still owe the table, a line each: drinks to drink, drinks to hand out,
    drinking rules to make (and the word that marks them done); none where nothing is."""
    lines = [
        drinks_line(state),
        _owed(state, "TO HAND OUT", lambda p: p.handouts_due, "handed when they are handed out"),
        _owed(state, "RULES TO MAKE", lambda p: p.rules_due, "ruled when they are made"),
    ]
    return [line for line in lines if line]


def _owed(state: GameState, title: str, due: Callable[[PlayerState], int], word: str) -> str:
    owing = [p for p in state.players if due(p)]
    if not owing:
        return ""
    shown = ", ".join(f"{state.shown_name(p)} {due(p)}" for p in owing)
    return f"{title}: {shown} (type {word})"


def _dice_word(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def keeps_text(state: GameState) -> str:
    """The legal keeps, numbered for #N, and going for 1000 after them where it is allowed
    (numbered as `odds` numbers them)."""
    score = state.turn.score
    if state.phase is not Phase.DECIDE or score is None:
        return "no roll to keep from"
    lines = [
        f"  #{i} keep {' '.join(map(str, k.dice)):<12} {k.points:>6}  {', '.join(k.combos)}"
        for i, k in enumerate(score.keeps, start=1)
    ]
    if state.options.go_for_1000:
        missing = next(f for f in range(1, 7) if f not in {d.value for d in score.dice})
        lines.append(
            f"  #{len(lines) + 1} {'go for 1000':<17} {state.rules.go_for_1000:>6}  "
            f"roll one die alone: a {missing} scores it, anything else is a zonk (or type go)"
        )
    return "\n".join(lines)


TURN_MARK = "*"
"""Marks the player whose turn it is on the scoreboard (not ``>``: that is the prompt)."""


def board_text(state: GameState, *, header: bool = False) -> str:
    """The scoreboard, a player a line, the player whose turn it is marked
    :data:`TURN_MARK`; with ``header``, a line naming the columns first (the other cells
    carry their names)."""
    rules = state.rules
    lines = [f"  {'player':<14} {'score':>6}"] if header and state.players else []
    for p in state.players:
        mark = TURN_MARK if p is state.player and not state.finished else " "
        cells = [f"{mark} {state.shown_name(p):<14} {p.score:>6}"]
        if rules.bees:
            cells.append(f"B {p.bees:>2}")
        if rules.end is End.TURNS:
            cells.append(f"turns {p.turns:>2}/{rules.turns}")
        cells.append(f"zonks {p.zonks}")
        if rules.entry_minimum:
            cells.append("on board" if p.on_board else "not on board")
        if rules.drinking.penalties or rules.drinking.board_images:
            cells.append(
                f"drinks due {p.drinks_due}  to hand out {p.handouts_due}  "
                f"rules to make {p.rules_due}"
            )
        if p.spaced:
            cells.append("SPACED")
        if p.left:
            cells.append("(left)")
        if rules.bees and p.sheet:
            cells.append(f"last turn: {p.sheet[-1]}")
        lines.append("  ".join(cells))
    if state.final_round_by is not None and not state.finished:
        lines.append("  FINAL ROUND")
    return "\n".join(lines)


def sheet_text(state: GameState) -> str:
    """The score sheet: per turn, each player's game total (with B's) or zonk."""
    players = state.players
    if not players:
        return "no players yet"
    turns = max(len(p.sheet) for p in players)
    if not turns:
        return "the score sheet is empty: nobody has finished a turn yet"
    columns = [[state.shown_name(p), *p.sheet] for p in players]
    widths = [max(len(cell) for cell in column) for column in columns]
    rows = [["turn", *(c[0] for c in columns)]]
    rows += [[str(i), *(c[i] if i < len(c) else "" for c in columns)] for i in range(1, turns + 1)]
    return "\n".join(
        "  "
        + "  ".join(
            [row[0].rjust(4)] + [cell.ljust(w) for cell, w in zip(row[1:], widths, strict=True)]
        ).rstrip()
        for row in rows
    )


_OBJECTIVES = {
    Objective.POINTS: "expected points",
    Objective.WIN: "chance to win",
    Objective.LAST_TURN: "last turn: chance to beat the leader",
}


def odds_text(state: GameState, advisor: Advisor) -> str:
    """What the advisor says for the current state, for the terminal."""
    advice = advisor.advise(state)
    if advice is None:
        return "no odds: nobody is to play"
    who = state.shown_name(state.player) if state.player else "?"
    lines = [f"odds for {who} ({_OBJECTIVES[advice.objective]}):"]
    if advice.zonk_chance is not None:
        lines.append(f"  nothing scores on the next roll: {advice.zonk_chance:.1%}")
    bank = worth(advice, advice.bank) if advice.bank is not None else "not allowed"
    lines.append(f"  bank {bank}  |  roll on {worth(advice, advice.roll)}")
    for i, k in enumerate(advice.keeps, start=1):
        after = "" if k.bank is None else f"  bank {worth(advice, k.bank)}"
        left = f"{k.dice_left} {'die' if k.dice_left == 1 else 'dice'}"
        lines.append(
            f"  #{i} {k.label:<16} roll on {worth(advice, k.roll)}{after}  "
            f"({left}, nothing scores {k.zonk_chance:.1%})"
        )
    if advice.win_chance is not None:
        lines.append(f"  chance to win: {advice.win_chance:.1%}")
    lines.append(
        f"  best: {best_words(advice, state)}" + (f" ({advice.note})" if advice.note else "")
    )
    return "\n".join(lines)
