"""Fakes for tests, the project's and a user's own (as gpiozero ships its MockFactory):
a reader that reports what the demo table drew, a clock that moves when told, a sound
mixer and picamera2's camera object; and the durability harness (:mod:`.durability`),
which SIGKILLs a scripted game and checks the event log after every kill."""

from zonkcam.testing.camera import FakePicamera2
from zonkcam.testing.clock import FakeClock
from zonkcam.testing.reader import TruthReader
from zonkcam.testing.sound import FakeMixer, FakeSound

__all__ = ["FakeClock", "FakeMixer", "FakePicamera2", "FakeSound", "TruthReader"]
