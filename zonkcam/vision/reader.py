"""Read the dice in an image: boxes, face values, body colours.

Pure: numpy image in, frozen dataclasses out; the ONNX sessions come from
`zonkcam.vision.model.load_model`. Pipeline: letterbox to 320 px -> detector heatmap
peaks (die centres, class-agnostic; mirror images too if asked) -> a 64 px crop of
each candidate cut from the full-resolution image (those hot enough to be kept) -> value
net ('not a die' or 1-6; unsure ones read again in the other three quarter turns, and
those still unsure by the second opinions, more value nets; those turned away though
the detector backs them read again from a tighter box) -> kept when the value net and
the detector's heat agree (the bar lower for a die of the size of the photo's sure
dice, higher for a thing twice their size) -> of two dice boxed over each other, the
surer one -> if none was kept, or a small one, or many candidates were turned away (a
cluttered board), a second look at 640 px for small dice (and in two mirror images),
read the same way -> colour.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from zonkcam.vision.color import crop_color, white_balance_gains
from zonkcam.vision.die import Die
from zonkcam.vision.model import DiceModel, reads_upright
from zonkcam.vision.preprocess import (
    CROP_SIZE,
    DET_SIZE,
    DET_STRIDE,
    crop_die,
    letterbox,
    to_bgr8,
)

if TYPE_CHECKING:
    import onnxruntime as ort

MIN_SIDE = 8
"""Images smaller than this (px) hold no readable die."""


MIRRORS = ("h", "v", "hv")
"""Mirrored detector views: left-right, top-bottom, both (a half turn)."""


@dataclass(frozen=True)
class ReaderSettings:
    """The reader's knobs. The defaults were chosen on the training split of
    real-dice-dev, its leave-one-source-out runs and rendered tables (never on its
    validation split): a generous detector whose extra candidates the value net turns
    away."""

    det_threshold: float = 0.15
    """Minimum detector heat for a candidate."""
    det_size: int = DET_SIZE
    """The detector sees the image scaled so that its longer side is this many px."""
    max_candidates: int = 80
    nms_iou: float = 0.5
    nms_centres: bool = False
    """Also drop a candidate whose centre lies inside a better one's box (see _nms).
    Off: on the photos it trades recall for precision (training split: P 0.946 -> 0.981,
    R 0.958 -> 0.943), but it merges touching and leaning dice on rendered tables
    (`zonkcam bench` frames read exactly fell from 0.77-0.97 to 0.57-0.77)."""
    small_pass_size: int = 640
    """If > det_size, a second detector look at this size adds dice too small for the
    first (boxes under small_px px in the first look's scale). It runs when the first
    look kept no die, or kept a small one, or turned many away (clutter_count): the
    value net's verdict on the first look's candidates decides, not their heat, so a
    board's big hexagons or tokens that the detector is warm about cannot hide the
    small dice on it (since session 8; the heat of the first look's candidates decided
    before). 0 = off."""
    small_px: float = 20.0
    first_look_mirrors: tuple[str, ...] = ()
    second_look_mirrors: tuple[str, ...] = ("h", "v")
    """Mirrored views the detector also looks at in the first and the second look ("h"
    left-right, "v" top-bottom, "hv" both; see MIRRORS): the candidates of all views go
    through one NMS, so a die the detector is cold about in one view can be found in
    another (`--mirrors none|second|all`: no mirrors; these defaults; "h" in the first
    look as well). Chosen in session 12, before dedupe_inside. Errors (missed / extra /
    misread) with one view / these defaults / "h" in the first look as well: training
    split 90 (61 / 18 / 11) / 81 (42 / 29 / 10) / 78 (35 / 30 / 13); Epanemu left out
    (session 12's twin, a weaker reader than the shipped one's twins: 0.703 end to end
    with one view) 850 (284 / 448 / 118) / 848 (251 / 470 / 127) / 922 (240 / 547 /
    135). Most of the new extra dice on the training split are real dice the labels
    leave out or a labelled die boxed twice. "h" in the first look reads more of the
    `zonkcam bench` frames of touching dice exactly (640x480: 0.73 -> 0.80) but costs
    about 2 ms a 1280x960 frame and adds extra dice on photos from elsewhere; the second
    look runs on few table frames, so its mirrors cost the median nothing
    (MODEL_CARD.md). Off at the table (zonkcam.table.reading)."""
    clutter_count: int = 5
    clutter_heat: float = 0.25
    """The second look also runs on a cluttered table: when the value net turned away at
    least clutter_count of the first look's candidates at least clutter_heat hot (a
    board's tiles and tokens; small dice hide among them). Chosen in session 8 on the
    leave-one-source-out runs (left-out Epanemu errors 542 -> 506 with 5; 1 / 2 / 3 / 5
    / 8 / 12: 508 / 508 / 507 / 506 / 511 / 519), the training split and matteop65
    unchanged; it runs on 8 of the first 120 `zonkcam bench` frames (MODEL_CARD.md)."""
    crowd_count: int = 8
    """On a crowded table (the first look kept at least this many dice) the second look
    runs too and adds its candidates of every size, not only the small ones: at 320 px
    two touching dice of a crowd can come out as one box, or one of them not at all, and
    at 640 px they come apart (since session 16; `--crowd-look N`). Of two boxes of one
    die the hotter stays, as for the small ones; the second look's candidates of a
    first-look die's size are voted on with heat_full, the small ones with
    small_heat_full. 0 = off. Chosen in session 16 (errors, off / 6 / 8 / 10 / 12):
    training split 72 / 68 / 67 / 67 / 67; Epanemu left out, session 12's twin 829 / - /
    829 / 826 / 826 (end to end 0.721 / - / 0.727 / 0.727 / 0.722), six of session 14's
    and 15's value-net twins off / 8: 464 / 454, 512 / 502, 556 / 544, 611 / 600, 702 /
    687, 531 / 524; matteop65 left out 21 / - / 21; `zonkcam bench --crowd` (30 tables
    each of 10 / 20 / 40 small dice) 23 / 56 / 83 off, 8 / 24 / 38 at 6, 11 / 24 / 38 at
    8, 22 / 24 / 38 at 10. At 6 it runs on `zonkcam bench`'s 6-dice frames too (1280x960
    median 6 -> 23 ms); at 8 it never runs there. The validation split, read after:
    13 errors off, 14 at 8 (one tall oblique die boxed again around its front side face by
    the 640 px look, a 3, and read 3 for 1)."""
    tiny_look_size: int = 1280
    tiny_px: float = 16.0
    tiny_heat_full: float = 0.7
    """A third look for tiny dice: when the second look ran and then kept no die, or one
    under tiny_px in the first look's px (5% of the photo), the detector looks once more
    at tiny_look_size px (if over small_pass_size; a smaller photo is scaled up), tile by
    tile (_detect_tiled), and its candidates under tiny_px are read and voted on with
    heat_full = tiny_heat_full: dice too small even for the second look (a table
    photographed whole from afar; far dice on a board). Its candidates need a warmer
    detector than the second look's (0.7 against 0.3): it also finds pips, keys and parts
    of dice in piles. 0 = off. Chosen in session 16, on one untiled run at 1280 px
    (MODEL_CARD.md, Measured, Session 16): errors on the training split, session 12's
    Epanemu twin (end to end) and session 14's `t14e-d8` twin (end to end), off 67 / 827
    (0.728) / 451 (0.725); tiny_px and tiny_heat_full 12 and 0.6: 75 / 827 (0.738) / 433
    (0.742); 14 and 0.6: 78 / 824 (0.741) / 430 (0.746); 16 and 0.6: 77 / 823 (0.742) /
    424 (0.749); 14 and 0.7: 74 / 813 (0.740) / 436 (0.739); 16 and 0.7: 73 / 811
    (0.741) / 430 (0.742); 14 and 0.8: 68 / 822 (0.730) / 447 (0.730). Tiled as shipped:
    72 / 813 (0.738) / 435 (0.738). About 35 ms a 1280x960 frame where it runs. Off at
    the table (zonkcam.table.reading)."""
    big_look_size: int = 96
    big_px: float = 48.0
    """A look for big dice: when neither look kept a die, the detector looks once more at
    the photo scaled to big_look_size px (if under det_size), and its candidates at least
    big_px wide in the first look's px (0.15 of the photo) are read and voted on with
    heat_full. The detector was trained on dice up to a fifth of the photo wide; a
    close-up of a die a third of the photo wide or more (over 100 px at 320 px) it often
    does not find; at 96 px a die 0.15-0.65 of the photo wide is 14-64 px, as the
    training dice were at 320 (since session 16). 0 = off. Chosen in session 16 on
    rendered close-ups (`zonkcam bench --close`: one die 0.4 of a 1280x960 frame wide,
    30 frames; errors off / 96 / 128 / 160 / 192: 12 / 0 / 1 / 2 / 2; close-ups that
    may run over the frame's edge, 0.3-0.45 wide, 120 frames: 66 / 19 / 19 / 19 / 21);
    the photos do not tell them apart (MODEL_CARD.md, Measured, Session 16). Off at the
    table (zonkcam.table.reading), where calibration sizes the dice."""
    small_heat_full: float = 0.3
    """heat_full for the candidates that only the second look found: the detector is
    less warm about dice that are small even at 640 px. Chosen in session 8 on the
    training split and the leave-one-source-out runs (0.25 / 0.3 / 0.35 / 0.4 (as the
    first look) / 0.5; MODEL_CARD.md)."""
    value_views: int = 1
    """Views of each crop the value net reads (_views_of, merge_views): 1 = as is, 2 =
    plus a half turn, 4 = all four quarter turns (more robust, proportionally slower);
    for a net trained upright, 2 = plus its left-right mirror, 4 = the four quarter
    turns and the mirror, the face value read from the upright views only."""
    recheck_unsure: bool = True
    """With one view: a candidate the value net is unsure of (P(a die) inside
    RECHECK_DIE_PROB, or its best value under RECHECK_VALUE_SHARE of P(a die)) is read
    again in the other three quarter turns and the four views averaged. That is 5-6% of
    the candidates on the photos. Session 5 read them half-turned only (training split
    114 -> 112 errors, as much as `value_views=2` for every candidate); session 7's
    quarter turns took session 6's reader's training-split errors from 113 to 107 and
    those of the leave-one-source-out runs from 1092 to 1009 (Epanemu) and 43 to 43
    (matteop65), at about 0.1 ms a frame (MODEL_CARD.md).
    For a value net trained upright (model.reads_upright: `zonkcam train --upright`, the
    shipped one since session 18) the crop's left-right mirror is read as well, and
    merge_views takes P(a die) from all five readings but the face value from the crop
    and its mirror only: turned a quarter, an oblique die shows a side face uppermost,
    which an upright net takes for the top face. Session 18, two Epanemu-left-out twins
    trained upright (seeds 17 / 13; errors), the recheck in the four quarter turns
    averaged 431 / 396, no recheck 541 / 518, the mirror only 467 / 466, P(a die) from the
    four turns and the values from the crop and its mirror 408 / 380, this 401 / 386."""
    second_opinion: bool = True
    """Ask the model's second opinions (more value nets, model.second_opinions) about the
    candidates the value net is still unsure of after the recheck (SECOND_OPINION_DIE_PROB,
    SECOND_OPINION_VALUE_SHARE; each read the same way, recheck included), and average
    their readings with its own. The one shipped is session 11's `gw0`, a value net of
    its own line trained on a GPU (session 10 shipped `v7`, trained on from the first
    net). Errors (missed + extra + misread) with the left-out twins, none / `v7` /
    `gw0`: Epanemu 506 / 486 / 429, matteop65 17 / 18 / 18; training split 97 / 96 / 90;
    validation 15 / 15 / 14; about 1 ms more a 1280x960 frame. A second opinion read
    without its own recheck made things worse (session 10: Epanemu 525, training split
    105). `v6` as a third beside `v7`: Epanemu 478, matteop65 19, training split 94,
    another 0.5 ms (MODEL_CARD.md)."""
    recrop_shrink: float = 0.75
    """A candidate the vote turned away although the detector backs it (heat enough that
    a sure value net would keep it) and the value net gave it P(a die) of at least
    RECROP_DIE_PROB is read once more from its box shrunk to this share of its width and
    height about its centre (_recrop_turned_away): a box that holds a die's side faces
    and the table round it as well as its top face. That reading stands when it is surer
    of a die and its best value reaches RECROP_VALUE_PROB. 0 = off (`--recrop`). Since
    session 19: on photos from elsewhere a value net often doubts a die the detector
    boxed loosely (a missed die's crop from its labelled box read P(a die) 0.8 or more
    three times as often as from the reader's box, on the Epanemu twins). Errors
    (missed / extra / misread), off / this: six Epanemu-left-out twins (three detectors
    trained on, two value nets) 1,953 (1,030 / 542 / 381) / 1,877 (922 / 571 / 384),
    end to end 0.826 / 0.839; two matteop65-left-out twins 43 / 48 (a keyboard key, a
    cable's bead); training split 63 / 62. Shrunk to 0.9 / 0.8 / 0.7 without the value
    bar: Epanemu 1,967 / 1,915 / 1,894 (MODEL_CARD.md, Measured, Session 19)."""
    min_die_prob: float = 0.8
    """A candidate is kept when the value net gives 'a die' (any value) at least this.
    With session 4's pretrained value net, 0.7 / 0.8 / 0.9 made 116 / 113 / 110 errors on
    the training split and 31 / 32 / 35 on the bench frames; with the shipped one (session
    5), 0.7 / 0.75 / 0.8 / 0.85 / 0.9 make 120 / 115 / 114 / 118 / 118 on the training
    split."""
    heat_full: float = 0.4
    heat_weight: float = 0.25
    """The two nets vote together: a candidate is kept when P(a die) x min(heat /
    heat_full, 1) ** heat_weight reaches min_die_prob, so one the detector was lukewarm
    about (heat under heat_full) needs a surer value net, and one under about 0.16 heat
    never stays. Things the value net has never seen (a keyboard key, a board's number
    token) it can call a die with 0.9 and more, but the detector rarely backs it.
    0 = the value net alone decides. Chosen in session 6 on leave-one-source-out runs
    and the training split (0.3; MODEL_CARD.md); 0.25 since session 19, with the second
    crop (recrop_shrink), on its six Epanemu twins and the training split (errors,
    0.3 / 0.25 / 0.2: 1,877 / 1,867 / 1,889 and 62 / 60 / 61; the two matteop65 twins
    48 and the validation split 13 either way, read after)."""
    size_bars: bool = True
    same_size_bar: float = 0.6
    big_size_bar: float = 0.95
    """The photo's dice are one size (vote_bars). Once the vote is sure of a die (at
    least SIZE_SURE_VOTE), a candidate about that size (within SAME_SIZE of the median
    side of the sure dice) is kept with a vote of same_size_bar instead of min_die_prob
    if the value net is sure of its value (best value at least SAME_SIZE_VALUE_SHARE of
    P(a die)), does not read it as a 1 (round things that are not dice read as 1s) and
    it does not lie over a sure die (at most SAME_SIZE_OVERLAP of its box: a die's side
    face); a candidate more than BIG_SIZE times their size needs big_size_bar (a board's
    tile, a hand). False: every candidate needs min_die_prob (`--no-size-bars`). Since
    session 20: the nets see one candidate at a time and do not know the size of the
    photo's other dice. Chosen on the six Epanemu twins and the training split, the
    validation split read after (errors, missed / extra / misread; off / on): six twins
    1,867 (871 / 602 / 394) / 1,722 (840 / 487 / 395), end to end 0.844 / 0.848, images
    exactly right 0.570 / 0.598; training split 60 / 61 (end to end 0.981 / 0.982);
    session 18's four twins 1,462 / 1,353; the two matteop65 twins 48 / 48; validation
    13 / 12. Raising the bar for small candidates too (under half the size) lost more
    small dice than it saved extra ones (MODEL_CARD.md, Measured, Session 20).
    same_size_bar 0.7 until session 21; 0.6 since, with the upright second opinions.
    Session 21 chose it on twin figures read with the fourth net asked twice (1,491 ->
    1,463); read as shipped (session 22) the six twins with stand-ins for the four value
    nets make 1,491 errors at 0.6 and at 0.7 alike, the matteop65 twins 49 either way;
    the training split 57 at 0.6 against 56, the 13 distortions 345 against 349, the
    validation split the same dice. A tie; it stays."""
    min_value_prob: float = 0.0
    """A die whose best value is less likely than this is dropped."""
    dedupe_iou: float = 0.35
    """After the value net: of two kept dice whose boxes overlap by more than this IoU,
    only the one more surely a die stays (a die found twice, or boxed once whole and
    once by its top face). 0 = off. Chosen with session 3's models on the training split
    and `zonkcam bench` frames (errors = missed + extra + misread; off / 0.3 / 0.35 /
    0.4): training split 193 / 145 / 151 / 162, bench frames 37 / 49 / 43 / 39 (there it
    costs a few dice touching in depth, whose boxes come out a little too big). With
    the pretrained value net, off / 0.35: 166 / 113 and 26 / 32 (MODEL_CARD.md)."""
    dedupe_inside: float = 0.6
    """And of two kept dice where more than this share of the smaller box lies inside the
    other, only the one more surely a die stays: a die boxed once by its top face and
    once by a side face, or once whole and once in part, whose two boxes overlap too
    little for dedupe_iou. 0 = off. Chosen in session 12 with the mirrored second look
    (errors, off / 0.7 / 0.6 / 0.5 / 0.45): training split 81 / 79 / 78 / 73 / 75,
    Epanemu left out (session 12's twin) 848 / 836 / 830 / 829 / 829; under 0.6 it
    merges touching dice on rendered tables (`zonkcam bench` frames read exactly,
    640x480 with 5 dice: 0.73 at 0.6 and above, 0.70 at 0.5, 0.67 at 0.45)."""
    dedupe_same_inside: float = 0.4
    """And of two kept dice that read the same value, where more than this share of the
    smaller box lies inside the other, only the one more surely a die stays: one top face
    read twice, by a box of the whole die and by one that holds the top face and a side
    face, overlapping too little for dedupe_inside. 0 = off. Chosen in session 13
    (errors, off / 0.3 / 0.35 / 0.4 / 0.45): training split 78 / 75 / 73 / 72 / 73,
    Epanemu left out (session 12's twin) 830 / 832 / 830 / 829 / 829, matteop65 left out
    22 / 21 / 21 / 21 / 21. It merges some touching dice of one value on rendered tables:
    `zonkcam bench` frames read exactly, of 180: 151 off, 146 at 0.35, 149 at 0.4; the
    demo table (scripts/bench_table.py) reads 60 of 60 and 150 of 150 throws right with
    it or without."""

    find_up: bool = True
    up_margin: float = 0.3
    """Read a photo lying on its side (turned a quarter) turned upright (up_turns; a
    photo whose dice are all read surely is never checked, nor one read without second
    opinions). The upright value nets take the side face of an oblique die for its top
    when the photo lies on its side, so such a photo is read again turned the way on
    which the upright nets agree with the turned net (`gw0`) better than as it lies, by
    more than up_margin (summed over its dice). `--no-find-up`: off. Session 22,
    errors off / on: the six Epanemu twins 1,491 / 1,485, turned a quarter (`--distort
    rot90`) 3,078 / 2,021 (end to end 0.702 / 0.804) and the other way (`rot270`) 2,987
    / 2,077; the two matteop65 twins 49 / 47; the training split 57 / 55; the
    validation split 14 / 14, turned 24 / 15 and 26 / 21; a 1280x960 frame of `zonkcam
    bench` about as fast (MODEL_CARD.md, Measured, Session 22). The check was chosen
    with up_margin 0.5 on the photos' agreement scores alone (of the 650 dev photos
    with dice it turns 2, of the same turned a quarter 80 back and 1 the wrong way;
    0.3: 3 / 127 / 1); read on the twins, 0.3 costs the upright ones 5 errors (0.5:
    1,480) and saves the turned ones 127 and 110, and every split reads the same or
    better."""

    def __post_init__(self) -> None:
        for m in (*self.first_look_mirrors, *self.second_look_mirrors):
            if m not in MIRRORS:
                raise ValueError(f"unknown mirror {m!r}: use {', '.join(MIRRORS)}")


DEFAULT_SETTINGS = ReaderSettings()
RECHECK_DIE_PROB = (0.3, 0.95)
RECHECK_VALUE_SHARE = 0.9
RECROP_DIE_PROB = 0.3
RECROP_VALUE_PROB = 0.8
"""Which turned-away candidates are read again shrunk (ReaderSettings.recrop_shrink):
P(a die) at least RECROP_DIE_PROB; and the shrunk reading stands only if its best value
is at least RECROP_VALUE_PROB (without that bar: Epanemu twins 1,876 errors, matteop65
twins 54, the validation split two extra dice)."""
SIZE_SURE_VOTE = 0.9
SAME_SIZE = 1.25
BIG_SIZE = 2.0
SAME_SIZE_VALUE_SHARE = 0.7
SAME_SIZE_OVERLAP = 0.25
"""The photo's die size (ReaderSettings.same_size_bar, big_size_bar; vote_bars): the
vote that makes a die sure enough to set it, the factors of its size that are the same
size and too big, and what a candidate of the same size needs to have its bar lowered.
Chosen in session 20 on the six Epanemu twins and the training split (model card)."""
SECOND_OPINION_DIE_PROB = (0.2, 0.98)
SECOND_OPINION_VALUE_SHARE = 0.95
"""The candidates the second opinions are asked about (ReaderSettings.second_opinion):
P(a die) between 0.2 and 0.98, or a best value under 0.95 of P(a die), after the
recheck. Chosen in session 10 on the training split and the leave-one-source-out runs:
the recheck's narrower band (0.3-0.95, 0.9) gave left-out Epanemu 494 errors with one
second opinion, this band and every wider one up to asking about every candidate 486."""


def _intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)): the area each box (x0, y0, x1, y1) of `a` shares with each of `b`."""
    w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


def _nms(
    boxes: np.ndarray,
    scores: np.ndarray,
    iou: float,
    centres: bool = False,
    inside: float = 0.0,
    labels: np.ndarray | None = None,
    same_inside: float = 0.0,
) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression: a box goes when it overlaps a
    better one by more than `iou`, or (`centres`) when its centre lies inside a better
    box (a die found twice: its top face and the whole die, or two peaks on one die;
    two dice side by side keep their centres outside each other's box), or (`inside` >
    0) when more than that share of the smaller of the two boxes lies inside the other,
    or (`same_inside` > 0) more than that share when the two have the same `labels`."""
    order = np.argsort(-scores)
    inter = _intersections(boxes, boxes)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    # drops[i, j]: box i, if kept, suppresses box j (all pairs at once, then one cheap
    # greedy pass: a quarter of the time of comparing each kept box with the rest in turn)
    drops = inter / np.maximum(area[:, None] + area[None, :] - inter, 1e-6) > iou
    if inside > 0 or same_inside > 0:
        share = inter / np.maximum(np.minimum(area[:, None], area[None, :]), 1e-6)
        if inside > 0:
            drops |= share > inside
        if same_inside > 0 and labels is not None:
            drops |= (share > same_inside) & (labels[:, None] == labels[None, :])
    if centres:
        cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
        drops |= (
            (cx[None, :] > boxes[:, None, 0])
            & (cx[None, :] < boxes[:, None, 2])
            & (cy[None, :] > boxes[:, None, 1])
            & (cy[None, :] < boxes[:, None, 3])
        )
    gone = np.zeros(len(boxes), bool)
    keep: list[int] = []
    for i in order.tolist():
        if not gone[i]:
            keep.append(i)
            gone |= drops[i]
    return np.array(keep, np.int64)


DETECTOR_ONLY_TRIGGER_HEAT = 0.25
"""detect_candidates has no value net to say which candidates are dice: there a
candidate at least this hot (detector heat) that is small calls for the second look."""


def detect_candidates(
    image: np.ndarray, model: DiceModel, settings: ReaderSettings = DEFAULT_SETTINGS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The detector's candidates alone, both looks, in a BGR uint8 image: (boxes (N, 4)
    in image px, heat (N,), the letterboxed detector input). For work without the value
    net (`zonkcam train`'s hard examples, the int8 calibration): the second look runs
    when no candidate at least DETECTOR_ONLY_TRIGGER_HEAT hot is found, or a small one
    is. read_dice decides the second look with the value net instead. Without the
    mirrored views (ReaderSettings.first_look_mirrors): the shipped value nets were mined
    and the int8 step calibrated on the candidates of one view."""
    settings = replace(settings, first_look_mirrors=(), second_look_mirrors=())
    boxes, scores, inp = _detect(image, model, settings, settings.det_size)
    sides = _sides(boxes, image.shape, settings)[scores >= DETECTOR_ONLY_TRIGGER_HEAT]
    looks_small = len(sides) == 0 or bool((sides < settings.small_px).any())
    if _second_look_possible(image.shape, settings) and looks_small:
        b2, s2, _ = _small_ones(image, model, settings)
        if len(b2):
            boxes, scores = np.concatenate([boxes, b2]), np.concatenate([scores, s2])
            keep = _nms(boxes, scores, settings.nms_iou, settings.nms_centres)
            boxes, scores = boxes[keep], scores[keep]
    return boxes, scores, inp


def _sides(boxes: np.ndarray, shape: tuple[int, ...], settings: ReaderSettings) -> np.ndarray:
    """Each box's longer side in the first look's px."""
    scale = settings.det_size / max(shape[:2])
    return np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) * scale


def _second_look_possible(shape: tuple[int, ...], settings: ReaderSettings) -> bool:
    big = settings.small_pass_size
    return big > settings.det_size and max(shape[:2]) > settings.det_size


def _small_ones(
    image: np.ndarray, model: DiceModel, settings: ReaderSettings, every_size: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The second look: candidates at small_pass_size that are small in the first's px
    (`every_size`: all of them, for a crowded table); (boxes, heat, whether each is
    small)."""
    boxes, scores, _ = _detect(
        image, model, settings, settings.small_pass_size, settings.second_look_mirrors
    )
    small = _sides(boxes, image.shape, settings) < settings.small_px
    if every_size:
        return boxes, scores, small
    return boxes[small], scores[small], small[small]


def _detect(
    image: np.ndarray,
    model: DiceModel,
    settings: ReaderSettings,
    size: int,
    mirrors: tuple[str, ...] = (),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One detector look at `size` px: (boxes (N, 4) in image px, heat (N,), the
    letterboxed input). `mirrors` (see ReaderSettings.first_look_mirrors): the detector
    also looks at these mirrored copies of the input, and the candidates of all views
    go through one NMS (a die found in two views keeps its hotter heat)."""
    h, w = image.shape[:2]
    inp, scale = letterbox(image, size)
    vw, vh = max(1, round(w * scale)), max(1, round(h * scale))
    found = [_detect_view(inp, "", vw, vh, model, settings)]
    found += [_detect_view(inp, m, vw, vh, model, settings) for m in mirrors]
    boxes, scores = _image_boxes(found, scale, (h, w), settings)
    return boxes, scores, inp


def _image_boxes(
    found: list[tuple[np.ndarray, ...]],
    scale: float,
    shape: tuple[int, int],
    settings: ReaderSettings,
) -> tuple[np.ndarray, np.ndarray]:
    """The candidates of one look's views (or tiles), each (centre x, centre y, width,
    height, heat) in the detector input's px, as boxes in image px (clipped to the
    image, none under 2 px) through one NMS: (boxes (N, 4), heat (N,))."""
    h, w = shape
    cx, cy, bw, bh, scores = (np.concatenate(a) for a in zip(*found, strict=True))
    if len(scores) == 0:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1) / scale
    boxes = np.clip(boxes, 0, [w, h, w, h]).astype(np.float32)
    ok = (boxes[:, 2] - boxes[:, 0] >= 2) & (boxes[:, 3] - boxes[:, 1] >= 2)
    boxes, scores = boxes[ok], scores[ok]
    keep = _nms(boxes, scores, settings.nms_iou, settings.nms_centres)
    return boxes[keep], scores[keep].astype(np.float32)


TINY_TILE = 704
TINY_TILE_OVERLAP = 128
"""The tiny look runs the detector on tiles of its 1280 px input, TINY_TILE px square
overlapping by TINY_TILE_OVERLAP (four for a 4:3 photo): one run at 1280 px held about
100 MB more at its peak (`zonkcam read` over the photo set: 256 MB against 154), a tile
about as much as the second look's 640 px. A die under tiny_px (64 px at 1280) lies
wholly in the tile whose share of the canvas holds its centre."""


def _tile_starts(length: int, tile: int, overlap: int) -> list[int]:
    """Where tiles `tile` long, overlapping by at least `overlap`, start along `length`."""
    if length <= tile:
        return [0]
    starts = list(range(0, length - tile, tile - overlap))
    return [*starts, length - tile]


def _detect_tiled(
    image: np.ndarray, model: DiceModel, settings: ReaderSettings, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """One detector look at `size` px, run tile by tile (TINY_TILE): (boxes (N, 4) in
    image px, heat (N,)). Each tile keeps the candidates centred in its own share of the
    canvas (up to the middle of its overlap with the next), so a die is found once."""
    h, w = image.shape[:2]
    inp, scale = letterbox(image, size)
    ch, cw = inp.shape[:2]
    found = []
    xs = _tile_starts(cw, TINY_TILE, TINY_TILE_OVERLAP)
    ys = _tile_starts(ch, TINY_TILE, TINY_TILE_OVERLAP)

    def shares(starts: list[int], length: int) -> list[tuple[float, float]]:
        ends = [min(s + TINY_TILE, length) for s in starts]
        cuts = [(ends[i] + starts[i + 1]) / 2 for i in range(len(starts) - 1)]
        return list(zip([0.0, *cuts], [*cuts, float(length)], strict=True))

    for y0, (ylo, yhi) in zip(ys, shares(ys, ch), strict=True):
        for x0, (xlo, xhi) in zip(xs, shares(xs, cw), strict=True):
            view = inp[y0 : y0 + TINY_TILE, x0 : x0 + TINY_TILE]
            cx, cy, bw, bh, heat = _detect_view(
                view, "", view.shape[1], view.shape[0], model, settings
            )
            cx, cy = cx + x0, cy + y0
            mine = (cx >= xlo) & (cx < xhi) & (cy >= ylo) & (cy < yhi)
            found.append((cx[mine], cy[mine], bw[mine], bh[mine], heat[mine]))
    return _image_boxes(found, scale, (h, w), settings)


def _detect_view(
    inp: np.ndarray, mirror: str, vw: int, vh: int, model: DiceModel, settings: ReaderSettings
) -> tuple[np.ndarray, ...]:
    """The detector's candidates in one view of the letterboxed input `inp`, whose image
    part is vw x vh px (the rest is padding, which stays right and bottom in a mirrored
    view, as in training): (centre x, centre y, width, height) in `inp`'s px, unmirrored,
    and heat; the hottest settings.max_candidates at least settings.det_threshold hot."""
    view = inp
    if mirror:
        view = inp.copy()
        rows = slice(vh - 1, None, -1) if "v" in mirror else slice(0, vh)
        cols = slice(vw - 1, None, -1) if "h" in mirror else slice(0, vw)
        view[:vh, :vw] = inp[rows, cols]
    x = np.ascontiguousarray(view.transpose(2, 0, 1)[None], dtype=np.float32)
    peaks, geom = model.detector.run(None, {"image": x})
    heat = peaks[0, 0]
    ys, xs = np.nonzero(heat >= settings.det_threshold)
    scores = heat[ys, xs]
    top = np.argsort(-scores)[: settings.max_candidates]
    ys, xs, scores = ys[top], xs[top], scores[top]
    g = geom[0][:, ys, xs]
    cx = (xs + g[0]) * DET_STRIDE
    cy = (ys + g[1]) * DET_STRIDE
    if "h" in mirror:
        cx = vw - cx
    if "v" in mirror:
        cy = vh - cy
    return cx, cy, g[2], g[3], scores


VALUE_BATCH = 16
"""Crops per value-net run. A photo can give 80 candidates (160 or 320 with more views);
run at once, their activations would hold tens of MB more for the life of the process."""


TURNS = {1: (0,), 2: (0, 2), 4: (0, 1, 2, 3)}
"""The quarter turns of a crop that classify_crops reads, by ReaderSettings.value_views."""


def _view(crops: np.ndarray, turns: int, mirrored: bool) -> np.ndarray:
    """(N, 64, 64, 3) crops turned `turns` quarter turns, then mirrored left-right."""
    out = np.rot90(crops, turns, axes=(1, 2))
    return out[:, :, ::-1] if mirrored else out


def _views_of(views: int, upright: bool) -> tuple[tuple[int, bool], ...]:
    """The (quarter turns, mirrored) views classify_crops reads for `views`: quarter
    turns (TURNS) for a net trained on turned crops; for an upright net (model.
    reads_upright) 1 = as is, 2 = plus its left-right mirror, 4 = the four quarter turns
    and the mirror."""
    if not upright or views == 1:
        return tuple((k, False) for k in TURNS[views])
    if views == 2:
        return ((0, False), (0, True))
    return tuple((k, False) for k in TURNS[4]) + ((0, True),)


def _run_net(net: ort.InferenceSession, crops: np.ndarray) -> np.ndarray:
    """(N, 64, 64, 3) crops -> (N, 7), one reading each."""
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
    # in batches of at most VALUE_BATCH: onnxruntime keeps the memory of its biggest run
    return np.concatenate(
        [net.run(None, {"crops": x[i : i + VALUE_BATCH]})[0] for i in range(0, len(x), VALUE_BATCH)]
    )


def merge_views(readings: np.ndarray, upright_views: np.ndarray, upright_net: bool) -> np.ndarray:
    """(V, N, 7) readings of the same N crops in V views -> (N, 7). A net trained on
    turned crops: their mean. An upright net (model.reads_upright): P(not a die) is
    their mean too (whether a crop holds a die does not depend on which way is up), but
    the face values come from the views that keep the crop upright (`upright_views`,
    (V,) bool: as it is and mirrored left-right), shared out over P(a die): a turned
    view of an oblique die shows the net a side face uppermost, which it takes for the
    top face."""
    mean = readings.mean(axis=0)
    if not upright_net:
        return mean
    values = readings[np.asarray(upright_views, bool), :, 1:].sum(axis=0)
    values = values / np.maximum(values.sum(axis=1, keepdims=True), 1e-9)
    out = np.empty_like(mean)
    out[:, 0] = mean[:, 0]
    out[:, 1:] = values * (1.0 - mean[:, :1])
    return out


def classify_crops(
    crops: np.ndarray, model: DiceModel, views: int = 1, net: ort.InferenceSession | None = None
) -> np.ndarray:
    """(N, 64, 64, 3) BGR uint8 crops -> (N, 7) probabilities (0 = not a die, 1-6),
    merged over `views` views of each crop (1, 2 or 4; _views_of, merge_views). `net`:
    the value net to run (default model.values; a second opinion's)."""
    n = len(crops)
    if n == 0:
        return np.zeros((0, 7), np.float32)
    net = model.values if net is None else net
    upright = reads_upright(net)
    seen = _views_of(views, upright)
    batch = np.concatenate([_view(crops, k, m) for k, m in seen])
    readings = _run_net(net, batch).reshape(len(seen), n, 7)
    return merge_views(readings, np.array([k == 0 for k, _ in seen]), upright)


def _unsure(probs: np.ndarray, die_prob: tuple[float, float], value_share: float) -> np.ndarray:
    """Rows whose P(a die) lies inside `die_prob`, or whose best value is under
    `value_share` of P(a die)."""
    is_die = 1.0 - probs[:, 0]
    lo, hi = die_prob
    share = probs[:, 1:].max(axis=1) / np.maximum(is_die, 1e-6)
    return ((is_die > lo) & (is_die < hi)) | ((is_die >= hi) & (share < value_share))


def recheck_unsure(
    crops: np.ndarray,
    probs: np.ndarray,
    model: DiceModel,
    net: ort.InferenceSession | None = None,
) -> np.ndarray:
    """`probs` with the unsure candidates' rows merged with their readings in the other
    three quarter turns (see ReaderSettings.recheck_unsure), and for an upright net in
    the left-right mirror too (merge_views: it reads the values from the upright views
    only). `net`: the value net that read `probs` (default model.values)."""
    unsure = _unsure(probs, RECHECK_DIE_PROB, RECHECK_VALUE_SHARE)
    if not unsure.any():
        return probs
    net = model.values if net is None else net
    upright = reads_upright(net)
    others = ((1, False), (2, False), (3, False)) + (((0, True),) if upright else ())
    few = crops[unsure]
    # the other views in one run of the value net (one session call for a lone crop)
    readings = _run_net(net, np.concatenate([_view(few, k, m) for k, m in others]))
    readings = np.concatenate([probs[unsure][None], readings.reshape(len(others), len(few), 7)])
    out = probs.copy()
    out[unsure] = merge_views(readings, np.array([True] + [k == 0 for k, _ in others]), upright)
    return out


def read_crops(
    crops: np.ndarray, model: DiceModel, settings: ReaderSettings = DEFAULT_SETTINGS
) -> np.ndarray:
    """(N, 64, 64, 3) BGR uint8 crops -> (N, 7) probabilities as the reader reads them:
    the value net in settings.value_views views, the unsure ones read again in their
    other quarter turns (settings.recheck_unsure), then the second opinions on those
    still unsure (settings.second_opinion)."""
    probs = _read_by(model.values, crops, model, settings)
    if settings.second_opinion and model.second_opinions:
        probs = ask_second_opinions(crops, probs, model, settings)
    return probs


def _read_by(
    net: ort.InferenceSession, crops: np.ndarray, model: DiceModel, settings: ReaderSettings
) -> np.ndarray:
    """One value net's reading of `crops`: in settings.value_views views, the unsure ones
    read again in their other quarter turns (settings.recheck_unsure)."""
    probs = classify_crops(crops, model, settings.value_views, net)
    if settings.value_views == 1 and settings.recheck_unsure:
        probs = recheck_unsure(crops, probs, model, net)
    return probs


def ask_second_opinions(
    crops: np.ndarray,
    probs: np.ndarray,
    model: DiceModel,
    settings: ReaderSettings = DEFAULT_SETTINGS,
) -> np.ndarray:
    """`probs` (the first value net's reading) with the rows it is unsure of
    (SECOND_OPINION_DIE_PROB, SECOND_OPINION_VALUE_SHARE) averaged with every second
    opinion's reading of those crops, each read as the first was (views, recheck)."""
    unsure = _unsure(probs, SECOND_OPINION_DIE_PROB, SECOND_OPINION_VALUE_SHARE)
    if not unsure.any() or not model.second_opinions:
        return probs
    few = crops[unsure]
    total = probs[unsure].astype(np.float64)
    for net in model.second_opinions:
        total += _read_by(net, few, model, settings)
    out = probs.copy()
    out[unsure] = total / (1 + len(model.second_opinions))
    return out


def min_kept_heat(
    settings: ReaderSettings, heat_full: float | np.ndarray | None = None
) -> float | np.ndarray:
    """The least detector heat with which a candidate can still be kept (when the value
    net is sure of it): heat_full x min_die_prob ** (1 / heat_weight). `heat_full`:
    settings.heat_full unless given (the second look's small_heat_full; one per candidate)."""
    if settings.heat_weight <= 0:
        return 0.0
    full = settings.heat_full if heat_full is None else heat_full
    return full * settings.min_die_prob ** (1.0 / settings.heat_weight)


def read_dice(
    image: np.ndarray, model: DiceModel, settings: ReaderSettings = DEFAULT_SETTINGS
) -> tuple[Die, ...]:
    """Every six-sided die found in `image` (grey, BGR or BGRA; 8 or 16 bit), sorted
    top-to-bottom then left-to-right. A photo lying on its side is read turned upright
    (ReaderSettings.find_up), its boxes given in the photo's own px."""
    img = to_bgr8(image)
    h, w = img.shape[:2]
    if h < MIN_SIDE or w < MIN_SIDE:
        return ()
    dice = _read_as_it_lies(img, model, settings)
    turns = up_turns(img, dice, model, settings) if settings.find_up else 0
    if turns == 0:
        return dice
    turned = np.ascontiguousarray(np.rot90(img, turns))
    # the detector looks at the same mirror images of the photo: turned a quarter, its
    # left-right mirror is the turned photo's top-bottom one
    turned_settings = replace(
        settings,
        first_look_mirrors=_mirrors_turned(settings.first_look_mirrors, turns),
        second_look_mirrors=_mirrors_turned(settings.second_look_mirrors, turns),
    )
    back = [
        replace(d, bbox=tuple(round(v, 1) for v in turn_box_back(d.bbox, turns, turned.shape)))
        for d in _read_as_it_lies(turned, model, turned_settings)
    ]
    return tuple(sorted(back, key=_reading_order))


def _mirrors_turned(mirrors: tuple[str, ...], turns: int) -> tuple[str, ...]:
    """The mirrors (MIRRORS) of a photo turned `turns` quarter turns that show what
    `mirrors` show of the photo as it lay: left-right and top-bottom change places after
    a quarter or three quarters, not after a half turn."""
    swap = {"h": "v", "v": "h", "hv": "hv"} if turns % 2 else {m: m for m in MIRRORS}
    return tuple(m for m in MIRRORS if swap[m] in mirrors)


def _reading_order(d: Die) -> tuple[float, float]:
    """Top-to-bottom, then left-to-right, by the box's centre."""
    return ((d.bbox[1] + d.bbox[3]) / 2, (d.bbox[0] + d.bbox[2]) / 2)


UP_CHECK_BELOW = 0.9
"""up_turns checks a photo only if some die in it was read with a confidence under this:
a photo whose dice are all sure (a top-down table) costs nothing more. Of the 650
photos of real-dice-dev with dice read 63 are checked; turned a quarter, 190 of 646."""
UP_TURNS = (1, 3)
"""The turns up_turns weighs against the photo as it is: a quarter either way (np.rot90,
anticlockwise). Weighing the half turn as well turned 9 of 646 quarter-turned photos
the wrong way against 1 (session 22)."""


def up_turns(
    img: np.ndarray,
    dice: tuple[Die, ...],
    model: DiceModel,
    settings: ReaderSettings = DEFAULT_SETTINGS,
) -> int:
    """How many quarter turns anticlockwise (np.rot90) bring the photo `img` upright,
    judged from the `dice` read in it: 1 or 3, or 0 (upright, or no telling). A turned
    value net (trained on crops in every quarter turn, like `gw0`) reads a die's value
    whichever way up the photo lies; the upright ones (model.reads_upright) read it well
    only the photo's own way up, where the face on top of an oblique die is the one
    uppermost. So each die's crop is read by every upright net as it is and turned by
    each of UP_TURNS, and the photo is turned the way whose readings agree best with the
    turned net's (the value shares' dot product, summed over the dice, averaged over the
    upright nets) if that beats the photo as it is by more than settings.up_margin. Only
    for a photo with an unsure die (UP_CHECK_BELOW) and a model with an upright first
    net and a turned second opinion, asked (settings.second_opinion): the table loads
    none, so it never turns its frames."""
    if not dice or not settings.second_opinion or min(d.confidence for d in dice) >= UP_CHECK_BELOW:
        return 0
    turned_nets = [n for n in model.second_opinions if not reads_upright(n)]
    if not reads_upright(model.values) or not turned_nets:
        return 0
    upright_nets = [n for n in (model.values, *model.second_opinions) if reads_upright(n)]
    crops = np.stack([crop_die(img, np.asarray(d.bbox, np.float32)) for d in dice])
    reference = _value_shares(classify_crops(crops, model, 4, turned_nets[0]))
    turns = (0, *UP_TURNS)
    views = np.concatenate([_view(crops, k, False) for k in turns])
    agree = np.zeros(len(turns))
    for net in upright_nets:
        readings = _value_shares(_run_net(net, views)).reshape(len(turns), len(crops), 6)
        agree += (readings * reference).sum(axis=(1, 2)) / len(upright_nets)
    best = int(np.argmax(agree[1:])) + 1
    return turns[best] if agree[best] - agree[0] > settings.up_margin else 0


def _value_shares(probs: np.ndarray) -> np.ndarray:
    """(N, 7) readings -> (N, 6): the face values' shares of P(a die)."""
    values = probs[:, 1:].astype(np.float64)
    return values / np.maximum(values.sum(axis=1, keepdims=True), 1e-9)


def turn_box_back(
    box: tuple[float, float, float, float], turns: int, shape: tuple[int, ...]
) -> tuple[float, float, float, float]:
    """A box (x0, y0, x1, y1) in px of a photo turned `turns` quarter turns anticlockwise
    (np.rot90; `shape`: the turned photo's), in px of the photo as it was."""
    x0, y0, x1, y1 = box
    h, w = shape[:2]
    for _ in range(turns % 4):
        # one quarter turn back (clockwise): the turned photo's height was the width
        x0, y0, x1, y1 = h - y1, x0, h - y0, x1
        h, w = w, h
    return (float(x0), float(y0), float(x1), float(y1))


def _read_as_it_lies(
    img: np.ndarray, model: DiceModel, settings: ReaderSettings
) -> tuple[Die, ...]:
    """read_dice of a BGR uint8 photo at least MIN_SIDE px each way, the way it lies."""
    h, w = img.shape[:2]
    boxes, scores, inp = _detect(
        img, model, settings, settings.det_size, settings.first_look_mirrors
    )
    found = _Candidates.read(img, boxes, scores, settings.heat_full, model, settings)
    found, keep = _look_again(img, found, model, settings)
    if len(keep) == 0:
        return ()
    scale = settings.det_size / max(h, w)
    visible = inp[: max(1, round(h * scale)), : max(1, round(w * scale))]
    gains = white_balance_gains(visible)
    dice = []
    for box, p, crop in zip(found.boxes[keep], found.probs[keep], found.crops[keep], strict=True):
        value = int(np.argmax(p[1:])) + 1
        if float(p[value]) < settings.min_value_prob:
            continue
        bbox = tuple(round(float(v), 1) for v in box)
        dice.append(Die(value, round(float(p[value]), 4), bbox, crop_color(crop, gains)))
    dice.sort(key=_reading_order)
    return tuple(dice)


def _look_again(
    img: np.ndarray, found: _Candidates, model: DiceModel, settings: ReaderSettings
) -> tuple[_Candidates, np.ndarray]:
    """The looks after the first, each called by what the ones before kept: the second
    look at 640 px (small dice, a cluttered board, or every size on a crowded table), the
    tiny look at 1280 px (dice too small even for the second), the big look at 96 px
    (close-ups: nothing found so far). Returns all the candidates read and the indices of
    those kept."""
    keep = found.kept(settings)
    crowded = 0 < settings.crowd_count <= len(keep)
    if _second_look_possible(img.shape, settings) and (
        crowded or _small_dice_likely(found, keep, img.shape, settings)
    ):
        found = found.with_second_look(img, model, settings, every_size=crowded)
        keep = found.kept(settings)
        sides = _sides(found.boxes[keep], img.shape, settings)
        tiny_ones_likely = len(sides) == 0 or bool((sides < settings.tiny_px).any())
        if settings.tiny_look_size > settings.small_pass_size and tiny_ones_likely:
            found = found.with_tiny_look(img, model, settings)
            keep = found.kept(settings)
    if len(keep) == 0 and 0 < settings.big_look_size < settings.det_size:
        found = found.with_big_look(img, model, settings)
        keep = found.kept(settings)
    return found, keep


def _small_dice_likely(
    found: _Candidates, keep: np.ndarray, shape: tuple[int, ...], settings: ReaderSettings
) -> bool:
    """Whether the first look's verdict calls for the second: it kept no die, or a small
    one, or it is a cluttered table (at least clutter_count warm candidates turned away:
    a board's tiles and tokens, among which small dice hide)."""
    sides = _sides(found.boxes[keep], shape, settings)
    if len(sides) == 0 or bool((sides < settings.small_px).any()):
        return True
    turned_away = np.ones(len(found.boxes), bool)
    turned_away[keep] = False
    warm = found.heat >= settings.clutter_heat
    return int((turned_away & warm).sum()) >= settings.clutter_count


def vote(probs: np.ndarray, backing: np.ndarray, settings: ReaderSettings) -> np.ndarray:
    """The two nets' vote per candidate: P(a die) x min(backing, 1) ** heat_weight; a
    candidate is kept when it reaches settings.min_die_prob (ReaderSettings.heat_weight)."""
    return (1.0 - probs[:, 0]) * np.minimum(backing, 1.0) ** settings.heat_weight


def vote_bars(
    boxes: np.ndarray, probs: np.ndarray, votes: np.ndarray, settings: ReaderSettings
) -> np.ndarray:
    """The vote each candidate needs to be kept (ReaderSettings.same_size_bar,
    big_size_bar): min_die_prob, lowered for a die of the size of the photo's sure dice,
    raised for one more than twice that size."""
    bars = np.full(len(votes), settings.min_die_prob)
    sure = votes >= SIZE_SURE_VOTE
    if not settings.size_bars or not sure.any():
        return bars
    area = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1e-6)
    size = np.sqrt(area) / np.median(np.sqrt(area[sure]))
    bars[size > BIG_SIZE] = settings.big_size_bar
    # the same size: the value net sure of its value, not a 1, not over a sure die
    is_die = 1.0 - probs[:, 0]
    best = np.argmax(probs[:, 1:], axis=1)
    over = _intersections(boxes, boxes[sure]).max(axis=1) / area
    same = (
        (size < SAME_SIZE)
        & (size > 1 / SAME_SIZE)
        & (probs[np.arange(len(best)), best + 1] >= SAME_SIZE_VALUE_SHARE * is_die)
        & (best != 0)  # not read as a 1
        & ((over < SAME_SIZE_OVERLAP) | sure)
    )
    bars[same] = settings.same_size_bar
    return bars


def shrink_box(box: np.ndarray, share: float) -> np.ndarray:
    """`box` (x0, y0, x1, y1) shrunk to `share` of its width and height about its centre."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    hw, hh = (box[2] - box[0]) * share / 2, (box[3] - box[1]) * share / 2
    return np.array([cx - hw, cy - hh, cx + hw, cy + hh], np.float32)


def _recrop_turned_away(
    img: np.ndarray,
    boxes: np.ndarray,
    backing: np.ndarray,
    probs: np.ndarray,
    crops: np.ndarray,
    read: np.ndarray,
    model: DiceModel,
    settings: ReaderSettings,
) -> None:
    """In place: of the candidates `read` (those hot enough that a sure value net would
    keep them: min_kept_heat), those the vote turns away whose P(a die) is at least
    RECROP_DIE_PROB, read again from their box shrunk by settings.recrop_shrink; the new
    reading (and crop) replaces the old one where it is surer of a die and its best value
    reaches RECROP_VALUE_PROB (ReaderSettings.recrop_shrink)."""
    if settings.recrop_shrink <= 0 or len(read) == 0:
        return
    doubted = (1.0 - probs[read, 0] >= RECROP_DIE_PROB) & (
        vote(probs[read], backing[read], settings) < settings.min_die_prob
    )
    again = read[doubted]
    if len(again) == 0:
        return
    tight = np.stack([crop_die(img, shrink_box(boxes[i], settings.recrop_shrink)) for i in again])
    p = read_crops(tight, model, settings)
    better = (p[:, 0] < probs[again, 0]) & (p[:, 1:].max(axis=1) >= RECROP_VALUE_PROB)
    probs[again[better]] = p[better]
    crops[again[better]] = tight[better]


@dataclass(frozen=True)
class _Candidates:
    """Detector candidates with the value net's reading of each."""

    boxes: np.ndarray
    """(N, 4) image px."""
    heat: np.ndarray
    """(N,) the detector's heat."""
    backing: np.ndarray
    """(N,) heat over the look's heat_full (1 and more: the detector fully backs it)."""
    probs: np.ndarray
    """(N, 7) value net; a candidate too cold to be kept is not read: 'not a die'."""
    crops: np.ndarray
    """(N, 64, 64, 3) the crops read (zeros where not read)."""

    @classmethod
    def read(
        cls,
        img: np.ndarray,
        boxes: np.ndarray,
        heat: np.ndarray,
        heat_full: float | np.ndarray,
        model: DiceModel,
        settings: ReaderSettings,
    ) -> _Candidates:
        n = len(boxes)
        backing = heat / np.maximum(heat_full, 1e-6)
        probs = np.zeros((n, 7), np.float32)
        probs[:, 0] = 1.0
        crops = np.zeros((n, CROP_SIZE, CROP_SIZE, 3), np.uint8)
        # no value net can save a candidate the detector was too cold about: not read
        hopeful = np.flatnonzero(heat >= min_kept_heat(settings, heat_full))
        if len(hopeful):
            crops[hopeful] = np.stack([crop_die(img, boxes[i]) for i in hopeful])
            probs[hopeful] = read_crops(crops[hopeful], model, settings)
            _recrop_turned_away(img, boxes, backing, probs, crops, hopeful, model, settings)
        return cls(boxes, heat, backing, probs, crops)

    def kept(self, settings: ReaderSettings) -> np.ndarray:
        """Indices of the candidates kept as dice: the two nets' vote (a die the detector
        was lukewarm about needs a surer value net), then of two kept dice boxed over
        each other, the one the value net is surer of."""
        is_die = 1.0 - self.probs[:, 0]
        votes = vote(self.probs, self.backing, settings)
        keep = np.flatnonzero(votes >= vote_bars(self.boxes, self.probs, votes, settings))
        dedupe = (settings.dedupe_iou, settings.dedupe_inside, settings.dedupe_same_inside)
        if any(t > 0 for t in dedupe) and len(keep) > 1:
            iou = settings.dedupe_iou if settings.dedupe_iou > 0 else 1.0  # 1: never
            order = _nms(
                self.boxes[keep],
                is_die[keep],
                iou,
                inside=settings.dedupe_inside,
                labels=np.argmax(self.probs[keep, 1:], axis=1),
                same_inside=settings.dedupe_same_inside,
            )
            keep = keep[order]
        return keep

    def with_second_look(
        self,
        img: np.ndarray,
        model: DiceModel,
        settings: ReaderSettings,
        every_size: bool = False,
    ) -> _Candidates:
        """These and the second look's small candidates (`every_size`: all its
        candidates; the small ones voted on with small_heat_full), read."""
        b2, s2, small = _small_ones(img, model, settings, every_size)
        full = np.where(small, settings.small_heat_full, settings.heat_full)
        return self._with(img, b2, s2, full, model, settings)

    def with_tiny_look(
        self, img: np.ndarray, model: DiceModel, settings: ReaderSettings
    ) -> _Candidates:
        """These and the tiny look's tiny candidates (ReaderSettings.tiny_look_size), read."""
        b2, s2 = _detect_tiled(img, model, settings, settings.tiny_look_size)
        tiny = _sides(b2, img.shape, settings) < settings.tiny_px
        full = np.full(int(tiny.sum()), settings.tiny_heat_full, np.float32)
        return self._with(img, b2[tiny], s2[tiny], full, model, settings)

    def with_big_look(
        self, img: np.ndarray, model: DiceModel, settings: ReaderSettings
    ) -> _Candidates:
        """These and the big look's big candidates (ReaderSettings.big_look_size), read."""
        b2, s2, _ = _detect(img, model, settings, settings.big_look_size)
        big = _sides(b2, img.shape, settings) >= settings.big_px
        full = np.full(int(big.sum()), settings.heat_full, np.float32)
        return self._with(img, b2[big], s2[big], full, model, settings)

    def _with(
        self,
        img: np.ndarray,
        boxes: np.ndarray,
        heat: np.ndarray,
        heat_full: np.ndarray,
        model: DiceModel,
        settings: ReaderSettings,
    ) -> _Candidates:
        """These and another look's candidates (`heat_full` one per candidate), read; of
        two boxes of one die, the hotter stays."""
        if len(boxes) == 0:
            return self
        n = len(self.boxes)
        order = _nms(
            np.concatenate([self.boxes, boxes]),
            np.concatenate([self.heat, heat]),
            settings.nms_iou,
            settings.nms_centres,
        )
        old, new = order[order < n], order[order >= n] - n
        added = _Candidates.read(img, boxes[new], heat[new], heat_full[new], model, settings)
        return _Candidates(
            np.concatenate([self.boxes[old], added.boxes]),
            np.concatenate([self.heat[old], added.heat]),
            np.concatenate([self.backing[old], added.backing]),
            np.concatenate([self.probs[old], added.probs]),
            np.concatenate([self.crops[old], added.crops]),
        )
