"""Short sound effects for ZONK, HOT DICE and WINNER, synthesised with numpy at start-up.

No audio files. Played through ``pygame.mixer`` where there is one; with SDL's dummy audio
driver, no audio device or a mixer that will not start, zonkcam is simply silent. Muted
(``--mute``, or no display), the mixer is not even started until the players unmute.

SDL is not left to probe for sound by itself: where nothing can play it, its tries print
ALSA's errors on stderr and PulseAudio's client leaves folders in ``~/.config/pulse`` and
``/tmp``. :func:`audio_drivers` names only the drivers that have something to play through
(a PulseAudio or PipeWire server, a sound card), and what their start writes on stderr
goes to the log instead.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
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
        """No working audio (or not started yet, while muted): nothing plays."""
        self._sounds: dict[str, Any] = {}
        self._mixer = mixer
        self._opened = False
        if not muted:
            self._open()

    def _open(self) -> None:
        """Start the mixer (once) and make the effects."""
        if self._opened:
            return
        self._opened = True
        if self._mixer is None:
            self._mixer = open_mixer()
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
        if not self.muted:
            self._open()
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


def open_mixer(env: Mapping[str, str] | None = None) -> Any:
    """pygame.mixer, started, or None where there is no real audio device."""
    env = os.environ if env is None else env
    for driver in audio_drivers(env):
        mixer = _start_mixer(driver)
        if mixer is not None:
            return mixer
    return None


def audio_drivers(env: Mapping[str, str], dev_snd: Path = Path("/dev/snd")) -> list[str]:
    """SDL audio drivers worth starting, in order: ``SDL_AUDIODRIVER`` if set (none for
    ``dummy``); else ``pulseaudio`` where a PulseAudio (or PipeWire's pulse) server
    listens, ``pipewire`` where PipeWire does, ``alsa`` where there is a sound card to
    play through. None of them: no sound to be had, and nothing is started."""
    wanted = env.get("SDL_AUDIODRIVER", "").strip()
    if wanted:
        return [] if wanted.lower() == "dummy" else [wanted]
    runtime = env.get("XDG_RUNTIME_DIR", "")
    drivers = []
    if env.get("PULSE_SERVER") or (runtime and _exists(Path(runtime, "pulse", "native"))):
        drivers.append("pulseaudio")
    if runtime and _exists(Path(runtime, env.get("PIPEWIRE_REMOTE") or "pipewire-0")):
        drivers.append("pipewire")
    if _playback_devices(dev_snd):
        drivers.append("alsa")
    return drivers


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def _playback_devices(dev_snd: Path) -> list[Path]:
    """ALSA's playback devices (``pcmC0D0p``...) that this user may open."""
    try:
        found = sorted(dev_snd.glob("pcmC*D*p"))
    except OSError:
        return []
    return [p for p in found if os.access(p, os.R_OK | os.W_OK)]


def _start_mixer(driver: str) -> Any:
    """pygame.mixer started on SDL audio ``driver``, or None."""
    saved = os.environ.get("SDL_AUDIODRIVER")
    os.environ["SDL_AUDIODRIVER"] = driver
    try:
        import pygame

        mixer = pygame.mixer
        if not mixer.get_init():
            with stderr_to_log(f"audio {driver}"):
                mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
        return mixer if mixer.get_init() else None
    except Exception as exc:  # pygame.error, NotImplementedError (no mixer module), ...
        log.info("no audio (%s): %s", driver, exc)
        return None
    finally:
        if saved is None:
            os.environ.pop("SDL_AUDIODRIVER", None)
        else:
            os.environ["SDL_AUDIODRIVER"] = saved


@contextmanager
def stderr_to_log(what: str) -> Iterator[None]:
    """What C libraries write on file descriptor 2 meanwhile (ALSA's and PulseAudio's
    complaints) goes to the log at info level, not to the players' terminal."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no stderr to guard
        yield
        return
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            text = caught.read().decode("utf-8", "replace").strip()
            if text:
                log.info("%s said: %s", what, text)
