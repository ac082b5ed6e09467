"""Game flow from the table: which table reports become which table actions."""

from __future__ import annotations

from zonkcam.app.flow import AskValues, Question, TableFlow, dice_of, roll_of
from zonkcam.game import PRESETS, Die, Game, engine, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.table.observe import TableEvent, TableReport
from zonkcam.table.tracking import Change
from zonkcam.table.zones import TableDie
from zonkcam.vision import Reading


def die(value, zone="rolling", color="white", touching=(), cocked=False, x=100.0, unread=False):
    read = Reading(Die(value, color), 0.0 if unread else 0.99, (0, 0, 10, 10))
    return TableDie(read, (x, 100.0), zone, touching, cocked, unread=unread)


def settled(dice, change=Change.ROLL, keep=(), unread=0):
    return TableReport(
        TableEvent.SETTLED, 1, 0.0, tuple(dice), change, keep=tuple(keep), unread=unread
    )


def game(rules="classic-10000", *actions):
    return Game(PRESETS[rules], [A.Players(("Ann", "Bob")), *actions])


def test_a_throw_is_a_roll_and_a_slide_is_a_keep():
    g, flow = game(), TableFlow()
    out = flow.on_report(
        settled([die(v, x=20 * i) for i, v in enumerate([1, 5, 2, 3, 4])]), g.state
    )
    assert out == [A.Roll(parse_dice([1, 5, 2, 3, 4]))]
    g.play(out[0])
    moved = [die(1, "keep"), die(2), die(3), die(4), die(5)]
    assert flow.on_report(settled(moved, Change.KEEP, keep=[die(1)]), g.state) == [A.Keep((1,))]


def test_the_keep_is_the_dice_the_watcher_saw_move_to_the_strip():
    g, flow = game(), TableFlow()
    for action in (
        A.Roll(parse_dice([1, 2, 2, 3, 6])),
        A.Keep((1,)),
        A.Roll(parse_dice([4, 3, 1, 6])),
    ):
        g.play(action)
    # the strip holds two 1s, one kept before: the keep is the one that moved
    now = [die(1, "keep", x=10), die(1, "keep", x=30), die(4, x=40), die(3, x=60), die(6, x=200)]
    assert flow.on_report(settled(now, Change.KEEP, keep=[die(1, x=150)]), g.state) == [
        A.Keep((1,))
    ]


def test_a_keep_and_a_throw_at_once_play_both():
    g, flow = game(), TableFlow()
    g.play(A.Roll(parse_dice([1, 5, 2, 3, 4])))
    now = [die(1, "keep", x=10), die(5, "keep", x=30), die(6, x=50), die(6, x=90), die(2, x=130)]
    out = flow.on_report(settled(now, Change.ROLL, keep=[die(1), die(5)]), g.state)
    assert out == [A.Keep((1, 5)), A.Roll(parse_dice([6, 6, 2]))]
    # a keep the rules refuse is no keep: the throw is a question
    (q,) = flow.on_report(settled(now, Change.ROLL, keep=[die(2)]), g.state)
    assert isinstance(q, Question) and "keep aside" in q.text


def test_a_keep_and_a_throw_at_once_are_each_applied_once_by_the_game(tmp_path, monkeypatch):
    applied = []
    step = engine.step

    def counted(state, action):
        applied.append(action)
        step(state, action)

    monkeypatch.setattr(engine, "step", counted)
    flow = TableFlow()
    with EventLog(tmp_path / "games.sqlite3") as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        logged.play(A.Roll(parse_dice([1, 5, 2, 3, 4])))
        applied.clear()
        now = [die(1, "keep", x=10), die(5, "keep", x=30), die(6, x=50), die(6, x=90), die(2)]
        out = flow.on_report(settled(now, Change.ROLL, keep=[die(5), die(1)]), logged.state)
        assert out == [A.Keep((1, 5)), A.Roll(parse_dice([6, 6, 2]))]
        assert applied == []  # the flow asks the state's options; it tries nothing
        for action in out:
            logged.play(action)
        assert applied == out  # each once, by the game that records it
        # (6 6 2 zonks: Bob's turn) every die kept (hot dice) and all five thrown again
        logged.play(A.Roll(parse_dice([1, 1, 1, 5, 5])))
        applied.clear()
        kept = [die(v, "keep", x=10 * i) for i, v in enumerate([1, 1, 1, 5, 5])]
        thrown = [die(v, x=100 + 30 * i) for i, v in enumerate([2, 3, 4, 6, 6])]
        out = flow.on_report(settled(kept + thrown, Change.ROLL, keep=kept), logged.state)
        assert out == [A.Keep((1, 1, 1, 5, 5)), A.Roll(parse_dice([2, 3, 4, 6, 6]))]
        assert applied == []
        keep, q = flow.on_report(settled(kept + thrown[:4], Change.ROLL, keep=kept), logged.state)
        assert keep == A.Keep((1, 1, 1, 5, 5)) and isinstance(q, Question)
        assert "should have thrown 5 dice but I see 4" in q.text


def test_a_moved_die_and_unread_dice_are_questions():
    g, flow = game(), TableFlow()
    (q,) = flow.on_report(settled([die(v) for v in (1, 2, 3, 4, 5)], Change.MOVED), g.state)
    assert isinstance(q, Question) and "moved, not thrown" in q.text
    unread = [die(v) for v in (1, 2, 3, 4)] + [die(1, unread=True)]
    (q,) = flow.on_report(settled(unread, unread=1), g.state)
    assert isinstance(q, AskValues) and q.unread == 1 and "cannot read 1 die" in q.text
    assert "type its value" in q.text  # asked, never guessed: no roll is played
    kept = [die(1, "keep"), die(2), die(3), die(4), die(5)]
    g.play(A.Roll(parse_dice([1, 2, 3, 4, 5])))
    (q,) = flow.on_report(
        settled(kept, Change.KEEP, keep=[die(1, unread=True)]), g.state
    )  # the die set aside was the one never read: its value is not guessed
    assert isinstance(q, Question) and "never read" in q.text
    for change in (Change.START, Change.PICKUP, Change.CLEAR, Change.READ):
        assert flow.on_report(settled([die(1)], change), g.state) == []


def test_wrong_count_off_mat_and_cocked_are_questions_or_sloppy():
    g, flow = game(), TableFlow()
    (q,) = flow.on_report(settled([die(1), die(2), die(3), die(4)]), g.state)
    assert isinstance(q, Question) and "should have thrown 5 dice but I see 4" in q.text
    (q,) = flow.on_report(settled([die(1), die(2), die(3), die(4), die(6, "off")]), g.state)
    assert isinstance(q, Question) and "off the mat" in q.text
    (q,) = flow.on_report(settled([die(1), die(2), die(3), die(4), die(6, cocked=True)]), g.state)
    assert isinstance(q, Question) and "cocked" in q.text
    drinking = game("drinking")
    assert flow.on_report(
        settled([die(1), die(2), die(3), die(4), die(6, "off")]), drinking.state
    ) == [A.Penalty("sloppy")]


def test_scoring_dice_on_board_images_pass_drinks():
    g, flow = game("drinking"), TableFlow()
    out = flow.on_report(
        settled(
            [
                die(1, touching=(A.Landing.LEFT,)),
                die(2, touching=(A.Landing.RIGHT,)),
                die(3),
                die(4),
                die(6, touching=(A.Landing.CHOOSE,)),
            ]
        ),
        g.state,
    )
    assert out == [A.Roll(parse_dice([1, 2, 3, 4, 6])), A.Land("left")]  # 2 and 6 score nothing
    out = flow.on_report(
        settled([die(5, touching=(A.Landing.CHOOSE,)), die(2), die(3), die(4), die(6)]), g.state
    )
    assert isinstance(out[-1], Question) and "who drinks" in out[-1].text


def test_the_pair_throw_is_a_reroll():
    rules = PRESETS["classic-10000"]
    g = Game(
        rules,
        [
            A.Players(("Ann",)),
            A.Roll(parse_dice([1, 1, 1, 2, 3])),
            A.Keep((1, 1, 1)),
            A.Roll(parse_dice([4, 4])),
        ],
    )
    out = TableFlow().on_report(settled([die(3), die(4, x=150)]), g.state)
    assert out == [A.Reroll(), A.Roll(parse_dice([3, 4]))]


def test_detroit_colours_only_when_they_can_be_right():
    ok = [
        die(2, color="white"),
        die(2, color="white"),
        die(3, color="red"),
        die(3, color="red"),
        die(4, color="green"),
        die(4, color="green"),
    ]
    assert dice_of(ok, detroit=True) == parse_dice(["2w", "2w", "3r", "3r", "4g", "4g"])
    misread = [die(3, color="white"), *ok[:2], *ok[3:]]
    assert all(d.color is None for d in dice_of(misread, detroit=True))
    assert all(d.color is None for d in dice_of(ok, detroit=False))


def test_a_roll_keeps_the_colours_read_where_its_dice_carry_none():
    read = [die(2, color="red"), die(5, color="white"), die(5, color="blue")]
    plain = roll_of(read, detroit=False)
    assert plain.dice == parse_dice([2, 5, 5]) and plain.seen == ("red", "white", "blue")
    assert A.action_to_json(plain) == {"roll": [2, 5, 5], "seen": ["red", "white", "blue"]}
    assert A.action_from_json(A.action_to_json(plain)).seen == plain.seen
    # detroit's dice carry their colours; misread ones do not, and keep them beside
    colours = ["white", "white", "red", "red", "green", "green"]
    pairs = [die(v, color=c) for v, c in zip([1, 1, 2, 2, 3, 3], colours, strict=True)]
    assert roll_of(pairs, detroit=True).seen == ()
    three_red = [die(1, color="red"), *pairs[1:]]
    assert roll_of(three_red, detroit=True).seen[:3] == ("red", "white", "red")
    # the flow throws such rolls, and they play and compare as the dice alone
    g, flow = game(), TableFlow()
    thrown = [die(v, x=20 * i) for i, v in enumerate([1, 5, 2, 3, 4])]
    (roll,) = flow.on_report(settled(thrown), g.state)
    assert roll.seen == ("white",) * 5 and roll == A.Roll(parse_dice([1, 5, 2, 3, 4]))


def test_buttons_reach_go_for_1000_and_piggyback():
    from zonkcam.controls import ROLL, SELECT, action_for, decide_choices  # noqa: F401
    from zonkcam.display.view import view_for

    g = game("all-johnnys", A.Roll(parse_dice([1, 2, 3, 4, 6, 6])))
    choices = decide_choices(g.state)
    assert choices[-1] == A.GoFor1000() and all(isinstance(c, A.Keep) for c in choices[:-1])
    last = len(choices) - 1
    assert action_for(ROLL, g.state, selected_keep=last) == A.GoFor1000()
    view = view_for(g.state, selected_keep=last)
    assert view.keeps[-1].selected and "GO FOR 1000" in view.keeps[-1].combos[0]
    chicago = game("chicago", A.Roll(parse_dice([5, 5, 5, 2, 3])), A.Bank())
    assert chicago.state.offer is not None
    assert action_for(ROLL, chicago.state) == A.Piggyback()
    assert "ROLL to piggyback 500" in view_for(chicago.state).prompt
