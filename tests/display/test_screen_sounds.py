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


def test_audio_drivers_name_only_what_can_play(tmp_path):
    no_card = tmp_path / "no-snd"
    assert sounds.audio_drivers({}, no_card) == []  # no server, no sound card: nothing
    assert sounds.audio_drivers({"SDL_AUDIODRIVER": "dummy"}, no_card) == []
    assert sounds.audio_drivers({"SDL_AUDIODRIVER": "alsa"}, no_card) == ["alsa"]
    runtime = tmp_path / "run"
    (runtime / "pulse").mkdir(parents=True)
    env = {"XDG_RUNTIME_DIR": str(runtime)}
    assert sounds.audio_drivers(env, no_card) == []  # a runtime folder, no server in it
    (runtime / "pulse" / "native").touch()
    (runtime / "pipewire-0").touch()
    assert sounds.audio_drivers(env, no_card) == ["pulseaudio", "pipewire"]
    assert sounds.audio_drivers({"PULSE_SERVER": "tcp:host"}, no_card) == ["pulseaudio"]
    snd = tmp_path / "snd"
    snd.mkdir()
    (snd / "controlC0").touch()
    (snd / "pcmC0D0c").touch()  # a microphone plays nothing
    assert sounds.audio_drivers({}, snd) == []
    (snd / "pcmC0D0p").touch()  # a Pi's headphone jack or HDMI
    assert sounds.audio_drivers({}, snd) == ["alsa"]


def test_no_audio_anywhere_starts_no_mixer(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setattr(sounds, "audio_drivers", lambda env: [])
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: pytest.fail("mixer started"))
    assert sounds.open_mixer() is None
    assert Sounds().silent


def test_muted_starts_the_mixer_only_when_unmuted(monkeypatch):
    mixer = FakeMixer()
    opened = []
    monkeypatch.setattr(sounds, "open_mixer", lambda: opened.append(1) or mixer)
    s = Sounds(muted=True)
    assert opened == [] and not s.play("ZONK")
    s.toggle_mute()
    s.toggle_mute()
    s.toggle_mute()
    assert opened == [1] and s.play("ZONK")


def test_what_c_writes_on_stderr_while_the_mixer_starts_goes_to_the_log(capfd, caplog):
    import logging
    import os

    caplog.set_level(logging.INFO, logger="zonkcam.display.sounds")
    with sounds.stderr_to_log("audio alsa"):
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
    assert capfd.readouterr().err == ""
    assert "Unknown PCM default" in caplog.text
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"
