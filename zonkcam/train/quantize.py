"""The value net in int8: static quantization with onnxruntime.

The value net is most of a photo's time; int8 weights and activations take about half
of that off and shrink the file to a third. Calibrated on the trained detector's own
candidates in training images, as the value net sees them at run time.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import numpy as np

HEAD_OPS = ("Gemm", "Softmax")
"""Left in float: the logits and the softmax, whose probabilities the reader compares
with its thresholds (in uint8 they come in steps of 1/255)."""


def quantize_values(src: Path, dst: Path, crops: np.ndarray, batch: int = 8) -> None:
    """Write `src` (a float32 dice_values.onnx) to `dst` in int8 (QDQ: per-channel int8
    weights, uint8 activations calibrated on `crops`; the head, HEAD_OPS, in float)."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class _Crops(CalibrationDataReader):
        def __init__(self) -> None:
            self.i = 0

        def get_next(self) -> dict[str, np.ndarray] | None:
            if self.i >= len(crops):
                return None
            self.i += batch
            return {"crops": crops[self.i - batch : self.i]}

    src, dst = Path(src).resolve(), Path(dst).resolve()
    # the ONNX tools leave scratch files in the working directory: give them a temporary one
    with tempfile.TemporaryDirectory() as scratch, contextlib.chdir(scratch):
        pre = Path(scratch) / "pre.onnx"
        quant_pre_process(str(src), str(pre))
        head = [n.name for n in onnx.load(str(pre)).graph.node if n.op_type in HEAD_OPS]
        quantize_static(
            str(pre),
            str(dst),
            _Crops(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            nodes_to_exclude=head,
        )
    model = onnx.load(str(dst))
    keep_used_opsets(model)
    onnx.save(model, str(dst))


def keep_used_opsets(model) -> None:  # noqa: ANN001 - an onnx ModelProto
    """Drop the opset imports no node uses. The quantizer stamps every domain it knows
    (ai.onnx.ml 5 among them), which older onnxruntime releases refuse to load."""
    used = {n.domain for n in model.graph.node} | {""}
    kept = [o for o in model.opset_import if o.domain in used]
    del model.opset_import[:]
    model.opset_import.extend(kept)
