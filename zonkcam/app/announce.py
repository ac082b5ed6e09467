"""What the table says as the game goes: the game's log lines as they come, the app's
messages, a save that fails (once, while saves go on failing), the camera lost and back;
and the turns played, each with its screenshot where nobody watches the screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from zonkcam.display.game_screen import GameScreen
from zonkcam.game.state import GameState
from zonkcam.sources import CameraProblem, Frame


@dataclass
class Announcer:
    say: Callable[[str], None]
    """Where the game log goes line by line (the terminal, or the journal)."""
    screen: GameScreen | None
    printed: int = 0
    """The game log's lines said so far."""
    turns: int = 0
    """Turns played in this game (resumed ones counted): the number of its last turn's
    screenshot, ``game-NNNN/turn-NNNN.png`` (headless)."""
    turn_shot: bool = False
    """A turn just ended: its screenshot is due."""
    unsaved: str | None = None
    """Why the last action could not be saved, said once while saves go on failing."""
    camera_ok: bool = True
    """Whether the camera gave the last frame (else a problem, said once)."""

    @classmethod
    def of(
        cls, state: GameState, say: Callable[[str], None], screen: GameScreen | None
    ) -> Announcer:
        """The announcer of a game going on from ``state`` (its log said already)."""
        return cls(say, screen, len(state.log), turns_played(state))

    def message(self, text: str) -> None:
        """Something the players are told: on the screen, and in the log's output."""
        if self.screen is not None:
            self.screen.message = text
        self.say(f"  ({text})")

    def camera(self, item: Frame | CameraProblem) -> None:
        """The camera gave a frame, or a problem: a problem said (a repeat of it aside), and
        the camera's coming back."""
        if isinstance(item, CameraProblem):
            self.camera_ok = False
            if not item.repeat:
                self.message(_camera_words(item))
        elif not self.camera_ok:
            self.camera_ok = True
            self.message("camera is back")

    def not_saved(self, why: str) -> None:
        """An action could not be saved (nothing changed; the next one tries again): said
        once, not at every frame that retries."""
        if why != self.unsaved:
            self.message(why)
        self.unsaved = why

    def played(self, state: GameState, turns_before: int) -> None:
        """The game took an action: shown, its log lines said, a turn it ended counted."""
        self.unsaved = None
        if self.screen is not None:
            self.screen.played(state)
        self.print_log(state)
        if turns_played(state) != turns_before or state.finished:
            self.turns += 1
            self.turn_shot = True

    def new_game(self, state: GameState) -> None:
        """A new game at the table: its log said from its start."""
        self.printed = 0
        self.turns = turns_played(state)
        self.print_log(state)

    def print_log(self, state: GameState) -> None:
        """The game log's lines not said yet."""
        if len(state.log) < self.printed:  # an undo re-folded the log
            self.printed = len(state.log) - 1
        for line in state.log[self.printed :]:
            self.say(line)
        self.printed = len(state.log)

    def turn_shot_name(self, game: int | None) -> str:
        """Where the screenshot of the turn just played goes, in the screenshots folder:
        each game's turns in a folder of its own (``game-0013/turn-0001.png``)."""
        folder = f"game-{game:04d}/" if game is not None else ""
        return f"{folder}turn-{self.turns:04d}.png"


def turns_played(state: GameState) -> int:
    """Turns played by every player together."""
    return sum(p.turns for p in state.players)


def _camera_words(problem: CameraProblem) -> str:
    """What the screen and the log say of a camera problem."""
    again = (
        ""
        if problem.final
        else (
            f" (trying again in {problem.retry_in_s:g} s)" if problem.retry_in_s else " (skipped)"
        )
    )
    lost = "camera lost" if problem.lost else "camera"
    return f"{lost}: {problem.message}{again}"
