"""Camera sources and what keeps them going: reopening from the spec with backoff, bad
frames skipped and counted, a damaged video that says so, the demo's camera looks."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from zonkcam import sources
from zonkcam.errors import UserError
from zonkcam.sim.lens import PLAIN, REALISTIC
from zonkcam.sources import (
    BadFrameError,
    CameraError,
    CameraProblem,
    Frame,
    ImageFolderSource,
    Opened,
    ResilientSource,
    VideoFileSource,
    open_source,
    open_spec,
    pi,
)
from zonkcam.testing import FakeClock, FakePicamera2
from zonkcam.testing.camera import HQ, MODULE_2, MODULE_3, fake_view, yuv420_buffer


class Camera:
    """A camera that fails after a few frames and is dead once closed, as a real one that
    lost its cable: reading a closed one only ever fails."""

    opened = 0

    def __init__(self, frames_before_failing: int = 3):
        Camera.opened += 1
        self.number = Camera.opened
        self.left, self.closed = frames_before_failing, False
        self.name, self.fps, self.spec = f"camera {self.number}", 30.0, "fake"

    def read(self):
        if self.closed:
            raise CameraError(f"{self.name} is closed")
        if self.left == 0:
            raise CameraError(f"{self.name} stopped sending frames")
        self.left -= 1
        return Frame(np.zeros((4, 4, 3), np.uint8), 0, 0.0, truth=self.number)

    def close(self):
        self.closed = True


def take(stream, n):
    out = []
    for item in stream:
        out.append(item)
        if len(out) >= n:
            break
    return out


def test_a_failed_camera_is_reopened_as_a_new_one_with_backoff():
    """A camera that failed is closed and a new one opened each time (reopening the same
    closed object would fail forever), with growing waits between tries."""
    Camera.opened = 0
    clock = FakeClock()
    first = Camera()
    stream = ResilientSource(Camera, source=first, clock=clock, sleep=clock.sleep).frames()
    items = take(stream, 40)
    frames = [i for i in items if isinstance(i, Frame)]
    problems = [i for i in items if isinstance(i, CameraProblem) and not i.repeat]
    assert first.closed
    opened = sorted({f.truth for f in frames})
    assert opened[:3] == [1, 2, 3]  # each a newly opened camera
    assert all(len([f for f in frames if f.truth == n]) == 3 for n in opened[:-1])
    assert [p.message for p in problems[:2]] == [
        "camera 1 stopped sending frames",
        "camera 2 stopped sending frames",
    ]
    # it never blocks for the backoff: it says so every 0.1 s while it waits
    assert max(clock.sleeps) <= 0.1
    assert any(i.repeat for i in items if isinstance(i, CameraProblem))


def test_backoff_doubles_while_the_camera_stays_away_and_resets_after():
    clock = FakeClock()
    attempts = {"n": 0}

    def opener():
        attempts["n"] += 1
        if attempts["n"] <= 4:
            raise CameraError("unplugged")
        return Camera(frames_before_failing=2)

    items = take(ResilientSource(opener, clock=clock, sleep=clock.sleep).frames(), 200)
    problems = [i for i in items if isinstance(i, CameraProblem) and not i.repeat]
    assert [p.retry_in_s for p in problems[:5]] == [0.5, 1.0, 2.0, 4.0, 0.5]
    assert [p.message for p in problems[:4]] == ["unplugged"] * 4


def test_bad_frames_are_skipped_and_counted_then_the_camera_is_reopened():
    clock = FakeClock()

    class Garbage(Camera):
        def read(self):
            raise BadFrameError("the camera sent something that is not an image")

    opened = []

    def opener():
        opened.append(Garbage())
        return opened[-1]

    source = ResilientSource(opener, max_bad_frames=5, clock=clock, sleep=clock.sleep)
    items = take(source.frames(), 12)
    assert source.bad_frames >= 5
    reopening = next(
        k for k, i in enumerate(items) if "(5 bad frames in a row); reopening" in i.message
    )
    assert reopening == 4 and all(i.retry_in_s == 0 for i in items[:4])
    assert len(opened) >= 1 and opened[0].closed


def test_truncated_and_broken_files_in_a_folder_are_skipped_not_grey_frames(tmp_path):
    """A truncated JPEG is skipped with a message, never a half-grey frame (which would
    read as `rolling`)."""
    good = np.full((48, 64, 3), 90, np.uint8)
    cv2.putText(good, "1", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1, (250, 250, 250), 2)
    cv2.imwrite(str(tmp_path / "a.png"), good)
    ok, jpg = cv2.imencode(".jpg", good)
    (tmp_path / "b.jpg").write_bytes(jpg.tobytes()[: len(jpg) * 2 // 3])  # truncated
    (tmp_path / "c.png").write_bytes(b"")
    (tmp_path / "d.jpg").write_bytes(b"not a picture at all")
    cv2.imwrite(str(tmp_path / "e.png"), cv2.cvtColor(good, cv2.COLOR_BGR2GRAY))
    source = ResilientSource(lambda: ImageFolderSource(tmp_path), sleep=lambda s: None)
    items = list(source.frames())
    frames = [i for i in items if isinstance(i, Frame)]
    problems = [i.message for i in items if isinstance(i, CameraProblem)]
    assert len(frames) == 2 and all(f.image.shape == (48, 64, 3) for f in frames)
    assert np.array_equal(frames[0].image, frames[1].image)  # e.png: grey, back as BGR
    assert source.bad_frames == 3
    assert any(m.startswith("b.jpg: truncated") for m in problems)
    assert any(m.startswith("c.png: empty") for m in problems)
    assert any(m.startswith("d.jpg:") for m in problems)


def test_a_folder_with_a_long_run_of_unreadable_files_goes_on_past_it_and_ends(tmp_path):
    """Unreadable files are skipped one by one: the folder is never started again."""
    good = np.full((48, 64, 3), 90, np.uint8)
    cv2.imwrite(str(tmp_path / "a000.png"), good)
    for k in range(1, 80):
        (tmp_path / f"a{k:03d}.jpg").write_bytes(b"not a picture")
    cv2.imwrite(str(tmp_path / "a080.png"), good)
    first = ImageFolderSource(tmp_path)
    opened = []

    def opener():
        opened.append(ImageFolderSource(tmp_path))
        return opened[-1]

    camera = sources.resilient(first, opener, camera_tries=None)
    items = take(camera.frames(), 1000)
    frames = [i for i in items if isinstance(i, Frame)]
    assert [f.index for f in frames] == [0, 80]
    assert camera.bad_frames == 79 and opened == [] and camera.gave_up is None
    assert len(items) == 81  # then it ended


class Unplugged(Camera):
    def __init__(self):
        super().__init__()
        self.spec = "usb:7"
        raise CameraError("cannot open USB camera 7")


def test_a_source_that_never_comes_back_is_given_up_after_its_tries():
    clock = FakeClock()
    first = Camera(frames_before_failing=2)
    first.spec = "usb:7"
    camera = sources.resilient(first, Unplugged, camera_tries=3)
    camera.clock, camera.sleep = clock, clock.sleep
    items = list(camera.frames())  # it ends
    news = [i for i in items if isinstance(i, CameraProblem) and not i.repeat]
    assert [i.truth for i in items if isinstance(i, Frame)] == [first.number] * 2
    assert [p.final for p in news] == [False, False, True] and all(p.lost for p in news)
    assert camera.gave_up is news[-1]
    assert camera.gave_up.message == (
        "cannot open USB camera 7 (failed 3 times in a row: giving up)"
    )


def test_a_camera_that_keeps_coming_back_is_never_given_up():
    clock = FakeClock()
    first = Camera(frames_before_failing=1)
    first.spec = "usb:0"

    def opener():
        c = Camera(frames_before_failing=1)
        c.spec = "usb:0"
        return c

    camera = sources.resilient(first, opener, camera_tries=2)
    camera.clock, camera.sleep = clock, clock.sleep
    items = take(camera.frames(), 400)
    assert len(items) == 400 and camera.gave_up is None
    assert len({i.truth for i in items if isinstance(i, Frame)}) > 20  # reopened each time
    assert not sources.is_live("/some/folder") and not sources.is_live("table.mp4")
    assert sources.is_live("pi") and sources.is_live("usb") and sources.is_live("demo:realistic")


def test_a_file_that_goes_away_is_given_up_after_three_tries(tmp_path):
    clock = FakeClock()
    (tmp_path / "a.png").write_bytes(cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1])
    first = ImageFolderSource(tmp_path)

    class Broken(ImageFolderSource):
        def read(self):
            raise CameraError("the card was pulled")

    camera = sources.resilient(Broken(tmp_path), lambda: open_source(str(tmp_path / "gone")), None)
    camera.clock, camera.sleep = clock, clock.sleep
    items = list(camera.frames())
    assert camera.gave_up is not None and camera.gave_up.final
    assert "(failed 3 times in a row: giving up)" in camera.gave_up.message
    assert "unknown source" in camera.gave_up.message  # the last try's own words
    assert first.spec == str(tmp_path) and items[-1] is camera.gave_up


def _video(path, n=60):
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (160, 120))
    for i in range(n):
        img = np.full((120, 160, 3), 2 * i, np.uint8)
        cv2.putText(img, str(i), (30, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (255, 255, 255), 3)
        w.write(img)
    w.release()
    return path


def test_a_video_damaged_mid_way_says_so(tmp_path):
    """A video with a corrupt stretch says so instead of ending silently, as if finished."""
    whole = _video(tmp_path / "whole.avi")
    items = list(ResilientSource(lambda: VideoFileSource(whole)).frames())
    assert len(items) == 60 and all(isinstance(i, Frame) for i in items)

    data = bytearray(whole.read_bytes())
    n = len(data)
    damaged = tmp_path / "damaged.avi"
    data[n // 2 : n // 2 + n // 6] = bytes(n // 6)
    damaged.write_bytes(bytes(data))
    items = list(ResilientSource(lambda: VideoFileSource(damaged)).frames())
    frames = [i for i in items if isinstance(i, Frame)]
    problems = [i for i in items if isinstance(i, CameraProblem)]
    assert 30 <= len(frames) < 60
    assert problems and "could not be decoded; skipped" in problems[0].message

    cut = tmp_path / "cut.avi"
    cut.write_bytes(bytes(data[: n // 2]))  # the index at the end is gone too
    items = list(ResilientSource(lambda: VideoFileSource(cut)).frames())
    problems = [i for i in items if isinstance(i, CameraProblem)]
    assert problems, "a cut video ends with a message"
    assert problems[-1].final or "skipped" in problems[-1].message


def test_sources_open_by_spec_and_can_be_opened_again(tmp_path):
    video = _video(tmp_path / "v.avi", n=5)
    for spec in (str(video), str(tmp_path)):
        if spec == str(tmp_path):
            cv2.imwrite(str(tmp_path / "f.png"), np.zeros((10, 10, 3), np.uint8))
        source = open_source(spec)
        again = open_source(source.spec)
        assert type(again) is type(source) and again is not source
    assert open_source("demo").look == PLAIN
    assert open_source("demo:realistic").look == REALISTIC
    with pytest.raises(UserError, match="demo:LOOK takes plain or realistic"):
        open_source("demo:fancy")


def test_the_demo_table_plays_on_any_built_in_mat_and_reopens_on_it():
    a4 = open_source("demo:a4", demo={"size": (320, 240)})
    assert (a4.look, a4.geometry.name, a4.spec) == (PLAIN, "A4", "demo:a4")
    letter = open_source("demo:realistic:letter", demo={"size": (320, 240)})
    assert (letter.look, letter.geometry.name) == (REALISTIC, "Letter")
    again = open_source(letter.spec, demo={"size": (320, 240)})
    assert (again.look, again.geometry) == (REALISTIC, letter.geometry)
    assert open_source("demo:realistic", demo={"size": (320, 240)}).spec == "demo:realistic"
    for wrong in ("demo:a5", "demo:a4:realistic", "demo:a4:a3"):
        with pytest.raises(
            UserError, match=r"demo:MAT or demo:LOOK:MAT a mat \(a3, a2, a4, letter\)"
        ):
            open_source(wrong)
    with pytest.raises(UserError, match="usb:N takes a camera number"):
        open_source("usb:x")


def test_each_spec_opens_its_own_kind_of_source(tmp_path, monkeypatch):
    """One registry (sources.OPENERS, then the path): pi[:WIDTH], usb:N, a video file, a
    folder; and the demo[:LOOK]; the opening says which source is the demo table."""
    opened = {}
    monkeypatch.setattr(
        sources, "PiCameraSource", lambda width=None: opened.setdefault("pi", width)
    )
    monkeypatch.setattr(sources, "UsbCameraSource", lambda i, size: opened.setdefault("usb", i))
    open_source("pi")
    open_source("usb:3")
    assert opened == {"pi": None, "usb": 3}  # pi: the two streams
    opened.clear()
    open_source("usb")
    open_source("pi:1280")
    assert opened == {"usb": 0, "pi": 1280}  # usb alone is camera 0; pi:WIDTH one stream
    for bad in ("pi:2", "pi:wide"):
        with pytest.raises(UserError, match="--source pi:WIDTH takes a frame width"):
            open_source(bad)
    demo = open_spec("demo", seed=5, demo={"autoplay": False, "size": (320, 240)})
    table = demo.source
    assert demo.demo_table is table and table.seed == 5 and not table.autoplay
    video = _video(tmp_path / "v.avi", n=3)
    (tmp_path / "photos").mkdir()
    cv2.imwrite(str(tmp_path / "photos" / "f.png"), np.zeros((10, 10, 3), np.uint8))
    file, folder = open_spec(str(video)), open_spec(str(tmp_path / "photos"))
    assert isinstance(file.source, sources.VideoFileSource) and file.demo_table is None
    assert isinstance(folder.source, sources.ImageFolderSource) and folder.demo_table is None
    with pytest.raises(UserError, match="unknown source 'usbstick'"):
        open_source("usbstick")  # a word that only begins like one is no source


def test_auto_without_picamera2_is_the_demo_table(monkeypatch):
    monkeypatch.setattr(sources, "picamera2_available", lambda: False)
    assert open_source("auto").name == "demo table"


def test_one_registry_opens_every_spec_and_names_them_all_when_one_is_wrong(tmp_path):
    """zonkcam.sources' registry (OPENERS, then the path) takes every --source spec, the
    demo table's and auto's too, and names them all when one is wrong."""
    assert set(sources.OPENERS) == {"auto", "pi", "usb", "demo"}
    with pytest.raises(UserError) as wrong:
        open_source("usbstick")
    assert str(wrong.value) == (
        "unknown source 'usbstick': use auto, pi, demo, demo:realistic, usb[:N], "
        "a video file or a folder of images"
    )
    with pytest.raises(UserError, match=re.escape(f"unknown source 'auto:x': use {sources.SPECS}")):
        open_source("auto:x")
    demo = open_spec("demo:a4", demo={"autoplay": False, "size": (320, 240)})
    assert demo.demo_table is demo.source and demo.source.geometry.name == "A4"
    cv2.imwrite(str(tmp_path / "f.png"), np.zeros((10, 10, 3), np.uint8))
    folder = open_spec(str(tmp_path))
    assert isinstance(folder.source, ImageFolderSource) and folder.demo_table is None


def test_no_source_says_what_it_is():
    """A source is read, closed and reopened by its spec; whether it is the demo table is
    what its opening says (Opened.demo_table), never a flag on the source."""
    assert "demo" not in sources.FrameSource.__annotations__
    table = open_source("demo", demo={"autoplay": False, "size": (320, 240)})
    assert not hasattr(table, "demo")
    kinds = (ImageFolderSource, VideoFileSource, sources.UsbCameraSource, sources.PiCameraSource)
    assert not any(hasattr(kind, "demo") for kind in kinds)


@pytest.mark.parametrize(
    "camera_module,mode,size",
    [
        (MODULE_3, (2304, 1296), (1280, 720)),
        (MODULE_2, (1640, 1232), (1280, 962)),
    ],
)
def test_the_sensor_mode_sees_the_whole_field_of_view(camera_module, mode, size):
    array, modes = camera_module
    chosen = pi.full_view_mode(modes, array)
    assert chosen["size"] == mode and tuple(chosen["crop_limits"][2:]) == array
    assert pi.frame_size(chosen["size"]) == size


def _fake_picamera2(monkeypatch) -> None:
    import sys
    import types

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    monkeypatch.setattr(pi, "_PICAMERA", None)
    FakePicamera2.made = 0


def test_the_pi_camera_locks_exposure_and_white_balance_the_documented_way(monkeypatch):
    _fake_picamera2(monkeypatch)
    source = pi.PiCameraSource(1280, settle_s=0)
    cam = pi._PICAMERA
    (_, config), (_, controls) = cam.calls
    assert config["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert "lores" not in config and source.spec == "pi:1280" and sources.is_live(source.spec)
    assert config["sensor"] == {"output_size": (2304, 1296), "bit_depth": 10}
    assert config["controls"]["FrameDurationLimits"] == (33_333, 33_333)
    assert controls == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 12000,
        "AnalogueGain": 2.5,
        "ColourGains": (1.8, 1.4),
    }
    frame = source.read()
    assert frame.image.shape == (720, 1280, 3) and frame.detail is None
    # reopened after a failure: the same Picamera2 object, started again
    source.close()
    with pytest.raises(CameraError, match="the Pi camera stopped"):
        source.read()
    again = open_source(source.spec)
    assert FakePicamera2.made == 1 and again.read().image.shape == (720, 1280, 3)


@pytest.mark.parametrize(
    "camera_module,main,lores",
    [
        (MODULE_3, (2304, 1296), (640, 360)),
        (MODULE_2, (1640, 1232), (640, 480)),
        (HQ, (2028, 1520), (640, 480)),
    ],
)
def test_the_pi_camera_reads_dice_from_the_sensor_modes_own_size(
    monkeypatch, camera_module, main, lores
):
    """`pi`: the main stream at the full-view mode's size ("RGB888") becomes each frame's
    detail, and a 640 px lores stream of the same shape (YUV420, the one format a Pi 4
    gives it in) its image; both come from one request, given back."""
    _fake_picamera2(monkeypatch)
    monkeypatch.setattr(FakePicamera2, "camera_module", camera_module)
    source = open_source("pi")
    cam = pi._PICAMERA
    (_, config), _ = cam.calls
    assert config["main"] == {"size": main, "format": "RGB888"}
    assert config["lores"] == {"size": lores, "format": "YUV420"}
    assert config["sensor"]["output_size"] == main
    assert source.spec == "pi" and source.size == lores and source.detail_size == main
    frame = source.read()
    assert frame.image.shape == (lores[1], lores[0], 3)
    assert frame.detail.shape == (main[1], main[0], 3)
    assert np.array_equal(frame.detail, fake_view(main))
    assert [r.released for r in cam.requests] == [True]
    # the lores picture is the same view, its padded YUV420 rows cut right
    seen = cv2.resize(frame.detail, lores, interpolation=cv2.INTER_AREA)
    assert np.abs(frame.image.astype(int) - seen).max() <= 3


def test_a_padded_yuv420_buffer_becomes_the_bgr_picture_it_holds():
    image = np.random.default_rng(0).integers(0, 256, (96, 160, 3), np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), 3)  # smooth: 4:2:0 keeps colour at half size
    for stride in (160, 192, 256):
        buffer = yuv420_buffer(image, stride)
        assert buffer.shape == (144, stride)
        got = pi.yuv420_to_bgr(buffer, (160, 96))
        assert got.shape == (96, 160, 3) and got.flags.c_contiguous
        assert np.abs(got.astype(int) - image).mean() < 2
    with pytest.raises(BadFrameError, match="lores buffer of shape"):
        pi.yuv420_to_bgr(np.zeros((96, 160), np.uint8), (160, 96))


def test_watch_ends_with_exit_status_1_when_its_camera_is_given_up(tmp_path, monkeypatch, capsys):
    import json

    from zonkcam import cli
    from zonkcam.app import camera as app_camera
    from zonkcam.mat.calibrate import calibrate
    from zonkcam.sim.demo_table import DemoTable

    table = DemoTable(seed=3, autoplay=False, size=(640, 480))
    first = table.read()
    calibrate(first.image, table.geometry).save(tmp_path / "cal.toml")

    class LostCable:
        name, fps, spec = "USB camera 7", 30.0, "usb:7"

        def __init__(self):
            self.frames = [first]

        def read(self):
            if self.frames:
                return self.frames.pop()
            raise CameraError("USB camera 7 stopped sending frames")

        def close(self):
            pass

    opened = []

    def open_source(spec, **kw):
        opened.append(spec)
        if len(opened) > 1:
            raise CameraError("cannot open USB camera 7")
        return Opened(LostCable())

    monkeypatch.setattr(app_camera, "open_spec", open_source)
    monkeypatch.setattr("time.sleep", lambda s: None)
    argv = ["watch", "--source", "usb:7", "--calibration", str(tmp_path / "cal.toml")]
    assert cli.main([*argv, "--camera-tries", "2"]) == 1
    out, err = capsys.readouterr()
    last = json.loads(out.splitlines()[-1])
    assert last["event"] == "stopped" and "giving up" in last["error"]
    assert err.splitlines()[-1] == (
        "zonkcam watch: USB camera 7: cannot open USB camera 7 (failed 2 times in a row: giving up)"
    )
    assert opened == ["usb:7", "usb:7"]  # it stopped, and the one reopen failed
    assert cli.main([*argv, "--camera-tries", "-1"]) == 2


def test_watch_stops_in_one_line_when_its_frames_change_size(tmp_path, monkeypatch, capsys):
    """The camera's picture changes size while watch runs: one line and exit status 1 at
    the first such frame, never a "recalibrate" report per frame."""
    import json

    from zonkcam import cli
    from zonkcam.app import camera as app_camera
    from zonkcam.mat.calibrate import calibrate
    from zonkcam.sim.demo_table import DemoTable

    table = DemoTable(seed=3, autoplay=False, size=(640, 480))
    first = table.read()
    calibrate(first.image, table.geometry).save(tmp_path / "cal.toml")
    other = Frame(cv2.resize(first.image, (800, 450)), 1, 0.1)

    class ChangingCamera:
        name, fps, spec = "USB camera 7", 30.0, "usb:7"

        def __init__(self):
            self.frames = [other] * 100 + [first] * 5

        def read(self):
            return self.frames.pop() if self.frames else None

        def close(self):
            pass

    monkeypatch.setattr(app_camera, "open_spec", lambda spec, **kw: Opened(ChangingCamera()))
    monkeypatch.setattr("time.sleep", lambda s: None)
    argv = ["watch", "--source", "usb:7", "--calibration", str(tmp_path / "cal.toml")]
    assert cli.main(argv) == 1
    out, err = capsys.readouterr()
    reports = [json.loads(line) for line in out.splitlines()]
    assert not any("recalibrate" in r.get("message", "") for r in reports[:-1])
    assert reports[-1]["event"] == "stopped" and "another shape" in reports[-1]["error"]
    assert err.splitlines()[-1] == (
        "zonkcam watch: USB camera 7: the frames are 800x450 but the calibration is for "
        "640x480: they are of another shape (another view): recalibrate (zonkcam calibrate)"
    )


def _mat_photo(tmp_path):
    from zonkcam.mat.calibrate import calibrate
    from zonkcam.mat.layout import load_geometry

    source = open_source("demo", demo={"autoplay": False})
    try:
        image = source.read().image
    finally:
        source.close()
    return image, calibrate(image, load_geometry("a3"))


def test_a_folder_whose_first_file_is_bad_skips_it_for_watch_and_calibrate(tmp_path, capsys):
    from zonkcam.app.camera import open_table
    from zonkcam.cli import main

    image, cal = _mat_photo(tmp_path)
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "00.jpg").write_bytes(b"")
    cv2.imwrite(str(folder / "01.png"), image)
    out = tmp_path / "cal.json"
    assert main(["calibrate", "--source", str(folder), "--out", str(out), "--warmup", "1"]) == 0
    assert "00.jpg: empty file; skipped" in capsys.readouterr().err
    said: list[str] = []
    cam = open_table(str(folder), calibration=out, say=said.append)
    try:
        assert cam.first.image.shape == image.shape
        assert "00.jpg: empty file; skipped" in said
    finally:
        cam.source.close()


def test_an_image_given_as_the_source_is_read_as_an_image_never_as_a_video(tmp_path):
    good = np.full((48, 64, 3), 90, np.uint8)
    jpg = cv2.imencode(".jpg", good)[1].tobytes()
    whole, cut, named = tmp_path / "whole.jpg", tmp_path / "truncated.jpg", tmp_path / "a.avi"
    whole.write_bytes(jpg)
    cut.write_bytes(jpg[: len(jpg) * 2 // 3])
    named.write_bytes(jpg)  # an image named like a video
    for path in (whole, named):
        source = open_source(str(path))
        assert isinstance(source, ImageFolderSource)
        assert source.read().image.shape == (48, 64, 3) and source.read() is None
    source = open_source(str(cut))
    with pytest.raises(BadFrameError, match="truncated"):
        source.read()


class _GrowingCapture:
    """A capture whose third frame is larger than the size it gave when opened."""

    def __init__(self):
        self.frames = [np.zeros((48, 64, 3), np.uint8)] * 2 + [np.zeros((480, 640, 3), np.uint8)]

    def read(self):
        return (True, self.frames.pop(0)) if self.frames else (False, None)

    def release(self):
        self.frames = []


def test_a_video_whose_frames_grow_after_opening_stops_with_one_line(tmp_path):
    video = VideoFileSource(_video(tmp_path / "v.avi"))
    video._cap.release()
    video._cap, video.size = _GrowingCapture(), (64, 48)
    assert video.read().image.shape == (48, 64, 3)
    assert video.read().image.shape == (48, 64, 3)
    with pytest.raises(sources.SourceBrokenError, match="frame 2 is 640x480, not the 64x48"):
        video.read()
