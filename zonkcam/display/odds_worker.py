"""The odds panel's advice, worked out on a thread of its own so that no frame waits for it.

:meth:`OddsWorker.advice` answers at once: the advice for the state on screen if it is
ready, else None (the panel says it is thinking) while the thread works it out. Advice is
kept per state (:func:`~zonkcam.advisor.advice.advice_key`), so going back to a state
(an undo) shows it again at once. The advisor is handed in (the app builds one for the
screen, the text mode and the demo); without one, a plain :class:`Advisor` (no two-player
tables) gives the advice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict

from zonkcam.advisor.advice import Advice, Advisor, advice_key
from zonkcam.game.state import GameState

log = logging.getLogger(__name__)

KEEP = 256
"""States whose advice is kept."""


class OddsWorker:
    def __init__(self, advisor: Advisor | None = None) -> None:
        self._advisor = advisor if advisor is not None else Advisor()
        self._done: OrderedDict[tuple, Advice | None] = OrderedDict()
        self._wanted: tuple[tuple, GameState] | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def advice(self, state: GameState) -> Advice | None:
        """The advice for ``state`` if it is ready; else None, and it is asked for."""
        key = advice_key(state)
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
            self._wanted = (key, state)  # only the latest state on screen is worth working on
        self._start()
        self._wake.set()
        return None

    def ready(self, state: GameState) -> bool:
        with self._lock:
            return advice_key(state) in self._done

    def wait(self, state: GameState, timeout: float = 10.0) -> Advice | None:
        """Block until the advice for ``state`` is ready (for tests and scripts)."""
        self.advice(state)
        deadline = time.monotonic() + timeout
        while not self.ready(state) and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.advice(state) if self.ready(state) else None

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="odds", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            with self._lock:
                wanted, self._wanted = self._wanted, None
            if wanted is None:
                continue
            key, state = wanted
            try:
                advice = self._advisor.advise(state)
            except Exception:  # the panel must never take the screen down
                log.exception("no advice for this state")
                advice = None
            with self._lock:
                self._done[key] = advice
                while len(self._done) > KEEP:
                    self._done.popitem(last=False)
