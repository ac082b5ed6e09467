"""Putting the table app together: source, calibration, reader, game, window, buttons."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zonkcam.advisor.advice import Advisor
from zonkcam.app.camera import TableCamera, open_table, size_problem
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
from zonkcam.table.teaching import Meet, Meeting, Teacher

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
    source, demo = table.source, table.demo
    if demo and config.resume:
        try:
            _demo_may_resume(config)
        except BaseException:
            source.close()
            raise
    # what is played, on stdout like the game's log; stderr is for what went wrong
    print(f"zonkcam: {source.name}" + (" (no camera: playing the demo game)" if demo else ""))
    # the demo's automatic players confirm nothing: the demo table learns only what it
    # meets (its rendered dice, for this run: nothing kept on disk)
    teacher = table.teacher if config.meet_dice or not demo else None
    shots = Path(config.screenshots) if config.screenshots else default_screenshots()
    with (
        EventLog(config.db) as log,
        Window.open(config.size, fullscreen=config.fullscreen or None, screenshots=shots) as window,
    ):
        advisor = cached_advisor()  # one for the odds panel and the demo's players
        screen = _game_screen(config, window, advisor)
        session = _Session(config, table, log, window, screen, teacher, advisor)
        app = session.first_app()
        if app is None:
            session.camera.close()
            return 0  # the set-up screens were left with Esc
        session.play(app)
        return session.close(app, shots)


def _game_screen(config: AppConfig, window: Window, advisor: Advisor) -> GameScreen:
    """The game's screen, with the arcade buttons on a Pi."""
    pi = on_a_pi()
    buttons = open_buttons(ButtonPins(*config.pins)) if pi else None
    if pi and buttons is None:
        print("zonkcam: no GPIO buttons; use the keyboard or touch screen", file=sys.stderr)
    return GameScreen(
        window,
        buttons=buttons,
        confirm_below=config.confirm_below,
        sounds=Sounds(muted=config.mute or window.headless),
        odds=OddsWorker(advisor),
    )


class _Session:
    """One run of the table app: its games, one after the other, at one table."""

    def __init__(
        self,
        config: AppConfig,
        table: TableCamera,
        log: EventLog,
        window: Window,
        screen: GameScreen,
        teacher: Teacher | None,
        advisor: Advisor,
    ) -> None:
        self.config, self.log, self.window, self.screen = config, log, window, screen
        self.source, self.cal, self.reader = table.source, table.calibration, table.reader
        self.demo, self.demo_table = table.demo, table.demo_table
        self.teacher, self.advisor = teacher, advisor
        self.games_wanted = config.games or (1 if window.headless or not self.demo else 0)
        self.notifier = Notifier()
        self.notifier.ready("set-up")  # systemd: started; the set-up screens may wait for people
        self.camera = table.keep_going()
        self.feed = self.camera.frames()
        self.games, self.played = 1, []
        self.finished_at: float | None = None
        self.stopped: str | None = None
        """Why the table cannot go on reading its frames."""
        self.unseated: str | None = None
        """Why the next game could not be stored."""

    def meet(self, how: Meeting) -> None:
        """ "Meet the dice" on the screen, as ``how`` asks."""
        teacher, window = self.teacher, self.window
        assert teacher is not None
        with teacher.net_alone():  # what is taught is judged by the net alone
            meet_on_screen(
                self.screen,
                self.feed,
                TableWatcher(self.cal, self.reader),
                MeetFaces(teacher, self.config.confirm_below)
                if how.how is Meet.FACES
                else MeetTheDice(teacher, how.throws, self.config.confirm_below),
                table=self.demo_table,
                auto=window.headless,
                notifier=self.notifier,
                paced=not (window.headless or self.config.fast),
            )

    def first_app(self) -> TableApp | None:
        """The table app on the first game (after "meet the dice", where asked for); None
        when the set-up screens were left."""
        meeting, demo, window = self.config.meet_dice, self.demo, self.window
        if meeting and self.teacher is not None:
            if window.headless and not demo:
                _note(
                    "meet the dice needs the screen (in a terminal: zonkcam watch "
                    "--meet-dice): skipped"
                )
            else:
                self.meet(meeting)
        can_meet = self.teacher is not None and not demo
        logged = first_game(
            self.log, self.config, demo, self.screen, self.notifier, self.meet if can_meet else None
        )
        if logged is None:
            return None
        if self.demo_table is not None:
            self.demo_table.use_dice(logged.state.rules.dice)
            if window.headless:
                self.demo_table.tumble_frames = QUICK_TUMBLE
        app = TableApp(
            logged,
            TableWatcher(self.cal, self.reader),
            self.screen,
            DemoDriver(self.demo_table, AutoPlayer(self.advisor))
            if self.demo_table is not None
            else None,
            photos=RollPhotos(photo_folder(self.log.path), self.config.photo_budget),
            unwatched=window.headless,
            teacher=None if demo else self.teacher,
        )
        print(f"Game {logged.game_id}: {logged.state.rules.name}, {_seated(logged)}")
        self.played.append(logged.game_id)
        self.notifier.status(f"game {logged.game_id}")
        return app

    def play(self, app: TableApp) -> None:
        """Play the frames until the games wanted are played, or the table must stop."""
        headless, fast = self.window.headless, self.config.fast
        for item in self.feed:
            start = time.monotonic()
            self.stopped = size_problem(item, self.cal)
            if self.stopped:
                break
            app.tick(item)
            if app.logged.log.gone and (self.demo or headless):
                break  # nothing more can be saved, and nobody is there to quit: the end
            if app.logged.saves_stuck:
                break  # the log cannot be written for a while: said below, in one line
            # fed only from here: a frame arrived, or the screen says the camera is lost and
            # is being reopened; a camera that hangs stops the feed and systemd restarts us
            self.notifier.watchdog()
            if app.quit:
                break
            if app.logged.state.finished and not self.game_over(app):
                break
            if not (headless or fast):
                pace(start, FPS)

    def game_over(self, app: TableApp) -> bool:
        """The game is over: the next one seated where it is wanted (people at a screen:
        the game-over screen stays until ROLL, a new game with the same players, BANK, the
        players seated anew, or quit; the demo and unwatched games go on by themselves).
        Whether the table goes on."""
        config, log, demo, state = self.config, self.log, self.demo, app.logged.state
        self.finished_at = self.finished_at or time.monotonic()
        done = self.games_wanted and self.games >= self.games_wanted
        people = not (demo or self.window.headless or config.fast or config.games)
        waited = time.monotonic() - self.finished_at > WINNER_PAUSE_S
        if app.players_wanted:
            app.players_wanted = False
            seat = players_on_screen(log, self.screen, state, demo, self.notifier)
            if seat is None:
                return False  # left with Esc, as from the game-over screen
            if seat.went_back:
                return True
            return self._next_game(
                app,
                lambda: LoggedGame.new(log, seat.rules, seat.actions, demo=demo),
                seated_anew=True,
            )
        if app.new_game_wanted or (not people and (self.window.headless or config.fast or waited)):
            if not app.new_game_wanted and (done or not demo):
                return False
            return self._next_game(app, lambda: seated_again(log, state, demo), seated_anew=False)
        return True

    def _next_game(
        self, app: TableApp, seat: Callable[[], LoggedGame], *, seated_anew: bool
    ) -> bool:
        """The next game seated (``seat``: the players seated anew, or the same again) and
        played on: whether it could be stored."""
        if self.log.missing():
            return False  # the log went away: said below, with where the game is kept
        try:
            logged = seat()
        except StoreError as exc:  # the next game cannot be stored: the end
            self.unseated = f"{exc}; game {app.logged.game_id} is saved (it is over)"
            return False
        self.games += 1
        self.finished_at = None
        self.played.append(logged.game_id)
        rules = logged.state.rules
        print(
            f"Game {logged.game_id}: {rules.name}" + (f", {_seated(logged)}" if seated_anew else "")
        )
        if self.demo_table is not None and seated_anew:
            self.demo_table.use_dice(rules.dice)
        app.next_game(logged)
        return True

    def close(self, app: TableApp, shots: Path) -> int:
        """The end of the run: the scores, where the screenshots are, or why it stopped
        (on stderr); the exit status."""
        config, name = self.config, self.source.name
        self.camera.close()
        if app.photos is not None:
            app.photos.wait()
        gone = app.logged.log_is_gone()
        if gone:
            print(f"zonkcam: {gone}", file=sys.stderr)
            return 1
        stuck = app.logged.cannot_save(resume_command(config, app.logged.game_id)) or self.unseated
        if stuck:
            print(f"zonkcam: {stuck}", file=sys.stderr)
            return 1
        final = app.logged.state
        for p in final.players:
            bees = f", {p.bees} B" if final.rules.bees else ""
            print(f"  {final.shown_name(p)}: {p.score}{bees}")
        if self.window.headless:
            print(f"screenshots (one per turn) in {shots.resolve()}{_game_folders(self.played)}")
        again = f"game {app.logged.game_id} is saved: go on with"
        if self.stopped:
            again += f" {resume_command(config, app.logged.game_id)}"
            print(f"zonkcam: {name}: {self.stopped}; {again}", file=sys.stderr)
            return 1
        if self.camera.gave_up is not None and not app.quit:
            command = resume_command(config, app.logged.game_id)
            print(
                f"zonkcam: {name}: {self.camera.gave_up.message}; {again} {command} (or "
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
            _show_meet(meet, item, watcher)
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


def _show_meet(
    meet: MeetFaces | MeetTheDice, item: Frame | CameraProblem, watcher: TableWatcher
) -> None:
    """One camera frame (or problem) for "meet the dice": through ``watcher`` to the step."""
    if isinstance(item, CameraProblem):
        if not item.repeat:
            meet.message = f"camera: {item.message}"
        return
    stopped = size_problem(item, watcher.calibration)
    if stopped:
        raise UserError(f"meet the dice: {stopped}")
    meet.frame = item.image
    for report in watcher.process(item):
        meet.observe(report)
    meet.tick()


def _note(text: str) -> None:
    print(f"zonkcam: {text}", file=sys.stderr)


def pace(start: float, fps: float) -> None:
    """Sleep what is left of one frame's time."""
    left = 1.0 / fps - (time.monotonic() - start)
    if left > 0:
        time.sleep(left)
