"""The terminal scorekeeper: type rolls, keeps and table actions; every accepted one is saved.

``TextPlay`` runs the prompt loop over a :class:`LoggedGame` (each line read by
:mod:`zonkcam.app.text_grammar`, shown with :mod:`zonkcam.app.text_views`);
:func:`run_text` is ``zonkcam play --text``: it resumes the unfinished game (asking
which, as the table's set-up screen does) or seats a new one, with line editing at a
terminal, and ends on Ctrl-C, SIGTERM or SIGHUP with every action saved.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from zonkcam.advisor.advice import Advisor
from zonkcam.app.games import (
    new_game,
    resume,
    resume_command,
    shown_players,
    unfinished_games,
)
from zonkcam.app.text_grammar import HELP, parse_line, player_names
from zonkcam.app.text_views import (
    board_text,
    keeps_text,
    odds_text,
    owed_lines,
    sheet_text,
    status_line,
)
from zonkcam.errors import UserError
from zonkcam.game import actions as A
from zonkcam.game.engine import check_namer
from zonkcam.game.errors import RulesError, TableError
from zonkcam.game.game import Game
from zonkcam.game.names import counted, escaped, quoted, unprintable
from zonkcam.game.rules import PRESETS, RuleSet, load_rules
from zonkcam.game.state import GameState, Phase
from zonkcam.places import xdg_folder
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.record.win_tables import cached_advisor

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
        logged: LoggedGame,
        read: Callable[[str], str] | None = None,
        write: Callable[[str], None] = _print_now,
        *,
        resume_command: str | None = None,
        advisor: Advisor | None = None,
    ) -> None:
        self.logged = logged
        self.read = read or (lambda prompt: input(prompt))
        """Reads a typed line (``input``, with line editing where readline is loaded)."""
        self._write = write
        self.prompt = "> " if sys.stdin.isatty() else ""
        self.resume_command = resume_command or f"zonkcam play --text --resume {logged.game_id}"
        """Printed at the end: how to come back to this game."""
        self.advisor = advisor if advisor is not None else Advisor()
        """Answers ``odds`` (:func:`run_text` hands in the app's, with the stored
        two-player tables; a plain one without)."""

    def write(self, text: str) -> None:
        """Print ``text``; whatever is not printable in a line shows as an escape."""
        self._write("\n".join(escaped(line) for line in text.split("\n")))

    def run(self) -> bool:
        """Play typed lines until quit or the end of input; whether the game ended saved
        (False when the log went away under it)."""
        state = self.logged.state
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
                    if self.logged.saves_stuck:
                        break  # the log cannot be written for a while: said below
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: every accepted action is saved
            self.write("")
        gone = self.logged.log_is_gone()
        if gone:
            self.write(f"! {gone}")
            return False
        stuck = self.logged.cannot_save(self.resume_command)
        if stuck:
            self.write(f"! {stuck}")
            return False
        if self.logged.state.finished:  # nothing to resume
            self.write(f"Game {self.logged.game_id} saved: it is over")
            return True
        self.write(f"Game {self.logged.game_id} saved; resume with: {self.resume_command}")
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
        state = self.logged.state
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
            new = self.logged.play(action)
        except (TableError, UserError) as exc:
            self.write(f"! {exc}")
            return True
        log = new.log[seen:] if not isinstance(action, A.Undo) else new.log[-1:]
        shown = log[:-1] if new.finished else log  # GAME OVER: the status line, once, below
        for entry in shown:
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
            if not self._name(joined.name):
                return False
            new = self.logged.state
        self.write(status_line(new))
        return True

    def _name(self, player: str) -> bool:
        """Ask who gives ``player`` (a real name) a zonk name, and the name (Enter skips);
        a chooser who is not playing, or who is ``player``, is refused before the name is
        asked. Both are called as the table shows them (``Player 4`` until named), never
        by a real name. False when the answer is quit (or the input ends)."""
        state = self.logged.state
        called = state.shown_name(state.find(player))
        while True:
            namer = self._answer(
                f"Who chooses a zonk name for {called}? (a player's name; Enter to skip) "
            )
            if not namer:
                return namer is not None
            try:
                chooser = check_namer(self.logged.state, player, namer)[1]
            except TableError as exc:
                self.write(f"! {exc}")
                continue
            name = self._answer(
                f"{self.logged.state.shown_name(chooser)}, the zonk name for {called}: "
            )
            if not name:
                return name is not None
            try:
                state = self.logged.play(A.ZonkName(player, name, namer))
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
            elif not self._name(state.find(player).name):
                return False
            else:
                self.write(status_line(self.logged.state))
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


def history_path() -> Path | None:
    """``$XDG_STATE_HOME/zonkcam/text-history`` (normally ~/.local/state); None where
    there is no home folder to keep it in."""
    try:
        base = xdg_folder("XDG_STATE_HOME", ".local/state", "the typed lines")
    except UserError:
        return None
    return base / "zonkcam" / "text-history"


def line_editing(path: Path | None) -> None:
    """Arrow keys, Ctrl-A/E and the lines of earlier sessions at the prompt (the standard
    library's readline, where Python has it); the history is saved at exit (none kept
    without a `path`)."""
    try:
        import readline
    except ImportError:
        return
    if path is None:
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
        logged = _game_to_play(log, args)
        print(f"Game {logged.game_id}: {escaped(logged.state.rules.name)} (type help for commands)")
        saved = TextPlay(
            logged, resume_command=resume_command(args, logged.game_id), advisor=cached_advisor()
        ).run()
    return 0 if saved else 1


def _game_to_play(log: EventLog, args: argparse.Namespace) -> LoggedGame:
    """The game ``--resume`` names; else, as the table app does, the unfinished game:
    with ``--players`` or ``--rules`` the latest is resumed (they seat a new game only
    when none is in play), without them the unfinished games are named and the answer
    (Enter: the latest) picks one, or ``new``; ``--new`` or no unfinished game: a new
    game's set-up."""
    if args.resume:
        return resume(log, args.resume)
    unfinished = [] if args.new else unfinished_games(log)
    if not unfinished:
        return _new_text_game(log, args)
    latest = unfinished[-1]
    if args.players or args.rules:
        print(f"Resuming unfinished game {latest.id} (start another with --new)")
        return resume(log, str(latest.id))
    for game in unfinished:
        players = shown_players(log, game)
        print(
            f"Unfinished game {game.id}: {escaped(game.rules_name)}, {escaped(players)} "
            f"({counted(game.events, 'action')})"
        )
    numbers = {str(g.id): g.id for g in unfinished}
    while True:
        answer = _ask(
            f"Resume game {latest.id}? (Enter: yes; new: a new game"
            + ("; or another game's number" if len(unfinished) > 1 else "")
            + ") "
        ).lower()
        if answer in ("", "y", "yes"):
            return resume(log, str(latest.id))
        if answer in ("new", "n", "no"):
            return _new_text_game(log, args)
        if answer.lstrip("#") in numbers:
            return resume(log, answer.lstrip("#"))
        print(
            f"! Enter resumes game {latest.id}, new starts another game"
            + (f", or type one of {', '.join(numbers)}" if len(unfinished) > 1 else "")
        )


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
    logged = new_game(log, rules, names)
    if rules.drinking.zonk_names:
        _zonk_names(logged, names)
    return logged


def _zonk_names(logged: LoggedGame, names: list[str]) -> None:
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
                logged.play(A.ZonkName(player, name, namer))
                break
            except TableError as exc:
                print(f"! {exc}")
