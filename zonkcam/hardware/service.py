"""systemd integration: readiness and watchdog notifications (sd_notify), no extra library.

Under systemd (``Type=notify``) ``NOTIFY_SOCKET`` names a datagram socket; elsewhere
every call here does nothing.
"""

from __future__ import annotations

import os
import socket
import time


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET", "")
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else 0.0
        self._last = 0.0

    @property
    def active(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> bool:
        if not self.address:
            return False
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
                s.sendto(message.encode(), address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self, now: float | None = None) -> None:
        """Call from the render loop: pings systemd at half its watchdog interval."""
        if not self.interval:
            return
        now = time.monotonic() if now is None else now
        if now - self._last >= self.interval:
            self._last = now
            self.send("WATCHDOG=1")

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")
