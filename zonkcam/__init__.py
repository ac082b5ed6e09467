"""zonkcam: a camera reads physical dice and keeps score for Zonk (Farkle / 10,000)."""

import os

# onnxruntime's telemetry (a device id and queued events under ~/.cache/Microsoft, an
# uploader thread) is off before anything imports it: a table companion phones nobody.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"

__version__ = "0.1.0"
