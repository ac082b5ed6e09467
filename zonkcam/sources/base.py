"""What every camera source is: frames from ``read()``, ``None`` at the end of a file or
folder, a :class:`CameraError` when it cannot (:class:`BadFrameError` for one bad frame,
:class:`SourceBrokenError` when a file cannot go on), ``close()`` to release it, and the
``spec`` that opens it again; and :class:`ResilientSource`, which keeps frames coming
from a source that fails.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from zonkcam.errors import UserError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


class CameraError(UserError):
    """The camera is gone or will not start."""


class BadFrameError(CameraError):
    """One frame was not an image; the camera itself may carry on."""


class SourceBrokenError(CameraError):
    """A file source cannot go on (a video damaged from here on): reopening would only
    start it again from the beginning."""


@dataclass
class Frame:
    """One picture from a source."""

    image: np.ndarray
    index: int
    t: float
    """Seconds since the source started (the demo table's simulated clock)."""
    truth: Any = field(default=None, repr=False)
    """What the demo table drew (None for real cameras)."""
    detail: np.ndarray | None = field(default=None, repr=False)
    """The same view at a higher resolution, where the source gives one (the Pi camera's
    main stream, the demo table rendered larger): the reader cuts the dice it reads from
    it. ``image`` is what everything else uses (motion, presence, calibration, the
    screen), and boxes are always in ``image`` px."""


class FrameSource(Protocol):
    name: str
    fps: float
    spec: str
    """What open_source() takes to open this source again."""

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def check_image(image: Any, what: str) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise BadFrameError(f"{what} sent something that is not an image")
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image >> 8).astype(np.uint8)
        else:
            raise BadFrameError(f"{what} sent a {image.dtype} image")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif image.shape[2] != 3:
        raise BadFrameError(f"{what} sent an image with {image.shape[2]} channels")
    return image


@dataclass
class CameraProblem:
    message: str
    retry_in_s: float
    """When the source is tried again (0: at once)."""
    final: bool = False
    """The source cannot go on (a damaged video): the stream ends after this."""
    repeat: bool = False
    """Still waiting to try again after a problem already reported (sent every
    ``poll_s`` so that the screen keeps showing it)."""
    lost: bool = False
    """The source itself failed and is closed (reopened after ``retry_in_s``, or not at
    all when ``final``), not just one bad frame."""


class ResilientSource:
    """Keeps frames coming from a source that fails: reports each problem, reopens the
    source with ``opener`` (a new object, opened from its spec) with backoff, skips and
    counts bad frames, and never raises.

    ``frames()`` yields Frame objects and a :class:`CameraProblem` for each failure; while
    it waits to reopen it yields a ``repeat`` problem every ``poll_s`` instead of blocking,
    so that the app goes on drawing. It stops at the end of a finite source, or after a
    ``final`` problem. ``clock`` and ``sleep`` are injectable for tests.
    """

    def __init__(
        self,
        opener: Callable[[], FrameSource],
        *,
        source: FrameSource | None = None,
        max_backoff_s: float = 8.0,
        max_bad_frames: int | None = 30,
        give_up_after: int | None = None,
        poll_s: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """`max_bad_frames`: bad frames in a row after which the source is reopened (None:
        never; a folder's next file is simply the next frame). `give_up_after`: failures
        in a row with no readable frame between them (a failed open, a source that stopped,
        a run of bad frames) after which the stream ends with a ``final`` problem (None:
        it tries for as long as it is read)."""
        self.opener, self.source = opener, source
        self.max_backoff_s, self.max_bad_frames, self.poll_s = max_backoff_s, max_bad_frames, poll_s
        self.give_up_after = give_up_after
        self.clock, self.sleep = clock, sleep
        self.bad_frames = 0
        """Frames skipped because they were not whole images."""
        self.reopened = 0
        self.gave_up: CameraProblem | None = None
        """The final problem the stream ended with (a damaged file, or no readable frame
        after `give_up_after` tries), else None."""

    def frames(self) -> Iterator[Frame | CameraProblem]:
        backoff, bad_in_a_row, failures = 0.5, 0, 0
        waiting: CameraProblem | None = None
        retry_at = 0.0
        while True:
            if waiting is not None:
                left = retry_at - self.clock()
                if left > 0:
                    yield CameraProblem(waiting.message, left, repeat=True)
                    self.sleep(min(self.poll_s, left))
                    continue
                waiting = None
            try:
                if self.source is None:
                    self.source = self.opener()
                    self.reopened += 1
                frame = self.source.read()
            except SourceBrokenError as exc:
                self.close()
                self.gave_up = CameraProblem(str(exc), 0.0, final=True)
                yield self.gave_up
                return
            except BadFrameError as exc:
                self.bad_frames += 1
                bad_in_a_row += 1
                if self.max_bad_frames is None or bad_in_a_row < self.max_bad_frames:
                    yield CameraProblem(str(exc), 0.0)
                    continue
                waiting = CameraProblem(
                    f"{exc} ({bad_in_a_row} bad frames in a row); reopening", backoff, lost=True
                )
            except (CameraError, UserError, OSError, cv2.error) as exc:
                waiting = CameraProblem(str(exc), backoff, lost=True)
            else:
                if frame is None:
                    return
                backoff, bad_in_a_row, failures = 0.5, 0, 0
                yield frame
                continue
            self.close()
            bad_in_a_row = 0
            failures += 1
            if self.give_up_after is not None and failures >= self.give_up_after:
                times = "once" if failures == 1 else f"{failures} times in a row"
                self.gave_up = CameraProblem(
                    f"{waiting.message.removesuffix('; reopening')} (failed {times}: giving up)",
                    0.0,
                    final=True,
                    lost=True,
                )
                yield self.gave_up
                return
            retry_at = self.clock() + backoff
            backoff = min(self.max_backoff_s, backoff * 2)
            yield waiting

    def close(self) -> None:
        if self.source is not None:
            try:
                self.source.close()
            except Exception:
                pass
            finally:
                self.source = None


def first_frame(
    source: FrameSource, say: Callable[[str], None], bad_frames: int = 30
) -> Frame | None:
    """The source's next frame that is an image: a bad one (a folder's empty or damaged
    file, the first one included) is skipped with a line to `say`; None at the source's
    end. A CameraError when `bad_frames` in a row were bad, or the source failed."""
    for _ in range(bad_frames - 1):
        try:
            return source.read()
        except BadFrameError as exc:
            say(f"{exc}; skipped")
    return source.read()


FILE_TRIES = 3
"""A file or folder that gives no readable frame in this many tries in a row is given up."""
