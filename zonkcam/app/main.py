"""Putting the table app together: source, calibration, reader, game, window, buttons."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zonkcam.app.camera import open_table, size_problem
from zonkcam.app.demo import DemoDriver, confirm_from_truth
from zonkcam.app.games import (
    DEMO_PLAYERS,
    new_game,
    past_players,
    past_zonk_names,
    resume,
    resume_command,
    resume_id,
)
from zonkcam.app.loop import TableApp
from zonkcam.app.players import AutoPlayer
from zonkcam.controls import ROLL
from zonkcam.display.game_screen import GameScreen
from zonkcam.display.meet import MeetFaces, MeetTheDice
from zonkcam.display.odds_worker import OddsWorker
from zonkcam.display.setup import ChooseGame, ChooseRules, ResumableGame, SeatPlayers
from zonkcam.display.sounds import Sounds
from zonkcam.display.window import Window
from zonkcam.errors import UserError
from zonkcam.game import actions as A
from zonkcam.game.names import counted
from zonkcam.game.rules import End, RuleSet, load_rules
from zonkcam.game.state import GameState
from zonkcam.hardware.buttons import ButtonPins, open_buttons
from zonkcam.hardware.service import Notifier
from zonkcam.places import xdg_folder
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.photos import RollPhotos, photo_folder
from zonkcam.record.store import EventLog, GameRecord, StoreError
from zonkcam.record.win_tables import cached_advisor
from zonkcam.sources import CameraProblem, Frame
from zonkcam.table.observe import TableWatcher
from zonkcam.table.teaching import Meet, Meeting

if TYPE_CHECKING:
    from zonkcam.sim.demo_table import DemoTable

FPS = 30.0
WINNER_PAUSE_S = 6.0
HEADLESS_DEMO_TARGET = 3000
"""Without a display the demo plays one short game: to this target, ..."""
HEADLESS_DEMO_TURNS = 5
"""... or this many turns each on a table that counts turns."""


def headless_demo_rules(rules: RuleSet) -> RuleSet:
    """The table's rules for the demo game without a display: a short game, named so."""
    if rules.end is End.TURNS:
        short = replace(rules, turns=min(rules.turns, HEADLESS_DEMO_TURNS))
        what = counted(short.turns, "turn")
    else:
        short = replace(rules, target=min(rules.target, HEADLESS_DEMO_TARGET))
        what = f"to {short.target:,}"
    if short == rules:
        return rules
    return replace(short, name=f"{rules.name[:40]}, demo {what}")


QUICK_TUMBLE = (4, 7)
"""Frames the demo's dice tumble when nobody watches (no display): half the usual."""


APP_DEMO: dict[str, Any] = {
    "autoplay": False,
    "size": (640, 480),
    "rest_frames": 8,
    "tumble_frames": (8, 13),
}
"""The demo table as the app makes it: small frames, short pauses, played by DemoDriver."""


def demo_table(seed: int, spec: str = "demo") -> DemoTable:
    """The demo table a ``demo[:LOOK][:MAT]`` spec names, as the app uses it (APP_DEMO)."""
    from zonkcam.sim.demo_table import open_demo_table

    return open_demo_table(spec, seed=seed, **APP_DEMO)


def default_screenshots() -> Path:
    """Where a game without a display saves its screenshots:
    ``$XDG_DATA_HOME/zonkcam/screenshots`` (~/.local/share)."""
    base = xdg_folder("XDG_DATA_HOME", ".local/share", "the screenshots", "--screenshots DIR")
    return base / "zonkcam" / "screenshots"


def on_a_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


@dataclass(frozen=True)
class AppConfig:
    """What ``zonkcam play`` is asked for, its options parsed: all that :func:`run_app`
    reads (``resume_command`` and the set-up read the same names)."""

    source: str
    calibration: str | None
    model_dir: str | None
    threads: int | None
    seed: int
    db: str | None
    rules: str | None
    players: list[str] | None
    resume: str | None
    new: bool
    games: int | None
    fast: bool
    screenshots: str | None
    size: tuple[int, int] | None
    mute: bool
    pins: tuple[int, int, int]
    confirm_below: float | None
    photo_budget: float
    meet_dice: Meeting | None = None
    """ "Meet the dice" first (``--meet-dice``); None: not."""
    forget_dice: bool = False
    text: bool = False
    fullscreen: bool = False
    """Full screen on a desktop too (``--fullscreen``); a Pi's console always is."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> AppConfig:
        """The config ``zonkcam play``'s parsed arguments give."""
        return cls(
            **{
                f.name: getattr(args, f.name)
                if f.default is MISSING
                else getattr(args, f.name, None) or f.default
                for f in fields(cls)
            }
        )


def run_app(config: AppConfig) -> int:
    """The table app for ``zonkcam play``, as ``config`` asks."""
    size, pins, confirm_below = config.size, config.pins, config.confirm_below
    table = open_table(
        config.source,
        calibration=config.calibration,
        model_dir=config.model_dir,
        threads=config.threads,
        seed=config.seed,
        demo_options=APP_DEMO,
        teach=_note,
        forget_dice=config.forget_dice,
    )
    source, cal, reader, demo = table.source, table.calibration, table.reader, table.demo
    demo_table = table.demo_table
    if demo and config.resume:
        try:
            _demo_may_resume(config)
        except BaseException:
            source.close()
            raise
    # what is played, on stdout like the game's log; stderr is for what went wrong
    print(f"zonkcam: {source.name}" + (" (no camera: playing the demo game)" if demo else ""))
    meeting = config.meet_dice
    # the demo's automatic players confirm nothing: the demo table learns only what it
    # meets (its rendered dice, for this run: nothing kept on disk)
    teacher = table.teacher if meeting or not demo else None
    shots = Path(config.screenshots) if config.screenshots else default_screenshots()
    with (
        EventLog(config.db) as log,
        Window.open(size, fullscreen=config.fullscreen or None, screenshots=shots) as window,
    ):
        games_wanted = config.games or (1 if window.headless or not demo else 0)
        pi = on_a_pi()
        buttons = open_buttons(ButtonPins(*pins)) if pi else None
        if pi and buttons is None:
            print("zonkcam: no GPIO buttons; use the keyboard or touch screen", file=sys.stderr)
        advisor = cached_advisor()  # one for the odds panel and the demo's players
        screen = GameScreen(
            window,
            buttons=buttons,
            confirm_below=confirm_below,
            sounds=Sounds(muted=config.mute or window.headless),
            odds=OddsWorker(advisor),
        )
        notifier = Notifier()
        notifier.ready("set-up")  # systemd: started; the set-up screens may wait for people
        camera = table.keep_going()
        feed = camera.frames()

        def meet(how: Meeting) -> None:
            assert teacher is not None
            with teacher.net_alone():  # what is taught is judged by the net alone
                meet_on_screen(
                    screen,
                    feed,
                    TableWatcher(cal, reader),
                    MeetFaces(teacher, confirm_below)
                    if how.how is Meet.FACES
                    else MeetTheDice(teacher, how.throws, confirm_below),
                    table=demo_table,
                    auto=window.headless,
                    notifier=notifier,
                    paced=not (window.headless or config.fast),
                )

        if meeting and teacher is not None:
            if window.headless and not demo:
                _note(
                    "meet the dice needs the screen (in a terminal: zonkcam watch "
                    "--meet-dice): skipped"
                )
            else:
                meet(meeting)
        logged = first_game(
            log, config, demo, screen, notifier, meet if teacher is not None and not demo else None
        )
        if logged is None:
            camera.close()
            return 0  # the set-up screens were left with Esc
        if demo_table is not None:
            demo_table.use_dice(logged.state.rules.dice)
            if window.headless:
                demo_table.tumble_frames = QUICK_TUMBLE
        app = TableApp(
            logged,
            TableWatcher(cal, reader),
            screen,
            DemoDriver(demo_table, AutoPlayer(advisor)) if demo_table is not None else None,
            photos=RollPhotos(photo_folder(log.path), config.photo_budget),
            unwatched=window.headless,
            teacher=None if demo else teacher,
        )
        print(f"Game {logged.game_id}: {logged.state.rules.name}, {_seated(logged)}")
        games, finished_at = 1, None
        played = [logged.game_id]
        notifier.status(f"game {logged.game_id}")
        stopped: str | None = None  # why the table cannot go on reading its frames
        unseated: str | None = None  # why the next game could not be stored
        for item in feed:
            start = time.monotonic()
            stopped = size_problem(item, cal)
            if stopped:
                break
            app.tick(item)
            if app.logged.log.gone and (demo or window.headless):
                break  # nothing more can be saved, and nobody is there to quit: the end
            if app.logged.saves_stuck:
                break  # the log cannot be written for a while: said below, in one line
            # fed only from here: a frame arrived, or the screen says the camera is lost and
            # is being reopened; a camera that hangs stops the feed and systemd restarts us
            notifier.watchdog()
            if app.quit:
                break
            state = app.logged.state
            if state.finished:
                finished_at = finished_at or time.monotonic()
                done = games_wanted and games >= games_wanted
                # people at a screen: the game-over screen stays until ROLL (a new game, the
                # same players), BANK (the players seated anew) or quit; the demo and
                # unwatched games go on by themselves
                people = not (demo or window.headless or config.fast or config.games)
                waited = time.monotonic() - finished_at > WINNER_PAUSE_S
                if app.players_wanted:
                    app.players_wanted = False
                    seat = players_on_screen(log, screen, state, demo, notifier)
                    if seat is None:
                        break  # left with Esc, as from the game-over screen
                    if not seat.went_back:
                        if log.missing():
                            break  # the log went away: said below, with where the game is kept
                        try:
                            logged = LoggedGame.new(log, seat.rules, seat.actions, demo=demo)
                        except StoreError as exc:  # the next game cannot be stored: the end
                            unseated = f"{exc}; game {app.logged.game_id} is saved (it is over)"
                            break
                        games += 1
                        finished_at = None
                        played.append(logged.game_id)
                        print(f"Game {logged.game_id}: {seat.rules.name}, {_seated(logged)}")
                        if demo_table is not None:
                            demo_table.use_dice(seat.rules.dice)
                        app.next_game(logged)
                elif app.new_game_wanted or (
                    not people and (window.headless or config.fast or waited)
                ):
                    if not app.new_game_wanted and (done or not demo):
                        break
                    if log.missing():
                        break  # the log went away: said below, with where the game is kept
                    games += 1
                    finished_at = None
                    try:
                        logged = seated_again(log, state, demo)
                    except StoreError as exc:  # the next game cannot be stored: the end
                        unseated = f"{exc}; game {app.logged.game_id} is saved (it is over)"
                        break
                    played.append(logged.game_id)
                    print(f"Game {logged.game_id}: {state.rules.name}")
                    app.next_game(logged)
            if not (window.headless or config.fast):
                pace(start, FPS)
        camera.close()
        if app.photos is not None:
            app.photos.wait()
        gone = app.logged.log_is_gone()
        if gone:
            print(f"zonkcam: {gone}", file=sys.stderr)
            return 1
        stuck = app.logged.cannot_save(resume_command(config, app.logged.game_id)) or unseated
        if stuck:
            print(f"zonkcam: {stuck}", file=sys.stderr)
            return 1
        final = app.logged.state
        for p in final.players:
            print(
                f"  {final.shown_name(p)}: {p.score}"
                + (f", {p.bees} B" if final.rules.bees else "")
            )
        if window.headless:
            print(f"screenshots (one per turn) in {shots.resolve()}{_game_folders(played)}")
        if stopped:
            print(
                f"zonkcam: {source.name}: {stopped}; game {app.logged.game_id} is saved: go "
                f"on with {resume_command(config, app.logged.game_id)}",
                file=sys.stderr,
            )
            return 1
        if camera.gave_up is not None and not app.quit:
            print(
                f"zonkcam: {source.name}: {camera.gave_up.message}; game {app.logged.game_id} "
                f"is saved: go on with {resume_command(config, app.logged.game_id)} (or "
                "--text to type the dice)",
                file=sys.stderr,
            )
            return 1
    return 0


def _seated(logged: LoggedGame) -> str:
    """The players of a game as the table shows them, in turn order."""
    return ", ".join(logged.state.shown_name(p) for p in logged.state.players)


def _game_folders(games: list[int | None]) -> str:
    """The games' folders of turn screenshots, as the closing line names them."""
    named = [f"game-{g:04d}" for g in games if g is not None]
    if not named:
        return ""
    return f"/{named[0]}" if len(named) == 1 else f" ({named[0]} to {named[-1]})"


def _demo_may_resume(args: AppConfig) -> None:
    """The demo's automatic players play only the demo's own games: a game people played
    goes on where people can enter the dice."""
    with EventLog(args.db) as log:
        game_id = resume_id(log, args.resume)
        if not log.is_demo(game_id):
            raise UserError(
                f"game {game_id} is played by people and there is no camera "
                "here to read their dice (the demo's players play only demo "
                "games): go on in the terminal with "
                f"{resume_command(args, game_id, text=True)}"
            )


def first_game(
    log: EventLog,
    args: AppConfig,
    demo: bool,
    ui: GameScreen,
    notifier: Notifier | None = None,
    meet: Callable[[Meeting], None] | None = None,
) -> LoggedGame | None:
    if args.resume:
        return resume(log, args.resume)
    unfinished = [g for g in log.games() if not g.finished and not g.demo]
    if not args.players and not args.rules and not args.new and not demo and not ui.window.headless:
        return set_up_on_screen(log, ui, unfinished, notifier, meet)
    if unfinished and not args.new and not demo:
        # after a crash or power cut the service comes back to the game in play, whatever
        # its command line says: --rules and --players only seat a new game
        latest = unfinished[-1].id
        print(
            f"zonkcam: resuming unfinished game {latest} (start another with --new)",
            file=sys.stderr,
        )
        return resume(log, str(latest))
    players = list(args.players or (DEMO_PLAYERS if demo else ()))
    if not players:
        raise UserError(
            "name the players: zonkcam play --players Ann Bob ... (or --resume a saved game)"
        )
    rules = load_rules(args.rules or "classic-10000")
    if demo and ui.window.headless:
        rules = headless_demo_rules(rules)
    if rules.drinking.zonk_names and len(players) > 1:
        if demo:  # the demo's players name each other from a list
            return LoggedGame.new(log, rules, demo_zonk_names(players), demo=True)
        if not ui.window.headless:  # people at a screen: each names their left neighbour
            named = _run_screen(
                ui,
                SeatPlayers.naming_zonk_names(
                    rules,
                    players,
                    zonk_names=past_zonk_names(log),
                    stock_zonk_names=DEMO_ZONK_NAMES,
                ),
                notifier,
            )
            return None if named is None else LoggedGame.new(log, rules, named.actions)
    return new_game(log, rules, players, demo=demo)


DEMO_ZONK_NAMES = ("Captain", "Snake Eyes", "Lucky", "The Baron", "Big Cheese", "Tiger")


def seated_again(log: EventLog, state: GameState, demo: bool) -> LoggedGame:
    """The next game at the table: the same rules and players (those who have not left),
    with the zonk names they had."""
    players = [p.name for p in state.players if not p.left]
    if not (state.rules.drinking.zonk_names and len(players) > 1):
        return new_game(log, state.rules, players, demo=demo)
    names = {p.name: p.zonk_name for p in state.players if p.zonk_name}
    return LoggedGame.new(log, state.rules, seating(players, names), demo=demo)


def demo_zonk_names(players: list[str]) -> list[A.Action]:
    """The demo's players seated, each named by the player on their right."""
    names = {p: DEMO_ZONK_NAMES[i % len(DEMO_ZONK_NAMES)] for i, p in enumerate(players)}
    return seating(players, names)


def seating(players: list[str], zonk_names: dict[str, str]) -> list[A.Action]:
    """The players seated and given their zonk names, each by the player on their right
    (as at the set-up)."""
    actions: list[A.Action] = [A.Players(tuple(players))]
    for i, player in enumerate(players):
        if player in zonk_names:
            actions.append(A.ZonkName(player, zonk_names[player], players[i - 1]))
    return actions


def set_up_on_screen(
    log: EventLog,
    ui: GameScreen,
    unfinished: list[GameRecord],
    notifier: Notifier | None = None,
    meet: Callable[[Meeting], None] | None = None,
) -> LoggedGame | None:
    """The set-up screens: resume a game, or choose the rules and seat the players. With
    ``meet`` (the table can learn its dice) the rules menu offers "meet the dice" too:
    ``meet(Meeting())`` plays that step face by face, then the menu comes back."""
    if unfinished:
        chosen = _run_screen(
            ui,
            ChooseGame(
                [ResumableGame(g.id, g.rules_name, g.players, g.events) for g in unfinished]
            ),
            notifier,
        )
        if chosen is None:
            return None
        if chosen.game_id is not None:
            return resume(log, str(chosen.game_id))
    while True:
        rules = _run_screen(ui, ChooseRules(meet=meet is not None), notifier)
        if rules is None:
            return None
        if not rules.meet or meet is None:
            break
        meet(Meeting())
    seat = SeatPlayers(
        rules.rules,
        known=past_players(log),
        zonk_names=past_zonk_names(log),
        stock_zonk_names=DEMO_ZONK_NAMES,
    )
    players = _run_screen(ui, seat, notifier)
    if players is None:
        return None
    return LoggedGame.new(log, players.rules, players.actions)  # one transaction


def players_on_screen(
    log: EventLog,
    ui: GameScreen,
    state: GameState,
    demo: bool = False,
    notifier: Notifier | None = None,
) -> SeatPlayers | None:
    """The set-up screen for the next game (BANK on the game-over screen): the finished
    game's players (those who have not left) and table, to add to, remove, reorder or
    change, the names played before to add from; the zonk names they had offered first.
    None: left with Esc; ``went_back``: back to the game-over screen."""
    had = [(p.name, p.zonk_name) for p in state.players if p.zonk_name]
    seat = SeatPlayers(
        state.rules,
        [p.name for p in state.players if not p.left],
        past_players(log, demo=demo),
        zonk_names=had + past_zonk_names(log, demo=demo),
        stock_zonk_names=DEMO_ZONK_NAMES,
        back="the game",
    )
    try:
        return _run_screen(ui, seat, notifier)
    finally:
        ui.show_charts = False  # SELECT went down the list, not to the charts


def _run_screen(ui: GameScreen, screen: Any, notifier: Notifier | None = None):
    """Drive one set-up screen until it has its answer (None if cancelled)."""
    while not screen.done:
        if notifier is not None:
            notifier.watchdog()
        ui.keyboard.text_mode = screen.wants_text
        for command in ui.commands():
            screen.handle(command)
        screen.draw(ui.window.surface, ui.painter)
        ui.window.show()
        time.sleep(1 / FPS)
    ui.keyboard.text_mode = False
    return None if screen.cancelled else screen


STUCK_FRAMES = 90
"""The demo table throws again when a throw it made has not settled into one to take
after this many frames (the table saw nothing new)."""


def meet_on_screen(
    ui: GameScreen,
    feed: Iterator[Frame | CameraProblem],
    watcher: TableWatcher,
    meet: MeetFaces | MeetTheDice,
    *,
    table: DemoTable | None = None,
    auto: bool = False,
    notifier: Notifier | None = None,
    paced: bool = True,
) -> MeetFaces | MeetTheDice:
    """Play "meet the dice" on the screen until it is done: each camera frame goes
    through ``watcher`` to the step, then the scorekeeper's commands (keys, taps on the
    step's own touch buttons, the arcade buttons). On the demo ``table`` its own dice
    are thrown whenever the step waits for them (face by face: every die showing the
    step's face); ``auto`` (nobody at the screen): the demo's scorekeeper takes each
    scene, or fixes what was misread in a throw from what the table drew and confirms.
    Says how it went on stderr."""
    ui.keyboard.tap_to_command = meet.tapped
    faces = isinstance(meet, MeetFaces)
    thrown_for, idle = -1, 0
    try:
        for item in feed:
            start = time.monotonic()
            if notifier is not None:
                notifier.watchdog()
            if isinstance(item, CameraProblem):
                if not item.repeat:
                    meet.message = f"camera: {item.message}"
            else:
                stopped = size_problem(item, watcher.calibration)
                if stopped:
                    raise UserError(f"meet the dice: {stopped}")
                meet.frame = item.image
                for report in watcher.process(item):
                    meet.observe(report)
                meet.tick()
            if table is not None and meet.waiting:
                asked = meet.meeting.asked if faces else meet.thrown
                idle = 0 if table.busy else idle + 1
                if not table.busy and (thrown_for != asked or idle > STUCK_FRAMES):
                    if faces:
                        table.throw([meet.value] * table.n_dice)
                    else:
                        table.throw(n=table.n_dice)
                    thrown_for, idle = asked, 0
            commands = ui.commands()
            if auto and not meet.waiting and isinstance(item, Frame):
                commands += [ROLL] if faces else confirm_from_truth(meet.dice, item.truth)
            for command in commands:
                meet.handle(command)
            meet.draw(ui.window.surface, ui.painter)
            ui.window.show()
            if meet.done:
                break
            if paced:
                pace(start, FPS)
    finally:
        ui.keyboard.tap_to_command = None
    _note(f"met the dice: {counted(meet.taught, 'die', 'dice')} taught; {meet.summary}")
    return meet


def _note(text: str) -> None:
    print(f"zonkcam: {text}", file=sys.stderr)


def pace(start: float, fps: float) -> None:
    """Sleep what is left of one frame's time."""
    left = 1.0 / fps - (time.monotonic() - start)
    if left > 0:
        time.sleep(left)
