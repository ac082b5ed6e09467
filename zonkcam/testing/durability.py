"""The durability harness: a scripted game typed into ``zonkcam play --text``, the process
SIGKILLed at random moments (idle, with an action in flight, while starting), resumed,
and after every kill each acknowledged action compared with the event log.

``tests/record/test_durability.py`` runs it with a few kills; for a long run:
``python scripts/durability.py --kills 200 --seed 7``.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from zonkcam.app.players import scripted_game
from zonkcam.game import actions as A
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS, RuleSet
from zonkcam.record.store import EventLog

PLAYERS = ("Ann", "Bob", "Cy")


def typed(action: A.Action) -> str:
    """The line a scorekeeper types for ``action`` in text mode."""
    match action:
        case A.Roll(dice):
            return "roll " + " ".join(map(str, dice))
        case A.Keep(values):
            return "keep " + " ".join(map(str, values))
        case A.Bank():
            return "b"
        case A.Reroll():
            return "reroll"
        case A.Pass():
            return "pass"
        case A.GoFor1000():
            return "go"
        case A.Undo():
            return "u"
    raise ValueError(f"no typed form for {action!r}")  # pragma: no cover


def script(rules: RuleSet, seed: int, actions: int) -> list[A.Action]:
    """The game's actions after the seating, with now and then an action taken back and
    played again (an undo is stored like any action)."""
    rng = random.Random(seed)
    out: list[A.Action] = []
    for action in scripted_game(rules, PLAYERS, actions, seed)[1:]:
        out.append(action)
        if rng.random() < 0.08:
            out += [A.Undo(), action]
    return out


class Session:
    """One ``zonkcam play --text`` process and the lines it prints."""

    def __init__(self, db: Path, args: list[str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(db), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def answer(self, timeout: float = 30.0) -> str:
        """The next status line (what the scorekeeper prints once a line is handled)."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                raise AssertionError("the scorekeeper ended:\n" + "\n".join(seen[-20:]))
            seen.append(line)
            if " | turn total " in line or line.startswith(("GAME OVER", "! ")):
                return line
        raise AssertionError("the scorekeeper stopped answering:\n" + "\n".join(seen[-20:]))

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass


@dataclass
class Report:
    kills: int = 0
    checked: int = 0
    """Acknowledged actions compared with the log, summed over every check."""
    in_flight_saved: int = 0
    """Kills with a line in flight whose action had reached the log anyway."""
    modes: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        modes = ", ".join(f"{k} {v}" for k, v in sorted(self.modes.items()))
        return (
            f"{self.kills} SIGKILLs ({modes}); {self.checked} acknowledged actions "
            f"checked against the log, none lost; {self.in_flight_saved} in-flight "
            "actions had been saved before the kill"
        )


def run(
    db: Path,
    kills: int,
    seed: int = 0,
    target: int = 3000,
    say: Callable[[str], None] = lambda line: None,
) -> Report:
    """Play the scripted game (classic-10000 to ``target``) to its end through ``kills``
    random SIGKILLs; an AssertionError says which acknowledged action the log lost or
    changed."""
    rules = dataclasses.replace(PRESETS["classic-10000"], target=target)
    moves = script(rules, seed, 100_000)  # the game ends long before
    expected = [A.action_to_json(A.Players(PLAYERS))] + [A.action_to_json(a) for a in moves]
    rng = random.Random(seed)
    gap = max(1, len(moves) // (kills + 1))  # actions between kills, on average
    report = Report()
    acknowledged = 0  # typed lines the scorekeeper answered
    while True:
        stored = _stored(db)
        assert stored == expected[: len(stored)], "the log differs from what was played"
        if stored:
            assert acknowledged <= len(stored) - 1
            acknowledged = len(stored) - 1
        if acknowledged == len(moves):
            break
        args = (
            ["--resume", "1"]
            if stored
            else ["--rules", _rules_file(db, rules), "--players", *PLAYERS]
        )
        session = Session(db, args)
        left = kills - report.kills
        # each kind of kill once first, then idle half the time
        unseen = [m for m in ("idle", "in flight", "starting") if m not in report.modes]
        mode = (
            rng.choice(unseen or ["idle", "idle", "in flight", "starting"]) if left > 0 else "none"
        )
        if mode == "starting":
            time.sleep(rng.uniform(0.0, 0.8))
            session.kill()
        else:
            session.answer()  # the opening status line
            stop = acknowledged + rng.randint(1, 2 * gap) if mode != "none" else len(moves)
            stop = min(stop, len(moves))
            while acknowledged < stop:
                if mode == "in flight" and acknowledged == stop - 1:
                    session.type(typed(moves[acknowledged]))
                    # at once, within the 1-4 ms a line takes, or up to 10 ms: before, while
                    # and after the action is committed
                    time.sleep(rng.choice([0.0, rng.uniform(0, 0.002), rng.uniform(0, 0.01)]))
                    break
                session.type(typed(moves[acknowledged]))
                answer = session.answer()
                assert not answer.startswith("! "), answer
                acknowledged += 1
            session.kill()
            if mode == "in flight":
                now = len(_stored(db)) - 1
                assert now in (acknowledged, acknowledged + 1), (now, acknowledged)
                report.in_flight_saved += now == acknowledged + 1
        if mode != "none":
            report.kills += 1
            report.modes[mode] = report.modes.get(mode, 0) + 1
        stored = _stored(db)
        assert len(stored) - 1 >= acknowledged if stored else acknowledged == 0, (
            f"acknowledged {acknowledged} actions, the log has {len(stored) - 1}"
        )
        report.checked += acknowledged
        say(
            f"kill {report.kills}: {mode}; {acknowledged} actions acknowledged, "
            f"{max(0, len(stored) - 1)} in the log"
        )
    final = Game(rules, [A.action_from_json(obj) for obj in _stored(db)]).state
    assert final.to_json() == Game(rules, [A.Players(PLAYERS), *moves]).state.to_json()
    return report


def _rules_file(db: Path, rules: RuleSet) -> str:
    from zonkcam.game.rules import rules_to_toml

    path = db.with_suffix(".rules.toml")
    if not path.exists():
        path.write_text(rules_to_toml(rules))
    return str(path)


def _stored(db: Path) -> list[dict]:
    """The JSON of every stored action of game 1 (none before it exists)."""
    if not db.exists():
        return []
    with EventLog(db) as log:
        if not log.games():
            return []
        return list(log.action_objects(1))
