"""Sound effects: synthesised, played through the mixer when there is one, never a crash."""

from __future__ import annotations

import numpy as np
import pytest

from zonkcam.display import sounds
from zonkcam.display.sounds import RATE, Sounds, synthesise
from zonkcam.testing import FakeMixer


@pytest.mark.parametrize("name", ["ZONK", "HOT DICE", "WINNER"])
def test_effects_are_short_and_audible(name):
    samples = synthesise(name)
    assert samples.dtype == np.int16 and samples.ndim == 1
    assert 0.2 < len(samples) / RATE < 2.0
    assert np.abs(samples).max() > 8000
    assert abs(int(samples[-1])) < 2000  # faded out, no click at the end


def test_effects_differ():
    a, b, c = (synthesise(n) for n in ("ZONK", "HOT DICE", "WINNER"))
    assert len({len(a), len(b), len(c)}) == 3


def test_plays_through_the_mixer():
    mixer = FakeMixer()
    s = Sounds(mixer=mixer)
    assert not s.silent
    assert len(mixer.made) == 3
    assert s.play("ZONK")
    assert mixer.played == [mixer.made[0]]
    assert not s.play("FRAME")  # no effect for that banner


def test_stereo_mixer_gets_two_channels():
    mixer = FakeMixer(channels=2)
    Sounds(mixer=mixer)
    rate = mixer.get_init()[0]
    assert len(mixer.made[0].samples) == 2 * len(synthesise("ZONK", rate))


def test_mute():
    mixer = FakeMixer()
    s = Sounds(mixer=mixer, muted=True)
    assert not s.play("WINNER")
    assert s.toggle_mute() is False
    assert s.play("WINNER")
    assert s.toggle_mute() is True
    assert not s.play("WINNER")
    assert len(mixer.played) == 1


def test_play_banners_picks_the_one_that_matters():
    mixer = FakeMixer()
    s = Sounds(mixer=mixer)
    assert s.play_banners(["ZONK", "NEWBIE"]) == "ZONK"
    assert s.play_banners(["FINAL ROUND", "WINNER"]) == "WINNER"
    assert s.play_banners(["UNDO"]) is None
    assert len(mixer.played) == 2


def test_dummy_audio_is_silent():
    # conftest sets SDL_AUDIODRIVER=dummy
    s = Sounds()
    assert s.silent
    assert not s.play("ZONK")
    assert s.play_banners(["ZONK"]) is None


def test_a_mixer_that_will_not_start_is_silent(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_AUDIODRIVER", "alsa")

    def refuse(*args, **kwargs):
        raise pygame.error("No such audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", refuse)
    assert sounds.open_mixer() is None
    assert Sounds().silent


def test_a_broken_mixer_is_silent():
    class Broken(FakeMixer):
        def Sound(self, buffer):
            raise RuntimeError("bad buffer")

    s = Sounds(mixer=Broken())
    assert s.silent and not s.play("ZONK")
