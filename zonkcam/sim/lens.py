"""The demo camera's look (:class:`CameraLook`: tilt, barrel distortion, uneven light,
blur, JPEG, clutter, noise) and the lens that puts it on drawn frames (:class:`Lens`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from zonkcam.errors import UserError


@dataclass(frozen=True)
class CameraLook:
    """How the demo camera's picture differs from a perfect one."""

    tilt_deg: float = 6.0
    """How far the camera looks from straight down."""
    barrel: float = 0.0
    """Barrel distortion: how much nearer the centre a frame corner is drawn (0.06 = 6%)."""
    light_falloff: float = 0.0
    """Uneven light: the darkest part of the frame is this share darker than the brightest."""
    blur: float = 0.0
    """Lens blur, Gaussian sigma in px of a 1280 px wide frame."""
    jpeg_quality: int = 0
    """Every frame goes through JPEG at this quality (0: never)."""
    clutter: int = 0
    """Things lying on the table round the mat (cups, phones, papers)."""
    noise: float = 1.5
    """Sensor noise, grey levels."""
    mat_share: float = 0.85
    """How much of the frame's width the mat fills (the rest is the table round it)."""


PLAIN = CameraLook()
REALISTIC = CameraLook(
    tilt_deg=15.0,
    barrel=0.06,
    light_falloff=0.35,
    blur=1.0,
    jpeg_quality=70,
    clutter=6,
    noise=2.5,
    mat_share=0.75,
)
LOOKS = {"plain": PLAIN, "realistic": REALISTIC}


def demo_of(spec: str) -> tuple[CameraLook, str]:
    """The camera look and the mat (one of layout.SIZES) a demo source spec asks for:
    ``demo``, ``demo:LOOK``, ``demo:MAT`` or ``demo:LOOK:MAT`` (``demo:realistic:a4``);
    plain and a3 unless named."""
    from zonkcam.mat.layout import SIZES

    look, mat = "plain", "a3"
    words = spec.split(":")[1:]
    for i, word in enumerate(words):
        if word in LOOKS and i == 0:
            look = word
        elif word in SIZES and i == len(words) - 1:
            mat = word
        else:
            raise UserError(
                f"--source demo:LOOK takes {' or '.join(LOOKS)}, and demo:MAT or "
                f"demo:LOOK:MAT a mat ({', '.join(SIZES)}); not {spec!r}"
            )
    return LOOKS[look], mat


def noise_bank(
    shape: tuple[int, ...], sigma: float, rng: np.random.Generator, n: int = 8
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Sensor noise for a frame, made once: (what to add, what to take away) as uint8,
    ``n`` different draws to pick from frame by frame."""
    bank = []
    for _ in range(n):
        noise = rng.normal(0.0, sigma, shape)
        bank.append(
            (np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8))
        )
    return bank


class Lens:
    """A camera's optics and encoding (:class:`CameraLook`) applied to drawn frames."""

    def __init__(self, look: CameraLook, w: int, h: int, rng: np.random.Generator) -> None:
        self.look, self.size = look, (w, h)
        self.centre = np.array([w / 2, h / 2])
        self.radius = float(np.hypot(w / 2, h / 2))
        self.maps = None
        if look.barrel:
            # each output pixel at radius r (a share of the half-diagonal) shows the drawn
            # picture at r * (1 + k r^2): the picture is drawn in towards the centre
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            dx, dy = xx - w / 2, yy - h / 2
            grow = 1 + self._k * (dx * dx + dy * dy) / self.radius**2
            self.maps = (
                (w / 2 + dx * grow).astype(np.float32),
                (h / 2 + dy * grow).astype(np.float32),
            )
        self.light = None
        if look.light_falloff:
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            gx, gy = rng.uniform(-0.6, 0.6, 2)
            field = (
                gx * (xx / w - 0.5)
                + gy * (yy / h - 0.5)
                - 0.8 * ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2)
            )
            field = (field - field.min()) / max(1e-6, float(field.max() - field.min()))
            self.light = (1 - look.light_falloff * (1 - field))[..., None].astype(np.float32)

    @property
    def _k(self) -> float:
        # a corner (r = 1) is drawn from 1 / (1 - barrel) of its radius
        return 1 / (1 - self.look.barrel) - 1

    def optics(self, image: np.ndarray) -> np.ndarray:
        """Uneven light, distortion and blur (the same for every frame of a still scene)."""
        out = image
        if self.light is not None:
            out = np.clip(out.astype(np.float32) * self.light, 0, 255).astype(np.uint8)
        if self.maps is not None:
            out = cv2.remap(out, *self.maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if self.look.blur:
            out = cv2.GaussianBlur(out, (0, 0), self.look.blur * self.size[0] / 1280)
        return out

    def compress(self, image: np.ndarray) -> np.ndarray:
        if not self.look.jpeg_quality:
            return image
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.look.jpeg_quality])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)

    def points(self, pts: np.ndarray) -> np.ndarray:
        """Where drawn points land in the distorted frame."""
        pts = np.asarray(pts, float).reshape(-1, 2)
        if self.maps is None:
            return pts
        d = pts - self.centre
        r_drawn = np.hypot(d[:, 0], d[:, 1]) / self.radius
        r = r_drawn.copy()
        for _ in range(20):  # solve r (1 + k r^2) = r_drawn
            r -= (r * (1 + self._k * r * r) - r_drawn) / (1 + 3 * self._k * r * r)
        scale = np.where(r_drawn > 1e-9, r / np.maximum(r_drawn, 1e-9), 1.0)
        return self.centre + d * scale[:, None]

    def boxes(self, boxes: Sequence) -> tuple[tuple[float, float, float, float], ...]:
        out = []
        for x0, y0, x1, y1 in boxes:
            p = self.points([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
            out.append(
                (
                    float(p[:, 0].min()),
                    float(p[:, 1].min()),
                    float(p[:, 0].max()),
                    float(p[:, 1].max()),
                )
            )
        return tuple(out)
