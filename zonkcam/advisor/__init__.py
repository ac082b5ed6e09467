"""The advisor: exact odds and optimal play for the table's own rules (pure: no I/O).

``model.py`` (a turn as positions, rolls and choices, scored by the engine's
:func:`~zonkcam.game.scoring.score_roll`), ``solver.py`` (the numpy recursion over turn
totals), ``points.py`` (expected points: one turn, and the long run with the three-zonk
penalty), ``race.py`` (two players: the chance to win from every score), ``advice.py``
(:class:`~zonkcam.advisor.advice.Advisor`: advice for a game state).
"""
