"""The night's report: one self-contained HTML page (no script, no network, the charts
as inline SVG drawn here: nothing to install or import on a Pi), laid out in a grid that
fills a laptop's width and folds to one column on a phone. It opens with the night's
awards (:mod:`zonkcam.review.awards`: the biggest turn with its photo, the most zonks,
the comeback, first on the board, the luckiest and unluckiest die) and the night in short
(who won each game and the night, the drinks handed out, owed and marked drunk, how long
it ran); then each game that had a turn: when it was played, its score race (B's on a
table won by B's), zonks and hot dice per player, drinks, its biggest and slowest turns
and its roll photos by turn; then each die's (or pool's) faces with its fairness verdict,
for each set of tables that throw as many dice (five are never pooled with six).

The photos are the roll photos copied beside the page (``photos/``, 640 px JPEGs of about
50 KB), shown 160 px wide and loaded as they are scrolled to: a night of 500 rolls adds
no bytes to the page. A photo opens large over the page without a script (its link makes
it the page's target, and CSS draws the target over everything), with links to close it
and to the photo's file.

When a game was played is read from the times its actions were written at the table; a
game typed in all at once (piped into ``play --text``, imported) has no such times, and
the page says so rather than give the day it was typed in as the day it was played."""

from __future__ import annotations

import datetime
import html
import math
from collections.abc import Sequence

from zonkcam.record.clock import LONGEST_S
from zonkcam.review.awards import LUCK_THROWS, Award, awards
from zonkcam.review.dice import TableDice
from zonkcam.review.fairness import FACES
from zonkcam.review.night import GameReview, Summary, Turn, summary

COLOURS = ("#e6a700", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")
"""One per player, in seating order."""
THUMB = 160
"""Pixels: how wide a roll photo is shown in the page."""
STYLE = """
* { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 110em; color: #222;
  background: #f3f2ee; line-height: 1.4; padding: 0.5em clamp(0.6em, 3vw, 2.5em) 2em; }
h1 { font-size: clamp(1.4em, 4vw, 2.2em); margin: 0.4em 0 0.6em; }
h2 { font-size: 1.4em; margin: 1.4em 0 0.5em; } h3 { font-size: 1.05em; margin: 0 0 0.5em; }
h4 { margin: 0 0 0.3em; } section { margin-bottom: 1.5em; }
.grid { display: grid; gap: 1em; align-items: start;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 24em), 1fr)); }
.card { background: #fff; border-radius: 10px; padding: 0.9em 1em; min-width: 0;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.15); overflow-x: auto; }
@media (min-width: 60em) { .wide { grid-column: span 2; } }
.awards { grid-template-columns: repeat(auto-fill, minmax(min(100%, 15em), 1fr)); }
.award h3 { font-size: 0.8em; text-transform: uppercase; letter-spacing: 0.06em; color: #8a6d00; }
.award .who { font-size: 1.5em; font-weight: 700; margin: 0; overflow-wrap: anywhere; }
.award .who.nobody { font-size: 1.1em; color: #777; font-weight: 400; }
.award p { margin: 0.2em 0; } .award img { width: 100%; height: auto; border-radius: 6px; }
.note, .when { color: #555; font-size: 0.92em; } .verdict { font-style: italic; }
table { border-collapse: collapse; }
td, th { padding: 0.2em 0.8em 0.2em 0; text-align: left; white-space: nowrap; }
th { border-bottom: 1px solid #999; } td { border-bottom: 1px solid #eee; }
#summary th { border: none; vertical-align: top; white-space: nowrap; }
#summary td { border: none; white-space: normal; } #summary ul { margin: 0; padding-left: 1.2em; }
@media (max-width: 40em) { #summary th, #summary td { display: block; padding: 0; }
  #summary td { margin-bottom: 0.6em; white-space: normal; } .card { padding: 0.7em; }
  svg.race text { font-size: 21px; } }
svg { display: block; width: 100%; height: auto; max-width: 52em; }
svg text { font-size: 14px; fill: #333; } svg .tick { fill: #666; font-size: 13px; }
.legend { display: flex; flex-wrap: wrap; gap: 0.2em 1.2em; list-style: none;
  padding: 0; margin: 0.4em 0 0; }
.legend li::before { content: ""; display: inline-block; width: 0.9em; height: 0.9em;
  margin-right: 0.35em; border-radius: 2px; vertical-align: -0.1em; background: var(--c); }
.turns { display: grid; gap: 0.2em 1.2em;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 21em), 1fr)); }
.turn { padding: 0.4em 0; border-top: 1px solid #ddd; } .turn p { margin: 0 0 0.3em; }
.photo { display: inline-block; margin: 0 4px 4px 0; vertical-align: top; }
.shot img { display: block; width: 160px; height: auto; border-radius: 4px; }
.shot:target { position: fixed; inset: 0; z-index: 10; display: flex;
  align-items: center; justify-content: center; background: rgba(0, 0, 0, 0.88); }
.shot:target img { width: 96vw; height: 86vh; object-fit: contain; border-radius: 0; }
.photo .close, .photo .file { display: none; }
.shot:target ~ .close, .shot:target ~ .file { display: block; position: fixed; z-index: 11;
  color: #fff; background: rgba(0, 0, 0, 0.6); padding: 0.4em 0.8em; border-radius: 6px; }
.shot:target ~ .close { top: 0.8em; right: 0.8em; font-size: 1.3em; text-decoration: none; }
.shot:target ~ .file { bottom: 0.8em; left: 50%; transform: translateX(-50%); }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def ticks(top: float, most: int = 5) -> list[int]:
    """Round marks for an axis from 0 to `top`: steps of 1, 2 or 5 times a power of ten,
    at most `most` steps, the last mark at or past `top` (0, 2,000 ... 12,000 for
    10,550)."""
    top = max(top, 1)
    raw = top / most
    power = 10 ** math.floor(math.log10(raw))
    step = max(1, next(m * power for m in (1, 2, 5, 10) if m * power >= raw))
    return [int(step * i) for i in range(math.ceil(top / step - 1e-9) + 1)]


def line_chart(
    series: dict[str, list[tuple[int, int]]], width: int = 640, height: int = 300, unit: str = ""
) -> str:
    """Each player's total (points, or `unit`) after each turn, as lines over an axis of
    round marks, and a legend of each player's colour and final total: SVG and a list."""
    points = [p for line in series.values() for p in line]
    if not points:
        return "<p>No turns played.</p>"
    left, right, bottom, top = 86, 16, 50, 30
    x_max = max(x for x, _ in points) or 1
    xs = ticks(x_max, 8)
    ys = ticks(max(y for _, y in points), 6)
    sx = (width - left - right) / xs[-1]
    sy = (height - bottom - top) / ys[-1]
    base = height - bottom
    out = [f'<svg class="race" role="img" viewBox="0 0 {width} {height}">']
    out.append(
        f'<text class="tick" x="{left + 6}" y="{top - 12}">{_e(unit.strip() or "points")}</text>'
    )
    for y in ys:
        at = base - y * sy
        out.append(
            f'<line x1="{left}" y1="{at:.1f}" x2="{width - right}" y2="{at:.1f}" '
            f'stroke="{"#999" if y == 0 else "#e4e4e4"}"/>'
            f'<text class="tick" x="{left - 8}" y="{at + 4:.1f}" text-anchor="end">{y:,}</text>'
        )
    for x in xs:
        at = left + x * sx
        out.append(
            f'<line x1="{at:.1f}" y1="{base}" x2="{at:.1f}" y2="{base + 5}" stroke="#999"/>'
            f'<text class="tick" x="{at:.1f}" y="{base + 22}" text-anchor="middle">{x}</text>'
        )
    out.append(
        f'<text x="{width - right}" y="{height - 4}" text-anchor="end">{x_max} turns played</text>'
    )
    for i, line in enumerate(series.values()):
        colour = COLOURS[i % len(COLOURS)]
        coords = " ".join(f"{left + x * sx:.1f},{base - y * sy:.1f}" for x, y in [(0, 0), *line])
        out.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{coords}"/>'
        )
    out.append("</svg>")
    legend = "".join(
        f'<li style="--c:{COLOURS[i % len(COLOURS)]}">{_e(name)} '
        f"{(line[-1][1] if line else 0):,}{_e(unit)}</li>"
        for i, (name, line) in enumerate(series.items())
    )
    return "".join(out) + f'<ul class="legend">{legend}</ul>'


def bar_chart(values: dict[str, float], width: int = 360, unit: str = "") -> str:
    """One horizontal bar per name, its value at its end: an SVG element."""
    if not values:
        return "<p>None.</p>"
    row, label = 26, 110
    height = row * len(values) + 8
    top = max(max(values.values()), 1)
    out = [f'<svg role="img" viewBox="0 0 {width} {height}">']
    for i, (name, value) in enumerate(values.items()):
        y = 4 + i * row
        w = (width - label - 50) * value / top
        out.append(f'<text x="{label - 8}" y="{y + 17}" text-anchor="end">{_e(name)}</text>')
        out.append(
            f'<rect x="{label}" y="{y + 3}" width="{w:.1f}" height="{row - 8}" rx="3" '
            f'fill="{COLOURS[i % len(COLOURS)]}"/>'
        )
        out.append(f'<text x="{label + w + 6:.1f}" y="{y + 17}">{value:g}{_e(unit)}</text>')
    out.append("</svg>")
    return "".join(out)


def faces_chart(counts: Sequence[int], width: int = 320, height: int = 160) -> str:
    """A die's face counts (the number over each bar) against a fair die's (the dashed
    line, named in the legend): an SVG element."""
    n = sum(counts)
    fair = n / FACES
    top = max(max(counts), fair, 1)
    step = (width - 20) / FACES
    legend, numbers = 18, 14
    scale = (height - 18 - legend - numbers) / top
    out = [
        f'<svg role="img" viewBox="0 0 {width} {height}" style="max-width: {width * 1.4:.0f}px">'
    ]
    out.append(
        f'<line x1="10" y1="9" x2="34" y2="9" stroke="#d62728" stroke-dasharray="5,4"/>'
        f'<text x="40" y="13">a fair die: {fair:.1f} of each face</text>'
    )
    for face, c in enumerate(counts, start=1):
        x = 10 + (face - 1) * step
        h = c * scale
        y = height - 18 - h
        out.append(
            f'<rect x="{x + 4:.1f}" y="{y:.1f}" width="{step - 8:.1f}" '
            f'height="{h:.1f}" fill="#1f77b4"/>'
        )
        out.append(f'<text x="{x + step / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle">{c}</text>')
        out.append(
            f'<text x="{x + step / 2:.1f}" y="{height - 4}" text-anchor="middle">{face}</text>'
        )
    line = height - 18 - fair * scale
    out.append(
        f'<line x1="10" y1="{line:.1f}" x2="{width - 10}" y2="{line:.1f}" stroke="#d62728" '
        'stroke-dasharray="5,4"/>'
    )
    out.append("</svg>")
    return "".join(out)


def night_title(games: Sequence[GameReview], night: str | None = None) -> str:
    """The night named by its day (`night`, YYYY-MM-DD, else the day its first game began,
    local time, by the times kept at the table) and its tables: "The night of Saturday 5
    December 2026 at the chicago table"; games over more than a night name their first and
    last day. Games typed in all at once date nothing: their times are when they were typed
    in (or imported), not when they were played."""
    played = [g for g in games if g.turns] or games  # a game with no turn names no table
    tables = list(dict.fromkeys(g.rules_name for g in played))
    at = f" at the {_listed(tables)} table{'s' * (len(tables) > 1)}" if tables else ""
    if night:
        return f"The night of {_day(datetime.date.fromisoformat(night))}{at}"
    times = [t for g in games if g.timed for t in (g.started, g.ended) if t is not None]
    if not times:
        return f"The night's games{at}"
    first, last = (datetime.datetime.fromtimestamp(t).date() for t in (min(times), max(times)))
    if (last - first).days <= 1:  # a night goes on past midnight
        return f"The night of {_day(first)}{at}"
    return f"The games of {_day(first)} to {_day(last)}{at}"


def page(
    title: str,
    games: Sequence[GameReview],
    tables: Sequence[TableDice],
    photos: dict[int, list[tuple[int, str]]],
) -> str:
    """The report's HTML. `tables`: the night's dice, a set per number of dice thrown
    (:func:`~zonkcam.review.dice.by_table_dice`); `photos`: per game, its roll photos as
    (the roll's place in the game's log, the photo's path relative to the page)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        _awards(awards(games, tables), photos),
        _summary(games, summary(games)),
    ]
    for g in games:
        if not g.turns:
            parts.append(f'<p class="empty">{_e(_game_name(g))}: no turn played.</p>')
            continue
        parts.append(_game(g, photos.get(g.game_id, [])))
    parts.append(_dice(tables))
    parts.append("</body></html>")
    return "\n".join(parts)


def _card(title: str, body: str, wide: bool = False) -> str:
    return f'<div class="card{" wide" * wide}"><h3>{_e(title)}</h3>{body}</div>'


def _game(g: GameReview, shots: Sequence[tuple[int, str]]) -> str:
    """A game's section: when it was played, its charts and tables in a grid, its photos."""
    cards = []
    if g.by_bees:
        series = {n: [(k, b.get(n, 0)) for k, b in g.bees_race] for n in g.players}
        cards.append(_card("The race for B's", line_chart(series, unit=" B's"), wide=True))
    else:
        series = {n: [(k, totals.get(n, 0)) for k, totals in g.race] for n in g.players}
        cards.append(_card("The score race", line_chart(series), wide=True))
    cards.append(_card("Zonks", bar_chart(g.zonks)))
    cards.append(_card("Hot dice", bar_chart({n: g.hot_dice.get(n, 0) for n in g.players})))
    if g.drinking:
        owed, drunk = sum(g.drinks_owed.values()), sum(g.drinks_drunk.values())
        who = ", ".join(f"{n} {d}" for n, d in g.drinks_drunk.items() if d)
        marked = f"{drunk} of the {owed} marked drunk" + (f" ({who})" if who else "")
        cards.append(
            _card(
                "Drinks owed",
                bar_chart(g.drinks_owed) + f'<p class="note">{_e(marked)}</p>',
            )
        )
        cards.append(_card("Drinks handed out", bar_chart(g.handouts)))
    banked = [t for t in g.turns if not (t.zonk or t.sloppy)]
    cards.append(_turns("The biggest turns", sorted(banked, key=lambda t: -t.points)[:5], g.timed))
    if g.timed:
        timed_turns = [t for t in g.turns if t.seconds is not None]  # unknown: not slow
        slowest = sorted(timed_turns, key=lambda t: -t.seconds)[:5]
        cards.append(_turns("The slowest turns", slowest, timed=True))
    elif g.times_unreadable:
        cards.append(
            _card(
                "The slowest turns",
                "<p>No times kept: some of the game's times in the log are unreadable "
                "(a damaged log).</p>",
            )
        )
    else:
        cards.append(
            _card(
                "The slowest turns",
                "<p>No times kept: the game was typed in all at once (piped into play "
                "--text, or imported).</p>",
            )
        )
    return (
        f'<section id="game-{g.game_id}"><h2>{_e(_game_name(g))}, {_e(_result(g))}</h2>'
        f'<p class="when">{_e(_when(g))}</p><div class="grid">{"".join(c for c in cards if c)}'
        f"</div>{_photos(g, shots)}</section>"
    )


def _when(g: GameReview) -> str:
    """When a game was played, by the times kept at the table."""
    if g.times_unreadable:
        return "When it was played is not known: some of its times in the log are unreadable."
    if not g.timed or g.started is None or g.ended is None:
        return (
            "When it was played is not known: it was typed in all at once (piped into "
            "play --text, or imported), so its times are when it was typed in."
        )
    a, b = (datetime.datetime.fromtimestamp(t) for t in (g.started, g.ended))
    day = _day(a.date())
    return f"Played on {day}, from {a:%H:%M} to {b:%H:%M} ({_minutes(g.ended - g.started)})"


def _minutes(seconds: float) -> str:
    minutes = max(0, round(seconds / 60))
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def _awards(won: Sequence[Award], photos: dict[int, list[tuple[int, str]]]) -> str:
    """The night's awards, a card each; the biggest turn with the photo of its last roll."""
    if not won:
        return ""
    cards = []
    for award in won:
        who = (
            f'<p class="who">{_e(award.who)}</p>'
            if award.who
            else '<p class="who nobody">nobody</p>'
        )
        shot = ""
        if award.turn:
            g, t = award.turn
            mine = _turn_shots(g, t, photos.get(g.game_id, []))
            if mine:
                seq, path = mine[-1]
                shot = (
                    f'<a href="#{_photo_id(g.game_id, seq)}"><img src="{_e(path)}" '
                    f'alt="the turn\'s last roll" loading="lazy"></a>'
                    f'<p class="note">its last roll (roll {seq} of game {g.game_id})</p>'
                )
        cards.append(
            f'<article class="card award"><h3>{_e(award.title)}</h3>{who}'
            f"<p>{_e(award.text)}</p>{shot}</article>"
        )
    luck = (
        f"Luck is how often a die showed a 1 or a 5, the faces that score on their own: a "
        f"fair die shows one 1 time in 3. Only dice the camera told apart by their colour "
        f"count, each thrown {LUCK_THROWS} times or more; luck is not loading (whether a die "
        f"is loaded is at the end of the page)."
    )
    return (
        '<section id="awards"><h2>The night\'s awards</h2>'
        f'<div class="grid awards">{"".join(cards)}</div><p class="note">{_e(luck)}</p>'
        "</section>"
    )


def _dice(tables: Sequence[TableDice]) -> str:
    """Is any die loaded? Each set of tables that throw as many dice on its own."""
    parts = ['<section id="dice"><h2>Is any die loaded?</h2>']
    if not tables:
        parts.append("<p>No throws.</p>")
    elif len(tables) > 1:
        parts.append(
            '<p class="note">Each number of dice is counted on its own: dice of tables '
            "that throw five are never pooled with those of tables that throw six.</p>"
        )
    for table in tables:
        games = _listed([str(n) for n in table.games])
        parts.append(
            f"<h3>{_e(table.name[0].upper() + table.name[1:])}: "
            f"game{'s' * (len(table.games) > 1)} {_e(games)}</h3>"
        )
        cards = "".join(
            f'<div class="card"><h4>{_e(pool.name)}</h4>{faces_chart(pool.verdict.counts)}'
            f'<p class="verdict">{_e(pool.text)}</p></div>'
            for pool in table.pools
        )
        parts.append(f'<div class="grid">{cards}</div>')
    parts.append("</section>")
    return "".join(parts)


def _summary(games: Sequence[GameReview], s: Summary) -> str:
    """The night in a few lines, after the awards."""
    rows: list[tuple[str, str]] = []
    if s.night_winners:
        won = s.wins[s.night_winners[0]]
        each = " each" if len(s.night_winners) > 1 else ""
        rows.append(
            (
                "The night's winner",
                _e(
                    f"{_listed(s.night_winners, ' & ')}: {won} of the {s.finished} finished "
                    f"game{'s' * (s.finished != 1)} won{each}"
                ),
            )
        )
    else:
        rows.append(("The night's winner", "nobody yet: no game finished"))
    lines = "".join(
        f'<li><a href="#game-{g.game_id}">{_e(_game_line(g))}</a></li>'
        if g.turns
        else f"<li>{_e(_game_line(g))}</li>"
        for g in games
    )
    rows.append((f"{s.games} game{'s' * (s.games != 1)}", f"<ul>{lines}</ul>"))
    if s.biggest:
        g, t = s.biggest
        rows.append(
            (
                "The biggest turn",
                _e(f"{t.points:,} by {t.player} (their turn {t.number} in game {g.game_id})"),
            )
        )
    names, top = s.most_zonks
    rows.append(
        ("The most zonks", _e(f"{_listed(names, ' & ')}: {top}") if names else "no zonk at all")
    )
    if s.drinking:
        given = sum(s.handed_out.values())
        who = ", ".join(f"{n} {h}" for n, h in sorted(s.handed_out.items(), key=lambda x: -x[1]))
        rows.append(("Drinks handed out", _e(f"{given} ({who})")))
        rows.append(
            (
                "Drinks owed",
                _e(
                    f"{s.drinks_owed} (penalties and board images), {s.drinks_drunk} of them "
                    "marked drunk"
                ),
            )
        )
    else:
        rows.append(("Drinks handed out", "none: no drinking table"))
    rows.append(("How long it ran", _e(_span(s, games))))
    body = "".join(f"<tr><th>{_e(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<section id="summary"><h2>The night in short</h2><table>{body}</table></section>'


def _game_name(g: GameReview) -> str:
    return f"Game {g.game_id}: {g.rules_name}"


def _result(g: GameReview) -> str:
    leaders = _listed(g.leaders(), " & ")
    if g.finished:
        return f"won by {leaders}" if leaders else "finished"
    return f"still in play ({leaders} {'lead' if len(g.leaders()) > 1 else 'leads'})"


def _game_line(g: GameReview) -> str:
    """A game's result in the summary: "Game 1 (chicago): Ann won with 10,350; Bob 8,200"."""
    name = f"Game {g.game_id} ({g.rules_name})"
    if not g.turns:
        return f"{name}, {', '.join(g.players)}: no turn played"
    leaders = g.leaders()
    if not leaders:  # every player left
        return f"{name}: over, with nobody left to win"
    others = sorted(
        (n for n in g.players if n not in leaders),
        key=lambda n: (-g.bees.get(n, 0), -g.scores.get(n, 0)),
    )
    rest = "; " + ", ".join(f"{n} {g.standing(n)}" for n in others) if others else ""
    # names are values here, never part of a format string (a name may hold braces)
    verb = "won" if g.finished else ("lead" if len(leaders) > 1 else "leads")
    top = f"{_listed(leaders, ' & ')} {verb} with {g.standing(leaders[0])}{rest}"
    return f"{name}: {top}" if g.finished else f"{name}, still in play: {top}"


def _span(s: Summary, games: Sequence[GameReview]) -> str:
    typed = [g.game_id for g in games if not g.timed and not g.times_unreadable and g.turns]
    damaged = [g.game_id for g in games if g.times_unreadable and g.turns]
    notes = [
        f"game{'s' * (len(ids) > 1)} {_listed(list(map(str, ids)))}: {why}"
        for ids, why in ((typed, "typed in all at once"), (damaged, "times unreadable"))
        if ids
    ]
    note = f" (no times kept for {'; '.join(notes)})" if notes else ""
    jumped = [g.game_id for g in games if g.jumps and g.timed]
    if jumped:
        note += (
            f" (the clock jumped in game{'s' * (len(jumped) > 1)} "
            f"{_listed(list(map(str, jumped)))}: read by the clock after its last jump, "
            "the time across a jump left out)"
        )
    if s.started is None or s.ended is None:
        if damaged and not typed:
            return "no times kept: the log's times are unreadable (a damaged log)"
        if damaged:
            return f"no times kept{note}"
        return "no times kept: the games were typed in all at once (piped or imported)"
    a, b = (datetime.datetime.fromtimestamp(t) for t in (s.started, s.ended))
    took = _minutes(s.ended - s.started)
    shown = note if any(g.timed for g in games) else ""
    return f"from {a:%H:%M} to {b:%H:%M}: {took}{shown}"


def _photo_id(game_id: int, seq: int) -> str:
    return f"photo-{game_id}-{seq}"


def _turn_shots(
    g: GameReview, turn: Turn, shots: Sequence[tuple[int, str]]
) -> list[tuple[int, str]]:
    """The photos of a turn's rolls, in order."""
    i = g.turns.index(turn)
    after = g.turns[i - 1].last_seq if i else 0
    return [(seq, path) for seq, path in sorted(shots) if after < seq <= turn.last_seq]


def _photos(g: GameReview, shots: Sequence[tuple[int, str]]) -> str:
    """The game's roll photos by turn, each opening large over the page (its link makes it
    the page's target), with links to close it and to its file."""
    if not shots:
        return ""
    by_turn: dict[int, list[tuple[int, str]]] = {}
    for seq, path in sorted(shots):
        at = next((i for i, t in enumerate(g.turns) if seq <= t.last_seq), len(g.turns))
        by_turn.setdefault(at, []).append((seq, path))
    out = [f'<h3 class="photos">Roll photos by turn ({len(shots)})</h3><div class="turns">']
    for i, group in sorted(by_turn.items()):
        if i < len(g.turns):
            t = g.turns[i]
            what = f"{t.player}'s turn {t.number}: {t.result}"
        else:
            what = "the turn in play" if not g.finished else "after the last turn"
        thumbs = "".join(
            f'<span class="photo"><a class="shot" id="{_photo_id(g.game_id, seq)}" '
            f'href="#{_photo_id(g.game_id, seq)}"><img src="{_e(p)}" alt="roll {seq}" '
            f'title="roll {seq}: open it large" width="{THUMB}" loading="lazy"></a>'
            f'<a class="close" href="#_" title="close">&times;</a>'
            f'<a class="file" href="{_e(p)}">the photo\'s file</a></span>'
            for seq, p in group
        )
        out.append(f'<div class="turn"><p>{_e(what)}</p><div>{thumbs}</div></div>')
    return "".join(out) + "</div>"


def _turns(title: str, turns: Sequence[Turn], timed: bool) -> str:
    if not turns:
        return ""
    rows = "".join(
        f"<tr><td>{_e(t.player)}</td><td>{t.number}</td><td>{_e(t.result)}</td>"
        + (f"<td>{_took(t.seconds)}</td>" if timed else "")
        + "</tr>"
        for t in turns
    )
    took = "<th>took</th>" if timed else ""
    head = f"<tr><th>player</th><th>their turn</th><th>points</th>{took}</tr>"
    return _card(title, f"<table>{head}{rows}</table>")


def _took(seconds: float | None) -> str:
    """How long a turn took; "unknown" where the clock jumped in it (or past belief)."""
    if seconds is None or not 0 <= seconds <= LONGEST_S:
        return "unknown"
    s = round(seconds)
    return f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"


def _listed(items: Sequence[str], last: str = " and ") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + last + items[-1]


def _day(d: datetime.date) -> str:
    return f"{d:%A} {d.day} {d:%B %Y}"
