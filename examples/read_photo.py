"""Read the dice in one photo: value, confidence, colour and box of each.

python examples/read_photo.py photo.jpg
"""

from __future__ import annotations

import argparse

from zonkcam.vision import load_image, load_model, read_dice


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("photo")
    args = p.parse_args(argv)
    model = load_model(threads=1)  # the shipped models; onnxruntime on one core
    dice = read_dice(load_image(args.photo), model)
    print(f"{len(dice)} dice, total {sum(d.value for d in dice)}")
    for d in dice:
        x0, y0, x1, y1 = (round(v) for v in d.bbox)
        print(f"  {d.value}  {d.confidence:.2f}  {d.color or '?':<7} ({x0},{y0})-({x1},{y1})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
