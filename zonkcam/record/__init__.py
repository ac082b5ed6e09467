"""The game record: the crash-safe event log (``store``), a game bound to it
(``scorekeeper``), and each roll's photo beside it (``photos``)."""
