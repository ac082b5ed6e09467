"""Short sound effects for ZONK, HOT DICE and WINNER, synthesised with numpy at start-up.

No audio files. Played through ``pygame.mixer`` where there is one; with SDL's dummy audio
driver, no audio device or a mixer that will not start, zonkcam is simply silent.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

RATE = 22_050

# (frequency in Hz, seconds) notes; 0 Hz is a rest
_TUNES: dict[str, list[tuple[float, float]]] = {
    "ZONK": [(392, 0.16), (330, 0.16), (262, 0.16), (196, 0.45)],
    "HOT DICE": [(523, 0.08), (659, 0.08), (784, 0.08), (1047, 0.25)],
    "WINNER": [(523, 0.12), (523, 0.12), (523, 0.12), (659, 0.3), (0, 0.05), (784, 0.5)],
}


def synthesise(name: str, rate: int = RATE) -> np.ndarray:
    """The effect ``name`` as mono int16 samples: square-ish notes with a quick fade."""
    parts = []
    for freq, seconds in _TUNES[name]:
        n = int(rate * seconds)
        t = np.arange(n) / rate
        if freq:
            wave = np.sign(np.sin(2 * np.pi * freq * t)) * 0.6 + np.sin(4 * np.pi * freq * t) * 0.2
            envelope = np.minimum(1.0, np.linspace(8, 0, n))  # full, then fade out
            parts.append(wave * envelope)
        else:
            parts.append(np.zeros(n))
    samples = np.concatenate(parts) * 0.5
    return (samples * 32767).astype(np.int16)


class Sounds:
    """The effects, ready to play; :meth:`play` is a no-op when muted or silent."""

    def __init__(self, muted: bool = False, mixer: Any = None) -> None:
        self.muted = muted
        self.silent = True
        """No working audio: nothing will ever play."""
        self._sounds: dict[str, Any] = {}
        self._mixer = mixer if mixer is not None else open_mixer()
        if self._mixer is None:
            return
        try:
            rate, _size, channels = self._mixer.get_init()
            for name in _TUNES:
                samples = synthesise(name, rate)
                if channels > 1:
                    samples = np.repeat(samples[:, None], channels, axis=1)
                self._sounds[name] = self._mixer.Sound(buffer=np.ascontiguousarray(samples))
            self.silent = False
        except Exception as exc:  # any audio trouble means silence, never a crash
            log.info("sound effects off: %s", exc)
            self._sounds = {}

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        return self.muted

    def play(self, name: str) -> bool:
        """Play the effect for banner ``name`` if there is one; True if it was started."""
        sound = self._sounds.get(name)
        if sound is None or self.muted:
            return False
        try:
            sound.play()
            return True
        except Exception as exc:
            log.info("cannot play %s: %s", name, exc)
            return False

    def play_banners(self, names: Iterable[str]) -> str | None:
        """Play the first of ``names`` that has an effect (WINNER before ZONK); its name."""
        wanted = [n for n in ("WINNER", "HOT DICE", "ZONK") if n in set(names)]
        for name in wanted:
            if self.play(name):
                return name
        return None


def open_mixer() -> Any:
    """pygame.mixer, started, or None where there is no real audio device."""
    if os.environ.get("SDL_AUDIODRIVER", "").lower() == "dummy":
        return None
    try:
        import pygame

        mixer = pygame.mixer
        if not mixer.get_init():
            mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
        return mixer if mixer.get_init() else None
    except Exception as exc:  # pygame.error, NotImplementedError (no mixer module), ...
        log.info("no audio: %s", exc)
        return None
