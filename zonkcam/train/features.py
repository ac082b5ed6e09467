"""The value net's pooled feature as a second output, for the table's own dice.

The value net ends ``... -> 1x1 conv -> global average pool (ReduceMean) -> Gemm ->
Softmax -> 'probs'``. The pooled vector (256 floats per crop) is what the classifier head
sees; the table's taught dice (zonkcam.vision.examples) compare crops in that space. This
step names it as a graph output 'features' (N, 256) without touching a node, so 'probs'
stays bit-identical and the file grows only by the output's declaration. `zonkcam train`
applies it when it exports; `python -m zonkcam.train.features FILE` applies it to a
built model in place.
"""

from __future__ import annotations

import sys
from pathlib import Path

FEATURES = "features"
"""The added output's name: (N, D) float32, the pooled feature before the head."""


def pooled_feature_tensor(graph) -> str:  # noqa: ANN001 - an onnx GraphProto
    """The name of the tensor the classifier head (the last Gemm) reads: the pooled
    feature. Raises ValueError when the graph has no such head."""
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    if not gemms:
        raise ValueError("the value net has no Gemm head to take the feature from")
    return gemms[-1].input[0]


def add_feature_output(src: Path, dst: Path | None = None) -> Path:
    """Write `src` (a dice_values.onnx) to `dst` (default: in place) with the pooled
    feature as a second output named FEATURES; a model that has it already is left as is."""
    import onnx
    from onnx import TensorProto, helper

    dst = dst or src
    model = onnx.load(str(src))
    graph = model.graph
    if any(o.name == FEATURES for o in graph.output):
        if dst != src:
            onnx.save(model, str(dst))
        return dst
    name = pooled_feature_tensor(graph)
    width = _feature_width(graph, name)
    # an Identity names the pooled tensor FEATURES; the Gemm still reads the original
    graph.node.append(helper.make_node("Identity", [name], [FEATURES], name="/features"))
    graph.output.append(helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["n", width]))
    onnx.checker.check_model(model)
    onnx.save(model, str(dst))
    return dst


def _feature_width(graph, name: str) -> int:  # noqa: ANN001
    """The feature's length: the head's weight's input width."""
    head = [n for n in graph.node if n.op_type == "Gemm"][-1]
    weights = {t.name: t for t in graph.initializer}
    w = weights.get(head.input[1])
    if w is None:
        raise ValueError("the value net's head has no stored weights")
    trans_b = next((a.i for a in head.attribute if a.name == "transB"), 0)
    return int(w.dims[1] if trans_b else w.dims[0])


if __name__ == "__main__":  # pragma: no cover - the one-off step on a built model
    for arg in sys.argv[1:] or [str(Path(__file__).parents[2] / "models" / "dice_values.onnx")]:
        print(f"{add_feature_output(Path(arg))}: outputs probs, {FEATURES}")
