"""The value net's `features` made to compare faces: a small head trained with a metric
objective, for the table's taught dice (zonkcam.vision.examples).

The pooled vector the classifier reads (256 floats per crop) groups crops by the die's
look before its value: two faces of one red die lie closer than a 3 on a red die and a 3
on a white one. The table compares a die with the faces it was taught, so it needs a
feature in which one value on different dice lies closer than two values on one die.

A head on the pooled vector (256 -> 256 -> FACE_DIM, ReLU between) is trained with a
supervised contrastive loss (Khosla et al. 2020): in each batch every crop is pulled
towards the crops of its value and pushed from the others, the nearest others (those of
the same look) hardest. The crops are those of every labelled die of the training split
(the left-out source of a twin excluded), each seen in several augmented views (the value
net's own augmentation: turns, mirrors, light, recolouring), their pooled vectors computed
once by the shipped ONNX graph. The net's other weights are not touched: `probs` stays
bit-identical.

The exported `features` output is the L2-normalised join of the pooled vector (weight
LOOK_SHARE, normalised: the die's look, which tells a taught die from another) and the
head's embedding (normalised: its value), so one cosine weighs both.

`zonkcam train faces --model-dir DIR` fits the head for DIR's value net (a twin's folder
names the source it left out, and that source is not used) and writes it into
DIR/dice_values.onnx; `zonkcam train` does it when it exports.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FEATURES = "features"
"""The value net's output the table's taught dice are compared in: (N, D) float32."""
FACE_DIM = 64
"""The head's embedding's length."""
HIDDEN = 256
LOOK_SHARE = 0.5
"""The pooled vector's weight in the exported feature, against the head's 1: cosine of
two crops = (LOOK_SHARE^2 x cos(looks) + cos(faces)) / (1 + LOOK_SHARE^2)."""
TEMPERATURE = 0.1
CROPS_PER_DIE = 2
"""Jittered crops cut per labelled die."""
MAX_DICE_PER_SOURCE = 6000
"""At most this many dice of one source (the largest would drown the others)."""
VIEWS = 3
"""Augmented views of each crop whose pooled vectors the head trains on."""
STEPS = 600
BATCH = 768
LR = 2e-3


@dataclass(frozen=True)
class FaceData:
    """The head's training set: pooled vectors (N, D) of augmented crops, their values
    (N,) and sources (N,)."""

    pooled: np.ndarray
    values: np.ndarray
    sources: np.ndarray


def pooled_feature_tensor(graph) -> str:  # noqa: ANN001 - an onnx GraphProto
    """The name of the tensor the value net's classifier head (its last Gemm) reads: the
    pooled vector. Raises ValueError when the graph has no such head."""
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    if not gemms:
        raise ValueError("the value net has no Gemm head to take the feature from")
    return gemms[-1].input[0]


def pooled_of(session, crops: np.ndarray, chunk: int = 512) -> np.ndarray:  # noqa: ANN001
    """The pooled vectors of (N, 3, 64, 64) float32 crops through an onnxruntime session
    of the value net (its 'pooled' output: the classifier's input)."""
    out = []
    for i in range(0, len(crops), chunk):
        out.append(session.run(["pooled"], {"crops": crops[i : i + chunk]})[0])
    return np.concatenate(out) if out else np.zeros((0, 0), np.float32)


def pooled_session(values_path: Path, threads: int):  # noqa: ANN201 - an InferenceSession
    """An onnxruntime session of the value net at `values_path` that outputs its pooled
    vector as 'pooled' (whatever its outputs are)."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    model = onnx.load(str(values_path))
    graph = model.graph
    name = pooled_feature_tensor(graph)
    del graph.output[:]
    graph.node.append(helper.make_node("Identity", [name], ["pooled"], name="/pooled_out"))
    graph.output.append(helper.make_tensor_value_info("pooled", TensorProto.FLOAT, None))
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def face_data(
    values_path: Path,
    photos: Sequence,  # zonkcam.train.data.Photo
    seed: int,
    threads: int,
    log: Callable[[str], None],
) -> FaceData:
    """Cut CROPS_PER_DIE jittered crops of every labelled die of `photos` (at most
    MAX_DICE_PER_SOURCE dice of a source), augment each VIEWS times and compute their
    pooled vectors with the value net at `values_path`. ValueError without a die."""
    from zonkcam.train import data as D
    from zonkcam.vision.preprocess import crop_die

    rng = np.random.default_rng([seed, 41])
    by_source: dict[str, list[tuple[int, int]]] = {}
    for i, p in enumerate(photos):
        for j in range(len(p.boxes)):
            by_source.setdefault(p.source, []).append((i, j))
    chosen: dict[int, list[int]] = {}
    for src in sorted(by_source):
        dice = by_source[src]
        pick = rng.permutation(len(dice))[:MAX_DICE_PER_SOURCE]
        for k in pick:
            i, j = dice[int(k)]
            chosen.setdefault(i, []).append(j)
    crops, values, sources = [], [], []
    for i in sorted(chosen):
        p = photos[i]
        img = p.image()
        for j in chosen[i]:
            for _ in range(CROPS_PER_DIE):
                crops.append(crop_die(img, D.jitter(p.boxes[j], rng)))
                values.append(int(p.values[j]))
                sources.append(p.source)
    if not crops:
        raise ValueError("no labelled dice to fit the face feature on")
    x = np.stack(crops)
    log(f"faces: {len(x)} crops of {sum(len(v) for v in chosen.values())} dice")
    session = pooled_session(values_path, threads)
    pooled, t0 = [], time.time()
    for view in range(VIEWS):
        vrng = np.random.default_rng([seed, 43, view])
        for i in range(0, len(x), 2048):
            pooled.append(pooled_of(session, D.value_augment(x[i : i + 2048], vrng)))
        log(f"faces: view {view + 1}/{VIEWS} ({time.time() - t0:.0f} s)")
    return FaceData(
        np.concatenate(pooled).astype(np.float32),
        np.tile(np.array(values, np.int64), VIEWS),
        np.tile(np.array(sources), VIEWS),
    )


def supcon_loss(z, labels, temperature: float = TEMPERATURE):  # noqa: ANN001, ANN201
    """The supervised contrastive loss of L2-normalised embeddings `z` (N, F) with
    `labels` (N,): each anchor's mean log-probability of its positives (the other crops
    of its label) among all other crops."""
    import torch

    sim = z @ z.T / temperature
    n = len(z)
    eye = torch.eye(n, dtype=torch.bool)
    sim = sim.masked_fill(eye, -1e9)
    log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    pos = (labels[:, None] == labels[None, :]) & ~eye
    count = pos.sum(1).clamp(min=1)
    return -((log_prob * pos).sum(1) / count).mean()


def train_head(
    data: FaceData, seed: int, log: Callable[[str], None], steps: int = STEPS
) -> dict[str, np.ndarray]:
    """Fit the head on `data`; returns its weights: w1 (D, HIDDEN), b1, w2 (HIDDEN,
    FACE_DIM), b2 and the mean pooled vector it centres on."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng([seed, 47])
    x = torch.from_numpy(data.pooled)
    mean = x.mean(0)
    y = torch.from_numpy(data.values)
    d = x.shape[1]
    head = torch.nn.Sequential(
        torch.nn.Linear(d, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, FACE_DIM)
    )
    opt = torch.optim.AdamW(head.parameters(), lr=LR, weight_decay=1e-4)
    # each batch draws its sources alike, so the largest does not decide the space
    names = sorted(set(data.sources.tolist()))
    pools = [np.flatnonzero(data.sources == s) for s in names]
    t0, losses = time.time(), []
    for step in range(steps):
        lr = LR * 0.5 * (1 + np.cos(np.pi * step / steps))
        for g in opt.param_groups:
            g["lr"] = lr
        per = BATCH // len(pools)
        idx = np.concatenate([pool[rng.integers(0, len(pool), per)] for pool in pools])
        z = torch.nn.functional.normalize(head(x[idx] - mean), dim=1)
        loss = supcon_loss(z, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if (step + 1) % 250 == 0 or step + 1 == steps:
            log(
                f"faces: step {step + 1}/{steps} loss {np.mean(losses[-250:]):.3f} "
                f"({time.time() - t0:.0f} s)"
            )
    w = [p.detach().numpy().astype(np.float32) for p in head.parameters()]
    return {"w1": w[0].T.copy(), "b1": w[1], "w2": w[2].T.copy(), "b2": w[3], "mean": mean.numpy()}


def embed(pooled: np.ndarray, head: dict[str, np.ndarray], look: float = LOOK_SHARE) -> np.ndarray:
    """What the exported `features` output computes, in numpy: the normalised join of the
    pooled vector (weight `look`) and the head's embedding."""
    h = np.maximum((pooled - head["mean"]) @ head["w1"] + head["b1"], 0) @ head["w2"] + head["b2"]
    h /= np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-6)
    p = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-6)
    out = np.concatenate([look * p, h], axis=1)
    return out / np.sqrt(1 + look**2)


def add_face_output(
    values_path: Path, head: dict[str, np.ndarray], look: float = LOOK_SHARE
) -> Path:
    """Write the head into `values_path` (in place): its 'features' output becomes the
    join `embed` computes (any 'features' output before is replaced); 'probs' and every
    node it reads are left as they were."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(values_path))
    graph = model.graph
    for out in [o for o in graph.output if o.name == FEATURES]:
        graph.output.remove(out)
    for node in [n for n in graph.node if FEATURES in n.output or n.name.startswith("/faces/")]:
        graph.node.remove(node)
    for init in [i for i in graph.initializer if i.name.startswith("faces.")]:
        graph.initializer.remove(init)
    pooled = pooled_feature_tensor(graph)
    consts = {
        "faces.mean": head["mean"].astype(np.float32),
        "faces.w1": head["w1"].astype(np.float32),
        "faces.b1": head["b1"].astype(np.float32),
        "faces.w2": head["w2"].astype(np.float32),
        "faces.b2": head["b2"].astype(np.float32),
        "faces.look": np.array(look, np.float32),
        "faces.scale": np.array(1.0 / np.sqrt(1 + look**2), np.float32),
    }
    graph.initializer.extend(numpy_helper.from_array(v, k) for k, v in consts.items())

    def node(op: str, inputs: list[str], name: str, **attrs) -> str:
        out = f"/faces/{name}"
        graph.node.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    flat = node("Flatten", [pooled], "flat", axis=1)
    centred = node("Sub", [flat, "faces.mean"], "centred")
    h = node(
        "Relu",
        [node("Add", [node("MatMul", [centred, "faces.w1"], "mm1"), "faces.b1"], "a1")],
        "relu",
    )
    h = node("Add", [node("MatMul", [h, "faces.w2"], "mm2"), "faces.b2"], "a2")
    h = node("LpNormalization", [h], "face_norm", axis=1, p=2)
    p = node("LpNormalization", [flat], "look_norm", axis=1, p=2)
    p = node("Mul", [p, "faces.look"], "look")
    joined = node("Concat", [p, h], "join", axis=1)
    graph.node.append(
        helper.make_node("Mul", [joined, "faces.scale"], [FEATURES], name="/faces/out")
    )
    width = int(head["w1"].shape[0]) + FACE_DIM
    graph.output.append(helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["n", width]))
    onnx.checker.check_model(model)
    tmp = values_path.with_name(values_path.name + ".faces.tmp")
    onnx.save(model, str(tmp))
    tmp.replace(values_path)
    return values_path


def left_out_of(model_dir: Path) -> str | None:
    """The source a twin's folder was trained without (its run.json), or None."""
    try:
        info = json.loads((model_dir / "run.json").read_text())
    except (OSError, ValueError):
        return None
    return (info.get("settings") or {}).get("leave_out")
