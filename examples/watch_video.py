"""Watch a video (or an image folder) of the mat and print each settled throw.

python examples/watch_video.py table.mp4 --calibration calibration.toml
"""

from __future__ import annotations

import argparse

from zonkcam.mat.calibrate import load_calibration
from zonkcam.sources import open_source
from zonkcam.table.observe import TableEvent, TableWatcher
from zonkcam.table.reading import OnnxReader


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("video", help="a video file or a folder of images")
    p.add_argument("--calibration", required=True, help="from `zonkcam calibrate`")
    args = p.parse_args(argv)
    cal = load_calibration(args.calibration)
    source = open_source(args.video)
    watcher = TableWatcher(cal, OnnxReader.for_table(cal))
    try:
        for report in watcher.watch(iter(source.read, None)):
            if report.event is TableEvent.SETTLED:
                rolled = " ".join(str(v) for v in sorted(d.value for d in report.rolled))
                kept = " ".join(str(v) for v in sorted(d.value for d in report.in_strip))
                print(f"frame {report.frame}: {report.change}  rolled [{rolled}]  strip [{kept}]")
    finally:
        source.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
