"""The table learns its own dice: taught faces decide or ask, the reader, storage, and what
teaches."""

from __future__ import annotations

import numpy as np
import pytest

from zonkcam.app.loop import TableApp
from zonkcam.app.main import demo_table
from zonkcam.app.throw import ThrowState
from zonkcam.controls import Control, Press
from zonkcam.game import PRESETS
from zonkcam.game import actions as A
from zonkcam.mat.calibrate import calibrate
from zonkcam.mat.taught import (
    TaughtDiceError,
    forget_taught,
    load_taught,
    save_taught,
    taught_dice_path,
)
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.table.observe import TableWatcher
from zonkcam.table.teaching import Teacher, parse_fix
from zonkcam.table.zones import Zone
from zonkcam.testing import TruthReader
from zonkcam.vision import DiceModel, TaughtDice, examples, read_dice
from zonkcam.vision.examples import asked_confidence, turns

D = 16


def _feature(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(0, 1, D).astype(np.float32)


def _probs(value: int, sure: float = 0.95) -> np.ndarray:
    p = np.full(7, (1 - sure) / 6, np.float32)
    p[value] = sure
    return p


# -- taught faces decide or ask -------------------------------------------------------------


def _near(feature: np.ndarray, amount: float = 0.01) -> np.ndarray:
    """The same die's face again, a little changed."""
    return feature + amount * _feature(99)


def test_with_nothing_taught_the_net_reads_alone():
    probs = np.stack([_probs(3), _probs(0, 0.9), _probs(6, 0.4)])
    feats = np.stack([_feature(k) for k in range(3)])
    assert not TaughtDice().asks(probs, feats).any()
    taught = TaughtDice(np.stack([_feature(9)]), [5])
    assert not taught.asks(probs, None).any()  # a model without features


def test_a_taught_die_the_net_misreads_is_asked_however_sure_the_net():
    five = _feature(1)
    taught = TaughtDice()
    taught.teach(np.stack([five, _feature(3)]), [5, 2])  # its 5, and another die's 2
    probs = np.stack([_probs(3, 0.6), _probs(3, 0.97)])  # the net: 3, unsure and sure
    asked = taught.asks(probs, np.stack([_near(five), _near(five)]))
    assert asked.tolist() == [True, True]
    assert (asked_confidence(np.array([0.7, 0.99]), asked) <= examples.ASKED).all()
    assert examples.ASKED < 0.6  # under the screen's bar


def test_a_taught_face_that_agrees_leaves_the_net_to_read():
    three = _feature(4)
    taught = TaughtDice(np.stack([three, _feature(5)]), [3, 6])
    asked = taught.asks(_probs(3, 0.7)[None], _near(three)[None])
    assert not asked.any()
    assert asked_confidence(np.array([0.5]), asked)[0] == 0.5  # nor made surer


def test_a_die_like_no_taught_die_reads_as_the_net_alone():
    taught = TaughtDice(np.stack([_feature(1), _feature(3)]), [5, 2])
    stranger = np.zeros(D, np.float32)
    stranger[0] = 1.0  # far from every taught face
    probs = np.stack([_probs(3, 0.97), _probs(4, 0.5)])
    assert not taught.asks(probs, np.stack([stranger, stranger])).any()


def test_two_taught_values_as_near_leave_the_net_to_read():
    face = _feature(1)
    taught = TaughtDice(np.stack([face, face]), [5, 3])  # one look taught as two values
    assert not taught.asks(_probs(3, 0.6)[None], _near(face)[None]).any()


def test_teaching_refuses_values_off_a_die_and_keeps_the_newest_per_value():
    taught = TaughtDice()
    with pytest.raises(ValueError):
        taught.teach(_feature(0)[None], [7])
    many = np.stack([_feature(k) for k in range(examples.MAX_PER_VALUE + 5)])
    taught.teach(many, [4] * len(many))
    assert taught.counts()[4] == examples.MAX_PER_VALUE
    np.testing.assert_allclose(taught.features[-1], many[-1] / np.linalg.norm(many[-1]), atol=1e-6)


def test_a_crop_is_taught_in_its_eight_turns():
    crop = np.arange(4 * 4 * 3, dtype=np.uint8).reshape(1, 4, 4, 3)
    out = turns(crop)
    assert out.shape == (8, 4, 4, 3)
    assert np.array_equal(out[0], crop[0]) and np.array_equal(out[1], np.rot90(crop[0]))
    assert len({o.tobytes() for o in out}) == 8


# -- the reader ---------------------------------------------------------------------------


class _Session:
    def __init__(self, outputs) -> None:
        self.outputs = outputs

    def run(self, _names, feeds):
        if callable(self.outputs):
            return self.outputs(next(iter(feeds.values())))
        return self.outputs


def _one_die_model(probs: np.ndarray, feats: np.ndarray | None) -> DiceModel:
    heat = np.zeros((1, 1, 104, 104), np.float32)
    geom = np.zeros((1, 4, 104, 104), np.float32)
    heat[0, 0, 50, 50] = 0.9
    geom[0, 2:, 50, 50] = 40
    values = [probs[None]] + ([feats[None]] if feats is not None else [])

    def run(x: np.ndarray) -> list[np.ndarray]:  # the crop as cut, and mirrored alike
        return [np.repeat(v, len(x), axis=0) for v in values]

    return DiceModel(_Session([heat, geom]), _Session(run), threads=1)


IMAGE = np.full((416, 416, 3), 90, np.uint8)


def test_the_reader_asks_about_a_misread_die_once_taught():
    feature = _feature(7)
    model = _one_die_model(_probs(2, 0.99), feature)
    seen: list[np.ndarray] = []
    (die,) = read_dice(IMAGE, model, features=seen)
    assert die.value == 2 and die.confidence > 0.6 and len(seen) == 1  # a sure misread
    taught = TaughtDice()
    taught.teach(np.stack(seen), [6])  # the scorekeeper: it is a 6
    (again,) = read_dice(IMAGE, model, examples=taught)
    assert again.value == 2 and again.confidence <= examples.ASKED  # shown, with a '?'


def test_a_model_without_the_feature_output_reads_as_before():
    model = _one_die_model(_probs(2, 0.9), None)
    seen: list[np.ndarray] = []
    taught = TaughtDice(np.stack([_feature(7)]), [6])
    (die,) = read_dice(IMAGE, model, examples=taught, features=seen)
    assert die.value == 2 and seen == []


def test_the_shipped_value_net_gives_its_face_features_beside_the_probs():
    from zonkcam.vision.model import MODEL_DIR, VALUES_FILE, open_session

    session = open_session(MODEL_DIR / VALUES_FILE, 1)
    assert [o.name for o in session.get_outputs()] == ["probs", "features"]
    crops = np.random.default_rng(3).uniform(0, 255, (5, 3, 64, 64)).astype(np.float32)
    probs, feats = session.run(None, {"crops": crops})
    assert probs.shape == (5, 7) and feats.shape == (5, 256 + 64)
    np.testing.assert_allclose(np.linalg.norm(feats, axis=1), 1, atol=1e-5)


@pytest.mark.train
def test_the_face_head_leaves_the_probabilities_bit_identical(tmp_path):
    onnx = pytest.importorskip("onnx", reason="onnx comes with the training extra")
    from onnx import TensorProto, helper

    from zonkcam.train import faces
    from zonkcam.vision.model import open_session

    # a tiny value net of the same shape: mean pool -> Gemm -> Softmax
    w = helper.make_tensor("w", TensorProto.FLOAT, [7, 3], np.linspace(-1, 1, 21).tolist())
    b = helper.make_tensor("b", TensorProto.FLOAT, [7], [0.0] * 7)
    graph = helper.make_graph(
        [
            helper.make_node("ReduceMean", ["crops"], ["pooled"], axes=[2, 3], keepdims=0),
            helper.make_node("Gemm", ["pooled", "w", "b"], ["logits"], transB=1),
            helper.make_node("Softmax", ["logits"], ["probs"], axis=1),
        ],
        "values",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, 64, 64])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", 7])],
        [w, b],
    )
    src = tmp_path / "v.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), src)
    crops = np.random.default_rng(0).uniform(0, 255, (4, 3, 64, 64)).astype(np.float32)
    before = open_session(src, 1).run(None, {"crops": crops})
    rng = np.random.default_rng(1)
    head = {
        "w1": rng.normal(size=(3, faces.HIDDEN)).astype(np.float32),
        "b1": rng.normal(size=faces.HIDDEN).astype(np.float32),
        "w2": rng.normal(size=(faces.HIDDEN, faces.FACE_DIM)).astype(np.float32),
        "b2": rng.normal(size=faces.FACE_DIM).astype(np.float32),
        "mean": rng.normal(size=3).astype(np.float32),
    }
    faces.add_face_output(src, head)
    after = open_session(src, 1).run(None, {"crops": crops})
    assert len(before) == 1 and len(after) == 2
    assert np.array_equal(before[0], after[0])
    expected = faces.embed(crops.mean(axis=(2, 3)), head)
    np.testing.assert_allclose(after[1], expected, rtol=1e-4, atol=1e-5)
    faces.add_face_output(src, head)  # again: still one such output, the same feature
    assert [o.name for o in onnx.load(src).graph.output] == ["probs", faces.FEATURES]
    np.testing.assert_allclose(open_session(src, 1).run(None, {"crops": crops})[1], after[1])


# -- storage ------------------------------------------------------------------------------


def test_taught_dice_are_kept_beside_the_calibration_and_forgotten(tmp_path):
    path = taught_dice_path(tmp_path / "calibration.json")
    assert path.parent == tmp_path
    taught = TaughtDice(np.stack([_feature(1), _feature(2)]), [3, 5], ["red", None])
    save_taught(path, taught, "abc")
    back, note = load_taught(path, "abc")
    assert note == "" and back.counts() == taught.counts() and back.colours == ["red", None]
    np.testing.assert_allclose(back.features, taught.features, atol=1e-3)
    other, note = load_taught(path, "another net")
    assert len(other) == 0 and "another value net" in note
    assert forget_taught(path) and not path.exists() and not forget_taught(path)
    nothing, note = load_taught(path, "abc")
    assert len(nothing) == 0 and note == ""


@pytest.mark.parametrize("content", [b"", b"not a zip at all", b"PK\x03\x04broken"])
def test_a_damaged_taught_dice_file_is_one_clear_line(tmp_path, content):
    path = tmp_path / "taught-dice.npz"
    path.write_bytes(content)
    with pytest.raises(TaughtDiceError) as err:
        load_taught(path, "abc")
    message = str(err.value)
    assert "damaged" in message and "--forget-dice" in message and "\n" not in message


def test_a_taught_dice_file_with_a_value_off_a_die_is_damaged(tmp_path):
    path = tmp_path / "taught-dice.npz"
    save_taught(path, TaughtDice(np.stack([_feature(1)]), [3]), "abc")
    data = dict(np.load(path))
    data["values"] = np.array([9], np.int8)
    np.savez(path.with_suffix(""), **data)  # np.savez adds .npz
    with pytest.raises(TaughtDiceError, match="not 1-6"):
        load_taught(path, "abc")


def _npy(array: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=True)
    return buf.getvalue()


def _npy_header(shape: tuple[int, ...], descr: str = "<f2") -> bytes:
    import io

    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": descr, "fortran_order": False, "shape": shape}
    )
    return buf.getvalue()


def _taught_file(path, **members: bytes) -> None:
    """A taught-dice file of one example whose arrays are `members` where given."""
    import zipfile

    arrays = {
        "format": _npy(np.array("zonkcam-taught-dice-1")),
        "model": _npy(np.array("abc")),
        "features": _npy(np.stack([_feature(1)]).astype(np.float16)),
        "values": _npy(np.array([3], np.int8)),
        "colours": _npy(np.array(["red"])),
    } | members
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in arrays.items():
            z.writestr(name + ".npy", data)


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"features": _npy_header((10**13, 64)) + bytes(64)}, "its features have shape"),
        ({"features": _npy_header((8, 2**20)) + bytes(16 * 2**20)}, "its features unpack to"),
        ({"values": _npy_header((10**9,), "|i1") + bytes(64)}, "its values have shape"),
        ({"colours": _npy(np.array(["x" * 5000]))}, "texts longer than 64 characters"),
        ({"features": _npy(np.array([{"a": 1}], dtype=object))}, "of the wrong type"),
        ({"features": _npy_header((1, 64)) + bytes(10)}, "its features are cut short"),
    ],
)
def test_a_taught_dice_file_is_checked_before_its_arrays_are_allocated(tmp_path, members, message):
    """Shapes and sizes from each array's own header, refused before the data is read: a
    header claiming (10^13, 64) floats, a member that unpacks to 32 MB of zeros (a zip
    bomb's kind), a pickled array (never unpickled)."""
    path = tmp_path / "taught-dice.npz"
    _taught_file(path)
    assert len(load_taught(path, "abc")[0]) == 1  # the file as made reads
    _taught_file(path, **members)
    with pytest.raises(TaughtDiceError) as err:
        load_taught(path, "abc")
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/null"])
def test_a_taught_dice_file_that_is_a_pipe_or_a_device_is_refused_unread(tmp_path, kind):
    import os

    path = tmp_path / "taught-dice.npz"
    if kind == "fifo":
        os.mkfifo(path)  # nothing ever writes to it: opened, it would wait forever
    else:
        path.symlink_to(kind)  # /dev/zero: read, it never ends
    with pytest.raises(TaughtDiceError, match="not a regular file .a pipe or a device."):
        load_taught(path, "abc")


def test_the_scorekeepers_fix_of_a_throw():
    assert parse_fix("", [3, 4, 5]) == [3, 4, 5]
    assert parse_fix("2=6", [3, 4, 5]) == [3, 6, 5]
    assert parse_fix("1 2 3", [3, 4, 5]) == [1, 2, 3]
    assert parse_fix("127", [3, 4, 5]) is None and parse_fix("4=2", [3, 4, 5]) is None


# -- what teaches at the table ------------------------------------------------------------


class _LearningReader:
    """Stands in for OnnxReader's teaching side (the dice come with their sights)."""

    def __init__(self) -> None:
        self.asking = True
        self.taught: TaughtDice | None = None
        self.lessons: list[tuple[list, list[int]]] = []
        """Each lesson's sights and values, in order."""

    def teach(self, seen, values, colours=None, turns=False):
        self.lessons.append((list(seen), list(values)))
        if self.taught is None:
            self.taught = TaughtDice()
        return self.taught.teach(np.stack([s.feature for s in seen]), list(values), colours)


def _table_app(tmp_path, log, throw):
    table = demo_table(4)
    first = table.read()
    logged = LoggedGame.new(log, PRESETS["classic-10000"])
    logged.play(A.Players(("Ann", "Bob")))
    learner = _LearningReader()
    teacher = Teacher(learner, tmp_path / "taught-dice.npz", "fp")  # type: ignore[arg-type]
    app = TableApp(
        logged,
        TableWatcher(calibrate(first.image, table.geometry), TruthReader(table, sights=True)),
        say=lambda line: None,
        teacher=teacher,
    )
    table.throw(throw)
    while table.busy:
        app.tick(table.read())
    for _ in range(30):  # time passes; nobody does anything
        app.tick(table.read())
    return app, learner


def test_a_roll_nobody_confirmed_teaches_nothing(tmp_path):
    with EventLog(tmp_path / "g.db") as log:
        app, learner = _table_app(tmp_path, log, [1, 1, 5, 2, 3])
        assert isinstance(app.logged.game.events[-1], A.Roll)
        assert learner.taught is None and not (tmp_path / "taught-dice.npz").exists()
        app.handle(Press(Control.UNDO))  # withdrawn: still nothing
        assert learner.taught is None


def test_banking_a_roll_confirms_its_dice(tmp_path):
    with EventLog(tmp_path / "g.db") as log:
        app, learner = _table_app(tmp_path, log, [1, 1, 1, 5, 5])
        app.handle(Press(Control.BANK))
        assert app.logged.state.players[0].score == 1100
        assert learner.taught is not None
        assert sorted(learner.taught.values.tolist()) == [1, 1, 1, 5, 5]
        back, _ = load_taught(tmp_path / "taught-dice.npz", "fp")
        assert len(back) == 5


def test_a_corrected_die_is_taught_its_right_value_at_once(tmp_path):
    with EventLog(tmp_path / "g.db") as log:
        app, learner = _table_app(tmp_path, log, [2, 3, 4, 6, 6])
        index = next(i for i, d in enumerate(app.last_settled.dice) if d.value == 2)
        app.handle(Press(Control.TAP_DIE, index))
        app.handle(Press(Control.DIGIT, 1))
        assert learner.taught is not None and learner.taught.values.tolist() == [1]
        assert app.play(A.Keep((1,)))  # then the rest of the roll, confirmed by the keep
        assert sorted(learner.taught.values.tolist()) == [1, 3, 4, 6, 6]


def test_a_correction_is_a_step_of_the_throw_and_the_log_reads_as_before(tmp_path):
    with EventLog(tmp_path / "g.db") as log:
        app, reader = _table_app(tmp_path, log, [2, 3, 4, 6, 6])
        throw = app.throw
        assert throw is not None and throw.state is ThrowState.PLAYED
        index = next(i for i, d in enumerate(app.last_settled.dice) if d.value == 2)
        tapped = app.last_settled.dice[index]
        app.handle(Press(Control.TAP_DIE, index))
        app.handle(Press(Control.DIGIT, 1))
        assert app.throw is throw and throw.state is ThrowState.CORRECTED  # the same throw
        assert throw.is_last(len(app.logged.game.events))
        assert reader.lessons == [([tapped.sight], [1])]
        kinds = [type(a).__name__ for a in log.actions(app.logged.game_id)]
        assert kinds[-3:] == ["Roll", "Undo", "Roll"]  # what the log says of a correction
        assert app.play(A.Keep((1,)))  # the scorekeeper builds on it: confirmed, taught
        assert throw.state is ThrowState.TAUGHT
        dice = throw.report.dice
        rest = [d for k, d in enumerate(dice) if k != index and d.zone is Zone.ROLLING]
        assert [s for s, _ in reader.lessons[1:]] == [[d.sight for d in rest]]


def test_a_confirmed_throw_is_taught_with_the_sights_its_report_carried(tmp_path):
    with EventLog(tmp_path / "g.db") as log:
        app, reader = _table_app(tmp_path, log, [1, 1, 1, 5, 5])
        report = app.last_settled
        app.handle(Press(Control.BANK))
        assert app.logged.state.players[0].score == 1100
        ((sights, values),) = reader.lessons
        assert values == [d.value for d in report.rolled]
        assert all(
            s is d.sight and s is not None for s, d in zip(sights, report.rolled, strict=True)
        )
        assert app.throw is not None and app.throw.state is ThrowState.TAUGHT


def test_an_undo_withdraws_the_throw_in_play(tmp_path):
    with EventLog(tmp_path / "g.db") as log:
        app, reader = _table_app(tmp_path, log, [1, 1, 5, 2, 3])
        assert app.throw is not None and app.throw.state is ThrowState.PLAYED
        app.handle(Press(Control.UNDO))
        assert app.throw is None
        app.handle(Press(Control.UNDO))  # nothing more to withdraw: nothing taught
        assert reader.lessons == []


# -- the shipped reader and the CLI -------------------------------------------------------


def test_the_table_reader_gives_each_die_its_sight_and_learns_it(tmp_path):
    from zonkcam.table.reading import OnnxReader
    from zonkcam.table.teaching import open_teacher

    table = demo_table(2)
    cal_of_table = calibrate(table.read().image, table.geometry)
    table.throw([1, 2, 3, 4, 5])
    while table.busy:
        frame = table.read()
    reader = OnnxReader.for_table(cal_of_table)
    dice = reader(frame.image)
    assert len(dice) >= 5
    lines: list[str] = []
    cal = tmp_path / "calibration.json"
    teacher = open_teacher(reader, cal, say=lines.append)
    assert teacher is not None and lines == []
    seen = [d.sight for d in dice]
    assert all(s is not None for s in seen)
    n = 8 * len(dice)  # each crop in its eight turns
    assert teacher.teach(seen, [d.value for d in dice], turns=True) == n
    assert taught_dice_path(cal).exists()
    again = OnnxReader.for_table(cal_of_table)
    assert open_teacher(again, cal, say=lines.append) is not None and len(again.taught) == n
    assert [d.value for d in again(frame.image)] == [d.value for d in dice]
    assert open_teacher(OnnxReader(), cal, forget=True, say=lines.append) is not None
    assert "forgot the table's taught dice" in lines and not taught_dice_path(cal).exists()


def test_meet_the_dice_in_watch_teaches_only_what_was_confirmed(tmp_path, monkeypatch, capsys):
    import io

    from zonkcam import cli

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO("\ns\n"))  # one throw confirmed, one skipped
    assert cli.main(["watch", "--source", "demo", "--meet-dice", "2", "--frames", "120"]) == 0
    err = capsys.readouterr().err
    assert "throw 1: 1) " in err and "throw 2: " in err
    taught = [line for line in err.splitlines() if "met the dice" in line]
    assert taught and "taught examples" in taught[0]
    # the demo table's rendered dice are taught for the run only, never stored
    assert not (tmp_path / "zonkcam" / "taught-dice.npz").exists()
