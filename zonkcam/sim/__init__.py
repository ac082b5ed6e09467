"""The simulator: everything that draws a table instead of photographing one.

- :mod:`~zonkcam.sim.renderer`: 3-D dice on a mat seen by a camera (training scenes,
  canned test frames).
- :mod:`~zonkcam.sim.demo_table`: the demo table, a camera source that throws dice on the
  printed mat (``--source demo``); :mod:`~zonkcam.sim.lens`: its camera's look.
- :mod:`~zonkcam.sim.fake_table` and :mod:`~zonkcam.sim.scenes`: a drawn camera frame and
  example game moments, for screenshots and screen tests.

The product reaches it only where a user asks for the demo (the ``demo`` camera sources
and the demo game); the tests' layout check keeps it so.
"""
