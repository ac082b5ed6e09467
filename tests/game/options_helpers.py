"""What a test asks of a state's options: that they are what trying each action says."""

from __future__ import annotations

import itertools

from zonkcam.game import Die
from zonkcam.game import actions as A
from zonkcam.game.engine import allowed, apply


def check_options(state):
    """The options ``state`` carries are exactly what trying each action says."""
    o = state.options
    assert [n for n in range(1, 7) if allowed(state, A.Roll((Die(6),) * n))] == (
        [o.roll] if o.roll else []
    )
    values = sorted(d.value for d in state.turn.roll or ())
    sub = {c for r in range(1, len(values) + 1) for c in itertools.combinations(values, r)}
    assert {c for c in sub if allowed(state, A.Keep(c))} == {k.dice for k in o.keeps}
    assert len(o.keeps) == len(o.dice_after)
    for keep in o.keeps:
        assert o.keep(reversed(keep.dice)) is keep
        assert apply(state, A.Keep(keep.dice)).options.roll == o.roll_after(keep)
    assert o.keep((7,)) is None
    assert o.bank == allowed(state, A.Bank())
    assert o.go_for_1000 == allowed(state, A.GoFor1000())
    assert o.piggyback == allowed(state, A.Piggyback())
    assert o.pair == allowed(state, A.Reroll()) == allowed(state, A.Pass())
