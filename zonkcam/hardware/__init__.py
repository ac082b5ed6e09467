"""The Raspberry Pi's own hardware besides the camera (which is a source, see
:mod:`zonkcam.sources`): the arcade buttons on GPIO, and systemd's readiness and
watchdog."""
