"""Opening the table (zonkcam.app.camera.open_table), as `play` and `watch` both do: the
source from the registry, its first frame, the calibration, the reader and the teacher."""

from __future__ import annotations

import cv2

from zonkcam.app.camera import open_table
from zonkcam.mat.calibrate import calibrate
from zonkcam.sim.demo_table import DemoTable
from zonkcam.table.teaching import taught_dice_path


def test_a_table_opens_its_teacher_beside_its_calibration_and_the_demo_table_on_no_disk(
    tmp_path,
):
    table = DemoTable(seed=1, autoplay=False, size=(640, 480))
    first = table.read()
    cal_path = tmp_path / "cal.json"
    calibrate(first.image, table.geometry).save(cal_path)
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "0.png"), first.image)
    said: list[str] = []
    real = open_table(str(tmp_path / "frames"), calibration=cal_path, teach=said.append)
    assert real.demo_table is None and real.teacher is not None
    assert real.teacher.path == taught_dice_path(cal_path)
    assert real.teacher.reader is real.reader and real.calibration.image_size == (640, 480)
    demo_options = {"autoplay": False, "size": (640, 480)}
    for calibration in (None, cal_path):  # a demo table's rendered dice stay off the disk
        demo = open_table(
            "demo", calibration=calibration, teach=said.append, demo_options=demo_options
        )
        assert demo.demo_table is demo.source and demo.teacher is not None
        assert demo.teacher.path is None
    quiet = open_table(str(tmp_path / "frames"), calibration=cal_path)
    assert quiet.teacher is None  # none asked for
