"""The app: everything put together. ``main`` builds the table app for ``zonkcam play``
(camera source, calibration, reader, game, window, buttons) and ``loop`` runs it one
frame at a time: frame -> watcher -> ``flow`` (which table action?) -> scorekeeper ->
screen. ``text`` is the terminal scorekeeper, ``games`` starts and resumes games, and
``demo`` with ``players`` plays the demo game's automatic players at the demo table."""
