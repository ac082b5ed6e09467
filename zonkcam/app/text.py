"""The terminal scorekeeper: type rolls, keeps and table actions; every accepted one is saved.

``parse_line`` turns one typed line into a table action (or a display command) for the
current state; ``TextPlay`` runs the prompt loop over a :class:`LoggedGame`.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from zonkcam.advisor.advice import Advisor, Objective, best_words, worth
from zonkcam.app.games import new_game, resume, resume_command
from zonkcam.errors import UserError
from zonkcam.game import actions as A
from zonkcam.game.dice import Die, parse_typed_dice
from zonkcam.game.engine import allowed, check_namer, may_bank
from zonkcam.game.errors import RulesError, TableError
from zonkcam.game.game import Game
from zonkcam.game.names import escaped, quoted, unprintable
from zonkcam.game.rules import PRESETS, End, RuleSet, load_rules
from zonkcam.game.scoring import colours_needed
from zonkcam.game.state import GameState, Phase, PlayerState
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog

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
        if image == "choose" and not who.strip():
            raise InputError("land choose NAME: say who drinks")
        return A.Land(image, who.strip() or None)
    if word in ("join", "leave") and rest:
        return A.Join(rest) if word == "join" else A.Leave(rest)
    if word in ("roll", "r"):
        return _roll(parse_typed_dice(rest), state)
    if word in ("keep", "k"):
        return A.Keep(tuple(sorted(d.value for d in parse_typed_dice(rest))))
    if text.startswith("#"):
        keeps = state.turn.score.keeps if state.turn.score and state.phase is Phase.DECIDE else ()
        go = len(keeps) + 1 if keeps and allowed(state, A.GoFor1000()) else 0
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
        dice = parse_typed_dice(text)
        if state.phase is Phase.DECIDE:
            return A.Keep(tuple(sorted(d.value for d in dice)))
        return _roll(dice, state)
    raise InputError(f"not a command: {quoted(text)} (type help)")


def _roll(dice: tuple[Die, ...], state: GameState) -> A.Roll:
    """A typed roll; asked again with colours where colour pairs would score more."""
    question = colours_needed(state.rules, dice)
    if question:
        raise InputError(question)
    return A.Roll(dice)


def player_names(text: str) -> list[str]:
    """Names as typed: separated by spaces, or by commas where a name has a space."""
    parts = text.split(",") if "," in text else text.split()
    return [name.strip() for name in parts if name.strip()]


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
    bank = may_bank(state)
    match state.phase:
        case Phase.ROLL:
            extra = " (or bank)" if t.bank_ok and bank else ""
            if state.offer and not t.rolls and not t.piggybacked:
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
    if allowed(state, A.GoFor1000()):
        missing = next(f for f in range(1, 7) if f not in {d.value for d in score.dice})
        lines.append(
            f"  #{len(lines) + 1} {'go for 1000':<17} {state.rules.go_for_1000:>6}  "
            f"roll one die alone: a {missing} scores it, anything else is a zonk (or type go)"
        )
    return "\n".join(lines)


def board_text(state: GameState) -> str:
    rules = state.rules
    lines = []
    for p in state.players:
        mark = ">" if p is state.player and not state.finished else " "
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


_print_now = functools.partial(print, flush=True)


STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""End a text game like Ctrl-C: the resume line, the writer claim given back, exit status 0."""


@contextlib.contextmanager
def _stop_signals_interrupt() -> Iterator[None]:
    """Inside the block SIGTERM (a kill, systemd) and SIGHUP (the terminal closed) raise
    KeyboardInterrupt, as Ctrl-C does; their handlers are as they were after it."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread can take signals
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = {sig: signal.signal(sig, interrupt) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


class TextPlay:
    """The prompt loop: read a line, play it, print what happened."""

    def __init__(
        self,
        keeper: LoggedGame,
        read: Callable[[str], str] | None = None,
        write: Callable[[str], None] = _print_now,
        *,
        resume_command: str | None = None,
        advisor: Advisor | None = None,
    ) -> None:
        self.keeper = keeper
        self.read = read or (lambda prompt: input(prompt))
        """Reads a typed line (``input``, with line editing where readline is loaded)."""
        self._write = write
        self.prompt = "> " if sys.stdin.isatty() else ""
        self.resume_command = resume_command or f"zonkcam play --text --resume {keeper.game_id}"
        """Printed at the end: how to come back to this game."""
        self._advisor = advisor

    def write(self, text: str) -> None:
        """Print ``text``; whatever is not printable in a line shows as an escape."""
        self._write("\n".join(escaped(line) for line in text.split("\n")))

    @property
    def advisor(self) -> Advisor:
        if self._advisor is None:
            from zonkcam.record.win_tables import cached_advisor

            self._advisor = cached_advisor()
        return self._advisor

    def run(self) -> bool:
        """Play typed lines until quit or the end of input; whether the game ended saved
        (False when the log went away under it)."""
        state = self.keeper.state
        self.write(board_text(state))
        for line in (*owed_lines(state), status_line(state)):
            self.write(line)
        try:
            with _stop_signals_interrupt():
                while True:
                    line = self.ask(self.prompt)
                    if line is None:
                        break
                    if line.strip() and not self.handle(line):
                        break
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: every accepted action is saved
            self.write("")
        gone = self.keeper.log_is_gone()
        if gone:
            self.write(f"! {gone}")
            return False
        if self.keeper.state.finished:  # nothing to resume
            self.write(f"Game {self.keeper.game_id} saved: it is over")
            return True
        self.write(f"Game {self.keeper.game_id} saved; resume with: {self.resume_command}")
        return True

    def ask(self, prompt: str) -> str | None:
        """The next typed line (None at the end of input); a line that is not UTF-8 is
        refused and asked for again."""
        while True:
            try:
                return self.read(prompt)
            except EOFError:
                return None
            except UnicodeDecodeError:
                self.write("! that line is not UTF-8 text; type it again")

    def handle(self, line: str) -> bool:
        """Play one typed line; False to stop."""
        state = self.keeper.state
        line = line.replace("\t", " ")
        if unprintable(line):
            self.write(
                "! that line has characters that are not printable text (or not "
                "UTF-8); type it again"
            )
            return True
        try:
            action = parse_line(line, state)
            if isinstance(action, str):
                return self._view(action, state, line)
            seen = len(state.log)
            new = self.keeper.play(action)
        except (TableError, UserError) as exc:
            self.write(f"! {exc}")
            return True
        log = new.log[seen:] if not isinstance(action, A.Undo) else new.log[-1:]
        for entry in log:
            self.write(f"  {entry}")
        if new.phase is Phase.DECIDE:
            self.write(keeps_text(new))
        if (
            new.finished
            or isinstance(action, A.Players)
            or any(not e.startswith(("HOT", "GO FOR")) and " banks " in e for e in log)
        ):
            self.write(board_text(new))
        before = owed_lines(state)
        for due in owed_lines(new):
            if due not in before:
                self.write(due)
        joined = new.find(action.name) if isinstance(action, A.Join) else None
        if joined is not None and new.rules.drinking.zonk_names and not joined.zonk_name:
            if not self._name(joined.name, action.name):
                return False
            new = self.keeper.state
        self.write(status_line(new))
        return True

    def _name(self, player: str, called: str) -> bool:
        """Ask who gives ``player`` (as the scorekeeper typed them: ``called``) a zonk name,
        and the name (Enter skips); a chooser who is not playing, or who is ``player``, is
        refused before the name is asked. False when the answer is quit (or the input ends)."""
        while True:
            namer = self._answer(
                f"Who chooses a zonk name for {called}? (a player's name; Enter to skip) "
            )
            if not namer:
                return namer is not None
            try:
                check_namer(self.keeper.state, player, namer)
            except TableError as exc:
                self.write(f"! {exc}")
                continue
            name = self._answer(f"{namer}, the zonk name for {called}: ")
            if not name:
                return name is not None
            try:
                state = self.keeper.play(A.ZonkName(player, name, namer))
            except (TableError, UserError) as exc:
                self.write(f"! {exc}")
                continue
            self.write(f"  {state.log[-1]}")
            return True

    def _answer(self, prompt: str) -> str | None:
        """An answer to a question: "" to skip it, None for quit or the end of input."""
        line = self.ask(prompt)
        if line is None or line.strip().lower() in ("quit", "q", "exit"):
            return None
        return "" if unprintable(line) else line.strip()

    def _view(self, name: str, state: GameState, line: str = "") -> bool:
        if name == "quit":
            return False
        if name == "odds":
            self.write(odds_text(state, self.advisor))
            return True
        if name == "zonkname":
            player = line.strip().partition(" ")[2].strip()
            if not state.rules.drinking.zonk_names:
                self.write(f"! the {state.rules.name} table does not use zonk names")
            elif state.find(player) is None:
                self.write(f"! no player called {quoted(player)}")
            elif not self._name(state.find(player).name, player):
                return False
            else:
                self.write(status_line(self.keeper.state))
            return True
        text = {
            "help": HELP,
            "keeps": keeps_text(state),
            "board": board_text(state),
            "sheet": sheet_text(state),
            "log": "\n".join(state.log),
        }[name]
        self.write(text)
        return True


# -- a text-mode session: set-up and line editing ------------------------------------------

HISTORY_LINES = 1000
"""Typed lines kept for the arrow keys between sessions."""


def history_path() -> Path:
    """``$XDG_STATE_HOME/zonkcam/text-history`` (normally ~/.local/state)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return Path(base) / "zonkcam" / "text-history"


def line_editing(path: Path) -> None:
    """Arrow keys, Ctrl-A/E and the lines of earlier sessions at the prompt (the standard
    library's readline, where Python has it); the history is saved at exit."""
    try:
        import readline
    except ImportError:
        return
    readline.set_history_length(HISTORY_LINES)
    try:
        readline.read_history_file(path)
    except OSError:
        pass  # the first session, or an unreadable file: start without

    def save() -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(path)
        except OSError:
            pass  # history is a convenience: never a reason to fail

    atexit.register(save)


def run_text(args: argparse.Namespace) -> int:
    """`zonkcam play --text`: a new or resumed game kept in the terminal."""
    if hasattr(sys.stdin, "reconfigure"):
        # bytes that are not UTF-8 reach the scorekeeper as a line it refuses, not a crash
        sys.stdin.reconfigure(errors="surrogateescape")
    if sys.stdin.isatty():
        line_editing(history_path())
    with EventLog(args.db) as log:
        keeper = resume(log, args.resume) if args.resume else _new_text_game(log, args)
        print(f"Game {keeper.game_id}: {escaped(keeper.state.rules.name)} (type help for commands)")
        saved = TextPlay(keeper, resume_command=resume_command(args, keeper.game_id)).run()
    return 0 if saved else 1


def _ask(prompt: str) -> str:
    while True:
        try:
            answer = input(prompt).strip()
        except EOFError:
            raise UserError("no answer (end of input); nothing was saved") from None
        except KeyboardInterrupt:
            print()
            raise UserError("stopped before the game began; nothing was saved") from None
        if answer.lower() in ("quit", "q", "exit"):
            raise UserError("stopped before the game began; nothing was saved")
        if not unprintable(answer):
            return answer
        print("! that answer has characters that are not printable text; type it again")


def _new_text_game(log: EventLog, args: argparse.Namespace) -> LoggedGame:
    """Seat a new game: what the command line does not give is asked, the same way at a
    terminal and through a pipe (so the same lines give the same game). ``--players``
    seats at once, at ``--rules`` or classic-10000; without it the rules and then the
    players are asked. On a table with zonk names every player is asked for one."""
    rules = load_rules(args.rules) if args.rules else None  # a wrong name: before the names
    if args.players:
        return _seated(log, rules or PRESETS["classic-10000"], list(args.players))
    if rules is None:
        print("Tables: " + ", ".join(PRESETS) + " (or a .toml file)")
        while rules is None:
            try:
                rules = load_rules(_ask("Rules [classic-10000]: ") or "classic-10000")
            except RulesError as exc:
                print(f"! {exc}")
    while True:
        names = player_names(
            _ask("Players, in turn order (Ann Bob Cy; commas between names with spaces): ")
        )
        if not names:
            continue
        try:
            Game(rules, [A.Players(tuple(names))])
        except TableError as exc:
            print(f"! {exc}")
            continue
        return _seated(log, rules, names)


def _seated(log: EventLog, rules: RuleSet, names: list[str]) -> LoggedGame:
    keeper = new_game(log, rules, names)
    if rules.drinking.zonk_names:
        _zonk_names(keeper, names)
    return keeper


def _zonk_names(keeper: LoggedGame, names: list[str]) -> None:
    """Each player names the player to their left, so nobody names themself."""
    if len(names) < 2:
        return
    print("Zonk names: only these are shown, and nobody names themself.")
    for i, namer in enumerate(names):
        player = names[(i + 1) % len(names)]
        while True:
            name = _ask(f"{namer}, choose a zonk name for {player}: ")
            if not name:
                print(f"! {player} needs a zonk name: the drinking table shows only those")
                continue
            try:
                keeper.play(A.ZonkName(player, name, namer))
                break
            except TableError as exc:
                print(f"! {exc}")
