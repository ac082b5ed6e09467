"""A clock that moves only when told to."""

from __future__ import annotations


class FakeClock:
    """Called, it says the time (s); `sleep` records the wait and moves the time on, and a
    test moves it by hand (``clock.now += 0.3``). Pass it where the code takes a clock
    (``clock=time.monotonic``) and, with its `sleep`, a sleeper."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.sleeps.append(s)
        self.now += s
