"""The scorekeeper's screen (pygame-ce): view model, drawing, banners, sounds, window, input.

pygame is imported only inside this package (and nowhere in :mod:`zonkcam.game`).
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
