"""What the terminal scorekeeper's typed lines mean: :func:`parse_line` turns one line into
a table action (or the name of a view command) for the current state; :data:`HELP` lists
them.
"""

from __future__ import annotations

import re

from zonkcam.game import actions as A
from zonkcam.game.dice import COLOURS, DETROIT_DICE, Die, parse_typed_dice
from zonkcam.game.engine import check_colours_left
from zonkcam.game.errors import TableError
from zonkcam.game.names import quoted
from zonkcam.game.scoring import colours_needed
from zonkcam.game.state import GameState, Phase

HELP = """\
Type the dice as digits: 12466 or 1 2 4 6 6 (detroit colours: 2w 2w 3r 3r 4g 4g).
  After a roll, digits are the keep; #N picks keep N from the list.
  roll DICE / keep DICE   say which explicitly
  b, bank                 bank the turn total (straight after a roll: its best keep)
  u, undo                 take back the last action
  reroll, pass            two-dice pair: throw again, or take the zonk
  go                      go for 1000 (all-johnnys)
  pig                     piggyback on the last bank's dice (chicago, detroit)
  spaced NAME, sloppy     drinking penalties
  land left|right|social, land choose NAME   a scoring die touched a board image
  drunk, drunk NAME       the drinks due are drunk (everyone's, or NAME's)
  handed, handed NAME     the drinks to hand out are handed out (everyone's, or NAME's)
  ruled, ruled NAME       the drinking rules to make are made (everyone's, or NAME's)
  join NAME, leave NAME   players joining and leaving
  zonkname NAME           give NAME a zonk name (drinking)
  keeps, board, sheet     the legal keeps, the scoreboard, each player's score sheet
  log, odds               the whole log; zonk chance, bank against rolling on, best keep
  help, quit              (arrow keys edit the line and bring back earlier ones)"""

_SIMPLE = {
    "b": A.Bank,
    "bank": A.Bank,
    "u": A.Undo,
    "undo": A.Undo,
    "reroll": A.Reroll,
    "pass": A.Pass,
    "go": A.GoFor1000,
    "pig": A.Piggyback,
    "piggyback": A.Piggyback,
    "sloppy": lambda: A.Penalty(A.PenaltyKind.SLOPPY),
    "drunk": A.Drunk,
    "handed": A.HandedOut,
    "ruled": A.RuleMade,
}
_VIEWS = {"keeps", "board", "sheet", "log", "odds", "help", "?", "quit", "q", "exit"}


COLOURS_BY_NAME = {name: letter for letter, name in COLOURS.items()}
_LETTERS = re.compile(r"[^\W\d_]+")
"""Runs of letters in a typed line (colours, or typos)."""


class InputError(TableError):
    """A typed line that is not a command."""


def parse_line(line: str, state: GameState) -> A.Action | str:
    """The action a typed line stands for, or the name of a view command (``zonkname``
    asks for the name itself)."""
    text = line.strip()
    word, _, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    if word in _VIEWS:
        return {"?": "help", "q": "quit", "exit": "quit"}.get(word, word)
    if state.phase is Phase.SETUP:  # a game stored without its players: seat them
        return A.Players(tuple(player_names(text)))
    if word in _SIMPLE and not rest:
        return _SIMPLE[word]()
    if word in ("drunk", "handed", "ruled"):
        return _SIMPLE[word](rest)
    if word == "zonkname" and rest:
        return "zonkname"
    if word == "spaced":
        return A.Penalty(A.PenaltyKind.SPACED, rest or None)
    if word == "land":
        image, _, who = rest.partition(" ")
        if image not in A.BOARD_IMAGES:
            raise InputError("land left, land right, land social or land choose NAME")
        landing = A.Landing(image)
        if landing is A.Landing.CHOOSE and not who.strip():
            raise InputError("land choose NAME: say who drinks")
        return A.Land(landing, who.strip() or None)
    if word in ("join", "leave") and rest:
        return A.Join(rest) if word == "join" else A.Leave(rest)
    if word in ("roll", "r"):
        return _roll(_typed_dice(rest, state), state)
    if word in ("keep", "k"):
        return A.Keep(tuple(sorted(d.value for d in _typed_dice(rest, state))))
    if text.startswith("#"):
        keeps = state.options.keeps
        go = len(keeps) + 1 if keeps and state.options.go_for_1000 else 0
        number = text[1:].strip()
        if not (
            number.isascii()
            and number.isdigit()
            and len(number) < 4
            and 1 <= int(number) <= max(len(keeps), go)
        ):
            raise InputError(f"no keep {quoted(text)}: type keeps to list them")
        if int(number) == go:
            return A.GoFor1000()
        return A.Keep(keeps[int(number) - 1].dice)
    if text and text[0].isdigit():
        dice = _typed_dice(text, state)
        if state.phase is Phase.DECIDE:
            return A.Keep(tuple(sorted(d.value for d in dice)))
        return _roll(dice, state)
    raise InputError(f"not a command: {quoted(text)} (type help)")


def _typed_dice(text: str, state: GameState) -> tuple[Die, ...]:
    """Typed dice; a letter that is not one of the table's colours is refused as the typo
    it is (a table without colours takes digits only)."""
    rules = state.rules
    colours = {c: COLOURS_BY_NAME[c] for c in DETROIT_DICE} if rules.points.colour_pairs else {}
    for word in _LETTERS.findall(text):
        if word.lower() in colours or word.lower() in colours.values():
            continue
        if not colours:
            raise InputError(
                f"cannot read dice from {quoted(text)}: type values 1-6, e.g. 12466 or "
                f"1 2 4 6 6 (the {rules.name} table's dice have no colours)"
            )
        shown = ", ".join(f"{letter} {name}" for name, letter in colours.items())
        raise InputError(
            f"cannot read dice from {quoted(text)}: {quoted(word)} is not a colour of the "
            f"{rules.name} table's dice ({shown})"
        )
    return parse_typed_dice(text)


def _roll(dice: tuple[Die, ...], state: GameState) -> A.Roll:
    """A typed roll; asked again with colours where colour pairs would score more, and
    refused where it has more dice of a colour than are left to roll."""
    question = colours_needed(state.rules, dice)
    if question:
        raise InputError(question)
    check_colours_left(state, dice)
    return A.Roll(dice)


def player_names(text: str) -> list[str]:
    """Names as typed: separated by spaces, or by commas where a name has a space."""
    parts = text.split(",") if "," in text else text.split()
    return [name.strip() for name in parts if name.strip()]
