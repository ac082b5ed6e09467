"""The terminal scorekeeper: typed lines become the right table actions."""

from __future__ import annotations

import pytest

from zonkcam.advisor.advice import Advisor, best_words
from zonkcam.app.text import TextPlay
from zonkcam.app.text_grammar import parse_line
from zonkcam.game import PRESETS, Game, TableError, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog


@pytest.fixture
def game():
    return Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])


def test_digits_are_a_roll_then_a_keep(game):
    assert parse_line("12466", game.state) == A.Roll(parse_dice([1, 2, 4, 6, 6]))
    assert parse_line("1 2 4 6 6", game.state) == A.Roll(parse_dice([1, 2, 4, 6, 6]))
    game.play(A.Roll(parse_dice([1, 5, 5, 6, 6])))
    assert parse_line("51", game.state) == A.Keep((1, 5))
    assert parse_line("#1", game.state) == A.Keep((1, 5, 5))
    assert parse_line("keep 5", game.state) == A.Keep((5,))


def test_words(game):
    assert parse_line("b", game.state) == A.Bank()
    assert parse_line("undo", game.state) == A.Undo()
    assert parse_line("spaced Bob", game.state) == A.Penalty("spaced", "Bob")
    assert parse_line("land choose Bob", game.state) == A.Land("choose", "Bob")
    assert parse_line("leave Ann", game.state) == A.Leave("Ann")
    detroit = Game(PRESETS["detroit"], [A.Players(("Ann", "Bob"))]).state
    assert parse_line("roll 2w 2w 3r 3r 4g 4g", detroit) == A.Roll(
        parse_dice(["2w", "2w", "3r", "3r", "4g", "4g"])
    )
    assert parse_line("help", game.state) == "help"


@pytest.mark.parametrize("line", ["foo", "1x9", "land up", "#3", "keep"])
def test_nonsense_is_refused(game, line):
    with pytest.raises(TableError):
        parse_line(line, game.state)


def test_session_prints_refusals_and_saves(tmp_path):
    typed = iter(["12466", "2", "1", "b", "board", "quit"])
    shown: list[str] = []
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"])
        logged.play(A.Players(("Ann", "Bob")))
        TextPlay(logged, read=lambda _: next(typed), write=shown.append).run()
        stored = log.actions(logged.game_id)
    text = "\n".join(shown)
    assert "every kept die must be part of a scoring combination" in text
    assert "needs 1000 in one turn to get on the board" in text
    assert stored[1:] == [A.Roll(parse_dice([1, 2, 4, 6, 6])), A.Keep((1,))]
    assert "resume with: zonkcam play --text --resume 1" in shown[-1]


def test_bytes_that_are_not_utf8_at_a_strict_terminal_are_one_line(tmp_path):
    import os
    import subprocess
    import sys

    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "zonkcam",
            "play",
            "--text",
            "--db",
            str(tmp_path / "g.db"),
            "--players",
            "Ann",
            "Bob",
        ],
        input=b"\xff\xfe12\n23466\njoin Z\x1b[2Jed\nquit\n",
        capture_output=True,
        timeout=60,
        env=dict(os.environ, PYTHONIOENCODING="utf-8:strict"),
    )
    out = proc.stdout.decode()
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    refusals = [x for x in out.splitlines() if x.startswith("! ")]
    assert len(refusals) == 2 and all("not printable text" in x for x in refusals)
    assert "Ann zonks" in out and "\x1b" not in out
    with EventLog(tmp_path / "g.db") as log:
        assert len(log.actions(1)) == 2


def test_a_line_the_terminal_cannot_decode_is_refused(game, tmp_path):
    lines = iter([None, "quit"])

    def read(_prompt):
        line = next(lines)
        if line is None:
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
        return line

    shown: list[str] = []
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann",))])
        TextPlay(logged, read=read, write=shown.append).run()
    assert "! that line is not UTF-8 text; type it again" in shown


def test_odds_shows_the_advice_for_the_current_state(tmp_path):
    typed = iter(["odds", "15533", "odds", "quit"])
    shown: list[str] = []
    advisor = Advisor()
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, PRESETS["chicago"])
        logged.play(A.Players(("Ann", "Bob")))
        TextPlay(logged, read=lambda _: next(typed), write=shown.append, advisor=advisor).run()
        state = logged.state
    odds = [s for s in shown if s.startswith("odds for Ann")]
    assert len(odds) == 2
    first, second = odds
    assert "nothing scores on the next roll: 7.7%" in first  # five dice: 25/324
    assert "bank not allowed  |  roll on 340" in first
    assert "best: roll 5 dice" in first
    advice = advisor.advise(state)
    assert f"best: {best_words(advice, state)}" in second
    assert "#1 keep 1 5 5" in second and "roll on" in second
    assert f"bank {advice.bank:,.0f}" in second


def test_odds_is_a_view_word(game):
    assert parse_line("odds", game.state) == "odds"


# -- no dead ends ------------------------------------------------------------------------------


def session(tmp_path, rules, typed, players=("Ann", "Bob"), *, logged=None):
    """Play typed lines through the terminal scorekeeper; what it printed, and the game."""
    lines = iter(typed)

    def read(_prompt):
        line = next(lines, None)
        if line is None:
            raise EOFError
        if isinstance(line, BaseException):
            raise line
        return line

    shown: list[str] = []
    log = EventLog(tmp_path / "g.db")
    if logged is None:
        logged = LoggedGame.new(log, PRESETS[rules], [A.Players(tuple(players))])
    TextPlay(logged, read=read, write=shown.append, advisor=Advisor()).run()
    log.close()
    return "\n".join(shown), logged.state


def test_hash_zero_is_no_keep(game):
    game.play(A.Roll(parse_dice([1, 5, 5, 6, 6])))
    for line in ("#0", "#-1", "# 9", "#x"):
        with pytest.raises(TableError, match="no keep"):
            parse_line(line, game.state)
    keeps = game.state.turn.score.keeps
    assert parse_line(f"#{len(keeps)}", game.state) == A.Keep(keeps[-1].dice)


def test_bank_is_offered_only_where_the_rules_allow_it(tmp_path):
    # Ann is not on the board (1,000 to get on): neither 100 nor its roll can be banked
    out, _ = session(tmp_path, "classic-10000", ["12346", "1", "quit"])
    assert "Ann: keep scoring dice | turn total 0" in out
    assert "Ann: roll 4 dice | turn total 100" in out
    assert "(or bank)" not in out and "or bank |" not in out
    out, _ = session(tmp_path, "classic-10000", ["11123", "111", "quit"])
    assert "Ann: keep scoring dice, or bank | turn total 0" in out
    assert "Ann: roll 2 dice (or bank) | turn total 1000" in out


def test_land_choose_without_a_name_is_answered_in_words(tmp_path):
    out, state = session(tmp_path, "drinking", ["12346", "land choose", "land choose Bob", "quit"])
    assert "! land choose NAME: say who drinks" in out and "{" not in out
    assert state.players[1].drinks_due == 1


def test_one_undo_too_many_at_the_start_and_play_goes_on(tmp_path):
    out, state = session(tmp_path, "classic-10000", ["u", "12466", "join Cy", "quit"])
    assert "! nothing to undo: the game starts with its players seated" in out
    assert "Ann rolls 1 2 4 6 6" in out and "Cy joins the game" in out
    assert [p.name for p in state.players] == ["Ann", "Bob", "Cy"]


def test_a_game_stored_without_its_players_is_seated_by_typing_names(tmp_path):
    # a failed start once left such a game in play: resumed it said "?: ? | turn total 0"
    with EventLog(tmp_path / "g.db") as log:
        log.new_game(PRESETS["chicago"])
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.resume(log, 1)
        out, state = session(tmp_path, "chicago", ["Ann Bob", "12466", "quit"], logged=logged)
    assert "no players are seated yet: type their names" in out and "?: ?" not in out
    assert "Players: Ann, Bob (Ann starts)" in out and "Ann rolls 1 2 4 6 6" in out


def test_all_johnnys_shows_the_turn_and_the_score_sheet(tmp_path):
    out, state = session(
        tmp_path,
        "all-johnnys",
        [
            "111235",
            "b",  # Ann: 1,050 (+1 B) ends her first turn
            "223466",  # Bob: newbie
            "board",
            "sheet",
            "quit",
        ],
        players=("Ann", "Bob"),
    )
    assert "Ann (turn 1 of 21): roll 6 dice" in out
    assert "Ann (turn 2 of 21): roll 6 dice" in out
    board = out[out.rindex("* Ann") :]
    assert "turns  1/21" in board and "last turn: 1050 (+1)" in board
    assert "last turn: Z (newbie) (+1)" in board
    sheet = out[out.index("  turn  Ann") :].splitlines()
    assert sheet[1].split() == ["1", "1050", "(+1)", "Z", "(newbie)", "(+1)"]


ZONK_NAMED = [
    A.Players(("Ann", "Bob", "Cy")),
    A.ZonkName("Bob", "Noodle", "Ann"),
    A.ZonkName("Cy", "Captain", "Bob"),
    A.ZonkName("Ann", "Snake", "Cy"),
]
"""Three at the drinking table, each named by the player on their right."""


def named_session(tmp_path, typed):
    """``session`` at the drinking table, its three players already given zonk names."""
    with EventLog(tmp_path / "named.db") as log:
        logged = LoggedGame.new(log, PRESETS["drinking"], ZONK_NAMED)
        return session(tmp_path, "drinking", typed, logged=logged)


def _typed_at_the_drinking_table(tmp_path, typed):
    """The lines `typed` into the terminal at a drinking game seated as ZONK_NAMED: what
    was asked (each prompt), what was shown, and the game."""
    asked: list[str] = []
    lines = iter(typed)

    def read(prompt):
        asked.append(prompt)
        return next(lines)

    shown: list[str] = []
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, PRESETS["drinking"], ZONK_NAMED)
        TextPlay(logged, read=read, write=shown.append, advisor=Advisor()).run()
    return asked, shown, logged


def test_a_player_joining_the_drinking_table_gets_a_zonk_name(tmp_path):
    asked, shown, logged = _typed_at_the_drinking_table(
        tmp_path, ["join Dee", "Xyz", "Dee", "Snake", "Hoppy", "zonkname Snake", "Me", "quit"]
    )
    out, state = "\n".join(shown), logged.state
    # a chooser who is not playing, or the newcomer, is refused before the name is asked
    # the newcomer is called by their seat, never by their real name
    assert asked[1:5] == [
        "Who chooses a zonk name for Player 4? (a player's name; Enter to skip) ",
        "Who chooses a zonk name for Player 4? (a player's name; Enter to skip) ",
        "Who chooses a zonk name for Player 4? (a player's name; Enter to skip) ",
        "Snake, the zonk name for Player 4: ",
    ]
    assert "! no player called 'Xyz' (playing: Snake, Noodle, Captain, Player 4)" in out
    assert "! nobody names themself" in out
    assert "Player 4 joins the game" in out and "Snake names Player 4 'Hoppy'" in out
    assert [state.shown_name(p) for p in state.players] == ["Snake", "Noodle", "Captain", "Hoppy"]
    # zonkname asks for the player as typed, not by the real name behind it
    assert asked[6] == "Who chooses a zonk name for Snake? (a player's name; Enter to skip) "
    assert "! nobody names themself: Dee cannot choose their own zonk name" in out
    told = [line for line in out.splitlines() if not line.startswith("! ")]  # not echoes
    assert not any(n in line for line in told for n in ("Ann", "Bob", "Cy", "Dee"))


def test_no_real_name_on_the_board_log_or_sheet_of_the_drinking_table(tmp_path):
    out, state = named_session(
        tmp_path,
        ["join Dee", "Noodle", "Hoppy", "12346", "land choose Ann", "spaced Bob", "undo"]
        + ["drunk Ann", "23466", "leave Cy", "board", "log", "sheet", "quit"],
    )
    assert "DRUNK: Snake 1" in out and "UNDO: spaced Noodle" in out
    assert "Players: Player 1, Player 2, Player 3 (Player 1 starts)" in out
    printed = out.replace("Game 1 saved", "")
    for name in ("Ann", "Bob", "Cy", "Dee"):
        assert name not in printed
    assert not any(n in line for line in state.log for n in ("Ann", "Bob", "Cy", "Dee"))


def test_drinks_due_show_and_are_marked_drunk(tmp_path):
    out, state = named_session(
        tmp_path,
        ["12346", "land social", "land left", "drunk Noodle", "drunk", "board", "quit"],
    )
    assert "DRINKS DUE: Snake 1, Noodle 2, Captain 1 (type drunk when they are drunk)" in out
    assert "DRUNK: Noodle 2" in out and "DRUNK: Snake 1, Captain 1" in out
    assert "drinks due 0" in out.splitlines()[-4]
    assert [p.drinks_due for p in state.players] == [0, 0, 0]


def test_hand_outs_and_rules_are_marked_given_and_the_board_shows_what_is_owed(tmp_path):
    # Snake banks 1,550 (the run, then a 5): 3 drinks to hand out and a rule to make
    out, state = named_session(
        tmp_path,
        ["12345", "12345", "52346", "b", "handed Snake", "handed", "ruled", "board", "quit"],
    )
    board = out.splitlines()
    first = board.index("  Snake banks 1550 (total 1550)")
    assert "to hand out 3  rules to make 1" in board[first + 3]  # the board after the bank
    assert "TO HAND OUT: Snake 3 (type handed when they are handed out)" in out
    assert "RULES TO MAKE: Snake 1 (type ruled when they are made)" in out
    assert "  HANDED OUT: Snake 3" in out and "! nobody has drinks to hand out" in out
    assert "  RULES MADE: Snake 1" in out
    snake = next(line for line in board[-6:] if line.lstrip("* ").startswith("Snake"))
    assert "to hand out 0  rules to make 0" in snake
    p = state.players[0]
    assert (p.handouts, p.handouts_due, p.rules, p.rules_due) == (3, 0, 1, 0)
    assert parse_line("handed", state) == A.HandedOut()
    assert parse_line("ruled Noodle", state) == A.RuleMade("Noodle")


def test_ctrl_c_still_says_the_game_is_saved(tmp_path):
    out, state = session(tmp_path, "chicago", ["23466", KeyboardInterrupt()])
    assert out.splitlines()[-1] == "Game 1 saved; resume with: zonkcam play --text --resume 1"
    assert state.log[-1] == "Ann zonks"


def _interactive(monkeypatch, answers):
    import builtins
    import sys

    lines = iter(answers)
    asked: list[str] = []

    def fake_input(prompt=""):
        asked.append(prompt)
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(builtins, "input", fake_input)
    monkeypatch.setattr("zonkcam.app.text.line_editing", lambda path: None)
    return asked


def test_set_up_asks_again_for_a_mistyped_table_and_splits_names_on_spaces(
    tmp_path, monkeypatch, capsys
):
    from zonkcam.cli import main

    asked = _interactive(monkeypatch, ["chicgo", "chicago", "Ann Ann", "Ann Bob Cy", "quit"])
    assert main(["play", "--text", "--db", str(tmp_path / "g.db")]) == 0
    out = capsys.readouterr().out
    assert "! unknown rules 'chicgo'" in out
    assert sum(p.startswith("Rules") for p in asked) == 2
    assert "! two players are called 'Ann'" in out
    with EventLog(tmp_path / "g.db") as log:
        (game,) = log.games()
        assert (game.rules_name, game.players) == ("chicago", ("Ann", "Bob", "Cy"))
    _interactive(monkeypatch, ["", "Ann Marie, Bob", "quit"])
    assert main(["play", "--text", "--db", str(tmp_path / "h.db")]) == 0
    with EventLog(tmp_path / "h.db") as log:
        assert log.games()[0].players == ("Ann Marie", "Bob")


def test_a_mistyped_rules_option_is_refused_before_the_names(tmp_path, capsys, monkeypatch):
    import io
    import sys

    from zonkcam.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # nobody there to type names
    assert main(["play", "--text", "--rules", "nope", "--db", str(tmp_path / "g.db")]) == 2
    assert "unknown rules 'nope'" in capsys.readouterr().err


def test_a_failed_start_leaves_no_game(tmp_path, capsys, monkeypatch):
    import io
    import sys

    from zonkcam.cli import main

    db = str(tmp_path / "g.db")
    assert main(["play", "--text", "--db", db, "--players", "Ann", "Ann"]) == 2
    monkeypatch.setattr(sys, "stdin", io.StringIO("\nAnn Ann\n"))  # then nothing more
    assert main(["play", "--text", "--db", db]) == 2
    captured = capsys.readouterr()
    assert "! two players are called 'Ann'" in captured.out
    assert "no answer (end of input); nothing was saved" in captured.err
    assert main(["games", "--db", db, "list"]) == 0
    assert "no saved games" in capsys.readouterr().out


def test_line_editing_and_history_at_a_terminal(tmp_path):
    # readline at a terminal: an arrow key edits the line, never arrives as a line '\x1b[A'
    import os
    import select
    import subprocess
    import sys
    import time

    db = tmp_path / "g.db"

    def run(keys: list[str]) -> str:
        master, slave = os.openpty()
        seat = ["--resume"] if db.exists() else ["--rules", "chicago", "--players", "Ann", "Bob"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(db), *seat],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(os.environ, TERM="xterm"),
            close_fds=True,
        )
        os.close(slave)
        out = b""

        def read_until(done, timeout: float = 30.0) -> None:
            nonlocal out
            end = time.monotonic() + timeout
            while not done() and time.monotonic() < end:
                if select.select([master], [], [], 0.1)[0]:
                    try:
                        out += os.read(master, 4096)
                    except OSError:  # the other end closed
                        return

        try:
            for key in keys:
                read_until(lambda: out.endswith(b"> "))
                before = len(out)
                os.write(master, key.encode())
                read_until(
                    lambda before=before, key=key: (
                        len(out) > before + len(key) + 2
                        and (out.endswith(b"> ") or b"saved" in out[before:])
                    )
                )
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(master)
        return out.decode(errors="replace")

    first = run(["23466\r", "\x1b[A\r", "quit\r"])  # up arrow: the zonk typed again
    assert "not a command" not in first and "not printable" not in first
    assert "Ann rolls 2 3 4 6 6" in first and "Bob rolls 2 3 4 6 6" in first
    second = run(["\x1b[A\r"])  # the last line of the last session: quit
    assert "Game 1 saved" in second


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_stop_signal_ends_a_text_game_like_ctrl_c(tmp_path, signame):
    """A kill or a closed terminal: the resume line, exit status 0, the writer claim given
    back, and the game's actions all there for --resume."""
    import os
    import signal
    import sqlite3
    import subprocess
    import sys

    db = tmp_path / "g.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(db)]
        + ["--rules", "classic-10000", "--players", "Ann", "Bob"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout.readline().startswith("Game 1")
        proc.stdin.write("11155\n")
        proc.stdin.flush()
        for out in proc.stdout:
            if "Ann rolls 1 1 1 5 5" in out:
                break
        for out in proc.stdout:
            if out.startswith("Ann:"):  # the status line after the roll: it is saved
                break
        proc.send_signal(getattr(signal, signame))
        rest = proc.communicate(timeout=30)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    assert "Game 1 saved; resume with:" in rest and "Traceback" not in rest
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT count(*) FROM writers").fetchone() == (0,)
        assert raw.execute("SELECT count(*) FROM events WHERE game_id = 1").fetchone()[0] >= 2


def test_the_drinking_table_asks_every_player_a_zonk_name_from_someone_else(
    tmp_path, monkeypatch, capsys
):
    from zonkcam.cli import main

    answers = ["drinking", "Ann Bob", "", "Noodle", "Captain", "board", "quit"]
    asked = _interactive(monkeypatch, answers)
    assert main(["play", "--text", "--db", str(tmp_path / "g.db")]) == 0
    out = capsys.readouterr().out
    assert (
        "Ann, choose a zonk name for Bob: " in asked
        and "Bob, choose a zonk name for Ann: " in asked
    )
    assert "! Bob needs a zonk name: the drinking table shows only those" in out  # no skipping
    rows = [line.lstrip("* ").split()[0] for line in out.splitlines() if "drinks due" in line]
    assert rows and set(rows) == {"Captain", "Noodle"}  # the board shows only zonk names
    with EventLog(tmp_path / "g.db") as log:
        (game,) = log.games()
        assert game.players == ("Ann", "Bob")  # the log keeps the names too


def test_piped_lines_give_the_same_game_as_typed_ones(tmp_path, monkeypatch, capsys):
    """The set-up asks the same questions through a pipe as at a terminal: the rules, the
    players and (drinking table) every zonk name, then the game."""
    import io
    import sys

    from zonkcam.cli import main

    lines = ["drinking", "Ann Bob Cy", "Noodle", "Captain", "Snake", "board", "quit"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["play", "--text", "--db", str(tmp_path / "piped.db")]) == 0
    piped = capsys.readouterr().out
    _interactive(monkeypatch, list(lines))
    assert main(["play", "--text", "--db", str(tmp_path / "typed.db")]) == 0
    typed = capsys.readouterr().out
    games = []
    for db in ("piped.db", "typed.db"):
        with EventLog(tmp_path / db) as log:
            (game,) = log.games()
            games.append((game.rules_name, game.players, log.actions(game.id)))
    assert games[0] == games[1]
    assert games[0][:2] == ("drinking", ("Ann", "Bob", "Cy"))
    board = [line for line in piped.splitlines() if "drinks due" in line]
    assert board and not any(name in " ".join(board) for name in ("Ann", "Bob", " Cy"))
    assert [line for line in typed.splitlines() if "drinks due" in line] == board


def test_players_on_the_command_line_still_get_zonk_names_through_a_pipe(
    tmp_path, monkeypatch, capsys
):
    import io
    import sys

    from zonkcam.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("Noodle\nCaptain\nquit\n"))
    argv = ["play", "--text", "--rules", "drinking", "--players", "Ann", "Bob"]
    assert main([*argv, "--db", str(tmp_path / "g.db")]) == 0
    out = capsys.readouterr().out
    assert "Ann, choose a zonk name for Bob: " in out
    with EventLog(tmp_path / "g.db") as log:
        (game,) = log.games()
        names = [a for a in log.actions(game.id) if type(a).__name__ == "ZonkName"]
    assert [(a.player, a.name) for a in names] == [("Bob", "Noodle"), ("Ann", "Captain")]


def test_detroit_asks_for_colours_where_colour_pairs_would_score():
    game = Game(PRESETS["detroit"], [A.Players(("Ann", "Bob"))])
    with pytest.raises(TableError) as info:
        parse_line("223344", game.state)  # no zonk: as three colour pairs it is 1,000
    assert "colour pairs it scores 1,000" in str(info.value)
    assert "2w 2w 3r 3r 4g 4g" in str(info.value)
    with pytest.raises(TableError, match="without colours scores 300"):
        parse_line("roll 1 1 5 5 6 6", game.state)
    coloured = parse_line("2w 2w 3r 3r 4g 4g", game.state)
    assert game.play(coloured).turn.score.best.points == 1_000
    # values that no colours could pair, and colours in other pairs, score as typed
    game = Game(PRESETS["detroit"], [A.Players(("Ann", "Bob"))])
    assert parse_line("223346", game.state) == A.Roll(parse_dice([2, 2, 3, 3, 4, 6]))
    assert game.play(parse_line("2w 2r 3w 3r 4g 4g", game.state)).log[-1] == "Ann zonks"
    # other tables score the values alone
    assert parse_line("223344", Game(PRESETS["all-johnnys"], [A.Players(("Ann",))]).state)


def test_go_for_1000_is_offered_in_the_keeps_and_picked_by_its_number():
    from zonkcam.app.text_views import keeps_text, odds_text

    game = Game(PRESETS["all-johnnys"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 2, 3, 4, 5, 5])))
    keeps = keeps_text(game.state).splitlines()
    assert len(keeps) == len(game.state.turn.score.keeps) + 1
    assert keeps[-1].split()[:4] == ["#6", "go", "for", "1000"] and "a 6 scores it" in keeps[-1]
    # the same number as in odds
    odds = odds_text(game.state, Advisor())
    assert "#6 go for 1000" in odds
    assert parse_line("#6", game.state) == A.GoFor1000()
    assert parse_line("#5", game.state) == A.Keep((5,))
    with pytest.raises(TableError):
        parse_line("#7", game.state)
    # no go for 1000 after the first roll: no row, no number
    game.play(A.Keep((1,)))
    game.play(A.Roll(parse_dice([2, 3, 4, 5, 5])))
    assert "go for 1000" not in keeps_text(game.state)
    with pytest.raises(TableError):
        parse_line(f"#{len(game.state.turn.score.keeps) + 1}", game.state)


def test_the_text_mode_answers_odds_with_the_advisor_the_app_hands_it(
    tmp_path, monkeypatch, capsys
):
    from zonkcam.app import text
    from zonkcam.cli import main

    class Marked(Advisor):
        asked = 0

        def advise(self, state):
            Marked.asked += 1
            return super().advise(state)

    made: list[Advisor] = []
    monkeypatch.setattr(text, "cached_advisor", lambda: made.append(Marked()) or made[-1])
    _interactive(monkeypatch, ["odds", "quit"])
    assert main(["play", "--text", "--players", "Ann", "Bob", "--db", str(tmp_path / "g.db")]) == 0
    assert "odds for Ann" in capsys.readouterr().out
    assert len(made) == 1 and Marked.asked == 1


# -- issue 67: resuming, and small wrong turns -------------------------------------------------


def test_a_drinking_join_asks_by_seat_and_zonk_names_never_real_names(tmp_path):
    """A newcomer is called by their seat, the chooser by their zonk name, whatever the
    scorekeeper typed (the drinking table shows only zonk names)."""
    asked, shown, logged = _typed_at_the_drinking_table(
        tmp_path, ["join Dee", "Ann", "Hoppy", "zonkname Ann", "Bob", "Slinky", "quit"]
    )
    assert asked[1:3] == [
        "Who chooses a zonk name for Player 4? (a player's name; Enter to skip) ",
        "Snake, the zonk name for Player 4: ",
    ]
    assert asked[4:6] == [
        "Who chooses a zonk name for Snake? (a player's name; Enter to skip) ",
        "Noodle, the zonk name for Snake: ",
    ]
    printed = [*shown, *asked[1:3], *asked[4:6]]
    assert not any(n in line for line in printed for n in ("Ann", "Bob", "Cy", "Dee"))
    assert [logged.state.shown_name(p) for p in logged.state.players] == [
        "Slinky",
        "Noodle",
        "Captain",
        "Hoppy",
    ]


def test_game_over_is_printed_once(tmp_path):
    import dataclasses

    rules = dataclasses.replace(PRESETS["chicago"], target=1000)
    shown: list[str] = []
    lines = iter(["11123", "111", "b"])

    def read(_prompt):
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, rules, [A.Players(("Ann", "Bob"))])
        TextPlay(logged, read=read, write=shown.append, advisor=Advisor()).run()
    out = "\n".join(shown)
    assert logged.state.finished
    assert out.count("GAME OVER: Ann wins") == 1, out
    assert shown[-2:] == ["GAME OVER: Ann wins", "Game 1 saved: it is over"]  # after the board
    assert shown[-3].startswith("  Ann              1000")  # the final board


def test_the_board_marks_the_player_to_play_unlike_the_prompt(tmp_path):
    from zonkcam.app.text_views import TURN_MARK, board_text

    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    rows = board_text(game.state).splitlines()
    assert TURN_MARK != ">" and rows[0].startswith(f"{TURN_MARK} Ann")
    assert not any(row.startswith(">") for row in rows)
    assert rows[1].startswith("  Bob")


def detroit_after(*lines):
    """A detroit game with these typed lines played."""
    game = Game(PRESETS["detroit"], [A.Players(("Ann", "Bob"))])
    for line in lines:
        game.play(parse_line(line, game.state))
    return game


def test_detroit_refuses_a_colour_the_table_has_not():
    game = detroit_after()
    with pytest.raises(TableError) as info:
        parse_line("1b 2b 3r 3r 4g 4g", game.state)
    message = str(info.value)
    assert "'b' is not a colour of the detroit table's dice" in message
    assert "w white, r red, g green" in message and "blue" not in message
    # the rules refuse it too, whoever hands it in (blue pairs would score 1,000)
    with pytest.raises(TableError, match="dice are white, red and green, not blue"):
        game.play(A.Roll(parse_dice(["1b", "1b", "3r", "3r", "4g", "4g"])))


def test_detroit_refuses_more_dice_of_a_colour_than_are_left_to_roll():
    game = detroit_after("1w 1w 2r 3r 4g 6g", "11")  # both whites set aside
    with pytest.raises(TableError) as info:
        parse_line("1w 5w 2r 3g", game.state)
    assert "2 white dice cannot be rolled: 2 of the detroit table's 2 white dice" in str(info.value)
    with pytest.raises(TableError, match="1 white die cannot be rolled"):
        parse_line("1w 5r 2r 3g", game.state)
    assert parse_line("1r 5r 2g 3g", game.state).dice[0] == parse_dice(["1r"])[0]
    assert parse_line("1 5 2 3", game.state)  # without colours: nothing to check
    # a kept 1 that was white or red: either way the roll must fit
    game = detroit_after("1w 1r 2r 3w 4g 6g", "1")
    assert parse_line("5w 2r 3w 4g 6g", game.state)  # the red 1 was kept
    assert parse_line("5w 2r 3r 4g 6g", game.state)  # the white 1 was kept
    with pytest.raises(TableError, match="do not fit the dice set aside"):
        parse_line("5w 2w 3r 3r 6g", game.state)
    # hot dice pick every die up again
    game = detroit_after("1w 1w 1r 5r 5g 5g", "111555")
    assert parse_line("1w 1w 2r 3r 4g 6g", game.state)


def test_six_equal_dice_on_detroit_are_not_asked_for_colours():
    game = detroit_after()
    roll = parse_line("333333", game.state)
    assert roll == A.Roll(parse_dice([3] * 6))
    assert game.play(roll).turn.score.best.points == 1000  # colour pairs, whatever the colours
    with pytest.raises(TableError, match="as colour pairs"):
        parse_line("333344", detroit_after().state)


@pytest.mark.parametrize("line", ["12a45", "roll 1 2 a 4 5", "keep 1x"])
def test_a_typo_on_a_table_without_colours_is_answered_as_a_typo(game, line):
    if line.startswith("keep"):
        game.play(A.Roll(parse_dice([1, 5, 5, 6, 6])))
    with pytest.raises(TableError) as info:
        parse_line(line, game.state)
    message = str(info.value)
    assert "cannot read dice from" in message and "type values 1-6" in message
    assert "colour" in message and "white" not in message and "(w)" not in message


def test_banking_with_nothing_kept_where_every_die_scores_says_why_it_is_refused(tmp_path):
    out, state = session(tmp_path, "chicago", ["12345", "b", "12345", "b", "quit"])
    refusals = [line for line in out.splitlines() if line.startswith("! ")]
    assert refusals[0].startswith("! no bank straight after this roll: its best keep (1 2 3 4 5)")
    assert "keep them, then roll" in refusals[0]
    assert (
        refusals[1]
        == "! Ann set every die aside (hot dice), so must roll all 5 dice again before banking"
    )
    assert not any(r.startswith("! HOT DICE") for r in refusals)
    assert state.turn.total == 1500


def _typed_into_play(tmp_path, monkeypatch, capsys, lines, *argv):
    """``zonkcam play --text`` on one game log with these lines piped in: what it printed."""
    import io
    import sys

    from zonkcam.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", "--text", "--db", str(tmp_path / "g.db"), *argv])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_a_plain_text_session_resumes_the_unfinished_game(tmp_path, monkeypatch, capsys):
    """Killed mid-turn (the session ends with the turn half played): run again, and the
    game goes on with the same scores and turn; new starts another game instead."""
    # Ann banks 1000, Bob keeps three 1s and is stopped there
    _typed_into_play(
        tmp_path,
        monkeypatch,
        capsys,
        ["11155", "111", "b", "11123", "111", "quit"],
        "--rules",
        "chicago",
        "--players",
        "Ann",
        "Bob",
    )
    out = _typed_into_play(tmp_path, monkeypatch, capsys, ["", "12"])
    assert "Unfinished game 1: chicago, Ann, Bob (6 actions)" in out
    assert "Resume game 1?" in out
    assert "Game 1: chicago" in out
    board = [line for line in out.splitlines() if line.endswith("zonks 0")]
    assert board == ["  Ann              1000  zonks 0", "* Bob                 0  zonks 0"]
    assert "Bob: roll 2 dice (or bank) | turn total 1000" in out
    assert "Bob rolls 1 2" in out  # played on in the same turn
    with EventLog(tmp_path / "g.db") as log:
        (game,) = log.games()
        assert game.events == 7
    # new: a new game's set-up instead; --new skips the question
    out = _typed_into_play(tmp_path, monkeypatch, capsys, ["new", "", "Cy Dee", "quit"])
    assert "Game 2: classic-10000" in out
    out = _typed_into_play(tmp_path, monkeypatch, capsys, ["all-johnnys", "Eve", "quit"], "--new")
    assert "Resume game" not in out and "Game 3: all-johnnys" in out
    # several unfinished: named, the latest by default, another by its number
    out = _typed_into_play(tmp_path, monkeypatch, capsys, ["7", "1", "quit"])
    assert [line for line in out.splitlines() if line.startswith("Unfinished")] == [
        "Unfinished game 1: chicago, Ann, Bob (7 actions)",
        "Unfinished game 2: classic-10000, Cy, Dee (1 action)",
        "Unfinished game 3: all-johnnys, Eve (1 action)",
    ]
    assert "! Enter resumes game 3, new starts another game, or type one of 1, 2, 3" in out
    assert "Game 1: chicago" in out


def test_players_on_the_command_line_resume_the_unfinished_game_as_the_table_does(
    tmp_path, monkeypatch, capsys
):
    argv = ("--rules", "chicago", "--players", "Ann", "Bob")
    _typed_into_play(tmp_path, monkeypatch, capsys, ["11155", "111", "quit"], *argv)
    out = _typed_into_play(tmp_path, monkeypatch, capsys, ["quit"], *argv)
    assert out.startswith("Resuming unfinished game 1 (start another with --new)")
    assert "Ann: roll 2 dice (or bank) | turn total 1000" in out
    out = _typed_into_play(tmp_path, monkeypatch, capsys, ["quit"], *argv, "--new")
    assert "Game 2: chicago" in out


def test_the_question_names_drinking_players_by_their_zonk_names(tmp_path, monkeypatch, capsys):
    with EventLog(tmp_path / "g.db") as log:
        LoggedGame.new(log, PRESETS["drinking"], ZONK_NAMED)
    out = _typed_into_play(tmp_path, monkeypatch, capsys, ["", "quit"])
    assert "Unfinished game 1: drinking, Snake, Noodle, Captain (4 actions)" in out
    assert not any(name in out.replace("Game 1 saved", "") for name in ("Ann", "Bob", "Cy"))
