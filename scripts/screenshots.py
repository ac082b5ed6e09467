"""Lab tool: the scorekeeper's screen in several game moments, into docs/screenshots/*.png.

Each moment is reached by playing real table actions through the rules engine
(zonkcam.sim.scenes); the camera frame is drawn, not photographed. "Meet the dice"
is played on the demo table with the shipped reader.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from zonkcam.advisor.advice import Advisor
from zonkcam.controls import BANK, ROLL, SELECT, Control, Press
from zonkcam.display.banners import banners_for
from zonkcam.display.charts import draw_charts
from zonkcam.display.meet import MeetFaces, MeetTheDice, Stage
from zonkcam.display.painter import Painter
from zonkcam.display.setup import ChooseRules, SeatPlayers
from zonkcam.display.view import view_for
from zonkcam.game.rules import PRESETS
from zonkcam.sim import scenes
from zonkcam.table.teaching import THROWS

SMALL = (800, 480)
REVIEW_RULES = dataclasses.replace(PRESETS["classic-10000"], name="classic to 4,000", target=4000)
"""The rules of the game whose charts docs/screenshots/game-charts.png shows."""
SHOTS = scenes.SHOTS
"""File name: scene, size, with its banner, with the odds panel."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", help="folder for the PNGs")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    pygame.font.init()
    screen = Painter()
    advisor = Advisor()
    for name, shot in SHOTS.items():
        scene = scenes.SCENES[shot.scene]()
        raised = banners_for(scene.state) if shot.banner else []
        banner = next((b for b in raised if b.name != "ZONK"), raised[0]) if raised else None
        odds = advisor.advise(scene.state) if shot.odds else False
        view = view_for(scene.state, scene.camera, scene.selected_keep, banner=banner, odds=odds)
        surface = pygame.Surface(shot.size)
        screen.draw(surface, view)
        _save(surface, out / f"{name}.png")

    surface = pygame.Surface(SMALL)
    rules = ChooseRules(selected="drinking")
    rules.draw(surface, screen)
    _save(surface, out / "setup-rules.png")
    seat = SeatPlayers(PRESETS["chicago"], ["Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy", "Di"])
    seat.handle(SELECT)  # Bob lit
    seat.draw(surface, screen)
    _save(surface, out / "setup-players.png")
    seat = SeatPlayers(PRESETS["drinking"], ["Ann", "Bob", "Cy"], stock_zonk_names=["Captain"])
    for line in ("\n", "Noodle\n", "Capt"):  # start, then the zonk names
        for ch in line:
            seat.handle(ROLL if ch == "\n" else Press(Control.CHAR, ch))
    seat.draw(surface, screen)
    _save(surface, out / "setup-zonk-names.png")
    meet = meet_the_dice()
    meet.draw(surface, screen)
    _save(surface, out / "meet-the-dice.png")
    meet_faces().draw(surface, screen)
    _save(surface, out / "meet-faces.png")
    review, pools = game_charts()
    draw_charts(screen, surface, review, pools, target=REVIEW_RULES.target)
    _save(surface, out / "game-charts.png")
    return 0


def game_charts():
    """A whole game of three automatic players (seeded dice), as SELECT shows it on the
    game-over screen; its actions 20 s apart."""
    from zonkcam.app.players import scripted_game
    from zonkcam.review.dice import pools
    from zonkcam.review.night import review_game

    actions = scripted_game(REVIEW_RULES, ("Ann", "Bob", "Cy"), 10_000, seed=3)
    review = review_game(7, REVIEW_RULES, actions, [20.0 * i for i in range(len(actions))])
    return review, pools(review.actions)


def _demo_meeting() -> tuple:
    """(table, watcher, teacher): the demo table calibrated, its watcher with the shipped
    reader, and a teacher for the run only."""
    from zonkcam.app.main import demo_table
    from zonkcam.mat.calibrate import calibrate
    from zonkcam.table.observe import TableWatcher
    from zonkcam.table.reading import OnnxReader
    from zonkcam.table.teaching import open_teacher

    table = demo_table(3)
    first = table.read()
    cal = calibrate(first.image, table.geometry)
    reader = OnnxReader.for_table(cal)
    teacher = open_teacher(reader, None, say=lambda _line: None)
    assert teacher is not None, "the shipped value net gives features"
    return table, TableWatcher(cal, reader), teacher


def meet_the_dice() -> MeetTheDice:
    """ "Meet the dice" on the demo table with the shipped reader: one throw confirmed,
    the next on screen with its second die picked and counted up by BANK."""
    table, watcher, teacher = _demo_meeting()
    meet = MeetTheDice(teacher, THROWS)
    for values in ([4, 4, 1, 5, 2], [3, 5, 1, 2, 6]):
        if meet.stage is Stage.CHECK:
            meet.handle(ROLL)
        table.throw(values)
        while meet.stage is Stage.THROW or table.busy:
            frame = table.read()
            meet.frame = frame.image
            for report in watcher.process(frame):
                meet.observe(report)
    for _ in range(meet.values.index(2) + 1):
        meet.handle(SELECT)
    meet.handle(BANK)
    return meet


def meet_faces() -> MeetFaces:
    """ "Meet the dice" face by face on the demo table with the shipped reader: faces 1
    and 2 taken, every die showing 3 laid and settled, waiting for ROLL."""
    table, watcher, teacher = _demo_meeting()
    meet = MeetFaces(teacher)
    with teacher.net_alone():
        for face in (1, 2, 3):
            table.throw([face] * table.n_dice)
            for _ in range(600):
                frame = table.read()
                meet.frame = frame.image
                for report in watcher.process(frame):
                    meet.observe(report)
                meet.tick()
                if not table.busy and not meet.waiting:
                    break
            if face < 3:
                meet.handle(ROLL)
                table.pick_up()
                while table.busy:
                    for report in watcher.process(table.read()):
                        meet.observe(report)
    return meet


def _save(surface: pygame.Surface, path: Path) -> None:
    pygame.image.save(surface, str(path))
    print(f"{path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    sys.exit(main())
