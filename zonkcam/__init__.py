"""zonkcam: a camera reads physical dice and keeps score for Zonk (Farkle / 10,000)."""

import os

# onnxruntime's telemetry (a device id and queued events under ~/.cache/Microsoft, an
# uploader thread) is off before anything imports it: a table companion phones nobody.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"

MAX_DECODE_PIXELS = 16_000_000
"""The most pixels any image decode puts out: OpenCV itself refuses a larger one
(OPENCV_IO_MAX_IMAGE_PIXELS, read once when cv2 is first imported, so set here, before
anything imports it) on the header its decoder reads, whatever zonkcam's own reading of
the header said; a JPEG decoded at 1/2, 1/4 or 1/8 is counted at that size. At the
6.25-12.25 bytes a pixel a decode takes, it stays within the 250 MB a whole process may
hold (zonkcam.vision.imageio.MAX_PROCESS_BYTES)."""
os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] = str(MAX_DECODE_PIXELS)

__version__ = "0.1.0"
