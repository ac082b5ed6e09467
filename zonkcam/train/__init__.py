"""Rebuild the dice models (`zonkcam train`). Needs the `train` extra (torch, onnx,
EfficientNet-Lite0); the runtime reader (zonkcam.vision) never imports this package."""
