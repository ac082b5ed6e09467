"""`zonkcam bench screen`: how long drawing one game screen takes (with a 1280x960 camera
frame), per screen size."""

from __future__ import annotations

import argparse
import os
import time

SIZES = ((800, 480), (1280, 720), (1920, 1080))


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import numpy as np
    import pygame

    from zonkcam.display.painter import Painter
    from zonkcam.display.view import CameraView, view_for
    from zonkcam.sim import scenes

    pygame.display.init()
    pygame.font.init()
    scene = scenes.roll_with_keeps()
    frame = np.random.default_rng(0).integers(0, 256, (960, 1280, 3), np.uint8)
    view = view_for(scene.state, CameraView(frame, scene.camera.dice), scene.selected_keep)
    for size in SIZES:
        surface, screen = pygame.Surface(size), Painter()
        screen.draw(surface, view)  # fonts loaded once
        start = time.perf_counter()
        for _ in range(args.frames):
            screen.draw(surface, view)
        ms = (time.perf_counter() - start) / args.frames * 1000
        print(f"{size[0]}x{size[1]}: {ms:.2f} ms a frame")
    return 0
