"""A sound mixer that records what it is asked to play (pygame.mixer's part that
:class:`zonkcam.display.sounds.Sounds` uses)."""

from __future__ import annotations

import numpy as np


class FakeSound:
    """A made sound: its samples, and a play that is logged."""

    def __init__(self, log: list[FakeSound], buffer: bytes) -> None:
        self.log, self.samples = log, np.frombuffer(buffer, np.int16)

    def play(self) -> None:
        self.log.append(self)


class FakeMixer:
    """`made`: every sound made, in order; `played`: every sound played."""

    def __init__(self, channels: int = 1) -> None:
        self.channels = channels
        self.played: list[FakeSound] = []
        self.made: list[FakeSound] = []

    def get_init(self) -> tuple[int, int, int]:
        return (44_100, -16, self.channels)

    def Sound(self, buffer: bytes) -> FakeSound:
        sound = FakeSound(self.played, buffer)
        self.made.append(sound)
        return sound
