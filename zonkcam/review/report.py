"""The night's report: one self-contained HTML page (no script, no network, the charts
as inline SVG drawn here: nothing to install or import on a Pi). It opens with the
night's summary (who won each game and the night, the biggest turn, the most zonks, the
drinks handed out, how long it ran), then each game that had a turn: its score race
(B's on a table won by B's), zonks and hot dice per player, drinks handed out and taken,
its biggest and slowest turns and its roll photos as thumbnails by turn; then each die's
(or pool's) faces with its fairness verdict.

The thumbnails are the roll photos copied beside the page (``photos/``, 640 px JPEGs of
about 50 KB), shown 96 px wide and loaded as they are scrolled to: a night of 500 rolls
adds no bytes to the page, and each links to its full photo."""

from __future__ import annotations

import datetime
import html
from collections.abc import Sequence

from zonkcam.record.clock import LONGEST_S
from zonkcam.review.dice import Pool
from zonkcam.review.fairness import FACES
from zonkcam.review.night import GameReview, Summary, Turn, summary

COLOURS = ("#e6a700", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")
"""One per player, in seating order."""
STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1, h2, h3 { font-weight: 600; } section { margin-bottom: 2.5em; }
table { border-collapse: collapse; } td, th { padding: 0.2em 0.8em; text-align: left; }
th { border-bottom: 1px solid #999; } .verdict { font-style: italic; }
svg text { font-size: 12px; fill: #333; }
#summary th { border: none; vertical-align: top; white-space: nowrap; }
#summary ul { margin: 0; padding-left: 1.2em; }
.turn { display: flex; align-items: flex-start; margin: 0.3em 0; }
.turn p { margin: 0.2em 0; flex: 0 0 14em; } .turn div { flex: 1; }
.turn img { width: 96px; height: auto; margin: 0 3px 3px 0; border: 1px solid #ccc; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def line_chart(
    series: dict[str, list[tuple[int, int]]], width: int = 640, height: int = 260, unit: str = ""
) -> str:
    """Each player's total (points, or `unit`) after each turn, as lines: an SVG element."""
    points = [p for line in series.values() for p in line]
    if not points:
        return "<p>No turns played.</p>"
    left, bottom, top = 56, 24, 12
    x_max = max(x for x, _ in points) or 1
    y_max = max(max(y for _, y in points), 1)
    sx = (width - left - 12) / x_max
    sy = (height - bottom - top) / y_max
    out = [f'<svg role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    out.append(
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 8}" y2="{height - bottom}" '
        'stroke="#999"/>'
    )
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#999"/>')
    out.append(f'<text x="{left - 6}" y="{top + 10}" text-anchor="end">{y_max:,}{_e(unit)}</text>')
    out.append(f'<text x="{left - 6}" y="{height - bottom}" text-anchor="end">0</text>')
    out.append(
        f'<text x="{width - 8}" y="{height - 6}" text-anchor="end">{x_max} turns played</text>'
    )
    for i, (name, line) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        coords = " ".join(
            f"{left + x * sx:.1f},{height - bottom - y * sy:.1f}" for x, y in [(0, 0), *line]
        )
        out.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{coords}"/>'
        )
        out.append(
            f'<text x="{left + 8}" y="{top + 14 + 15 * i}" style="fill:{colour}">{_e(name)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def bar_chart(values: dict[str, float], width: int = 640, unit: str = "") -> str:
    """One horizontal bar per name: an SVG element."""
    if not values:
        return "<p>None.</p>"
    row, label = 22, 150
    height = row * len(values) + 8
    top = max(max(values.values()), 1)
    out = [f'<svg role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    for i, (name, value) in enumerate(values.items()):
        y = 4 + i * row
        w = (width - label - 60) * value / top
        out.append(f'<text x="{label - 6}" y="{y + 15}" text-anchor="end">{_e(name)}</text>')
        out.append(
            f'<rect x="{label}" y="{y + 2}" width="{w:.1f}" height="{row - 6}" '
            f'fill="{COLOURS[i % len(COLOURS)]}"/>'
        )
        out.append(f'<text x="{label + w + 6:.1f}" y="{y + 15}">{value:g}{_e(unit)}</text>')
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
    out = [f'<svg role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
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
    local time) and its tables: "The night of Saturday 5 December 2026 at the chicago
    table"; games over more than a night name their first and last day."""
    played = [g for g in games if g.turns] or games  # a game with no turn names no table
    tables = list(dict.fromkeys(g.rules_name for g in played))
    at = f" at the {_listed(tables)} table{'s' * (len(tables) > 1)}" if tables else ""
    if night:
        return f"The night of {_day(datetime.date.fromisoformat(night))}{at}"
    times = [t for g in games for t in (g.started, g.ended) if t is not None]
    if not times:
        return f"The night's games{at}"
    first, last = (datetime.datetime.fromtimestamp(t).date() for t in (min(times), max(times)))
    if (last - first).days <= 1:  # a night goes on past midnight
        return f"The night of {_day(first)}{at}"
    return f"The games of {_day(first)} to {_day(last)}{at}"


def page(
    title: str,
    games: Sequence[GameReview],
    pools: Sequence[Pool],
    photos: dict[int, list[tuple[int, str]]],
) -> str:
    """The report's HTML. `photos`: per game, its roll photos as (the roll's place in the
    game's log, the photo's path relative to the page)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        _summary(games, summary(games)),
    ]
    for g in games:
        if not g.turns:
            parts.append(f'<p class="empty">{_e(_game_name(g))}: no turn played.</p>')
            continue
        parts.append(
            f'<section id="game-{g.game_id}"><h2>{_e(_game_name(g))}, {_e(_result(g))}</h2>'
        )
        if g.by_bees:
            series = {n: [(k, b.get(n, 0)) for k, b in g.bees_race] for n in g.players}
            parts += ["<h3>The race for B's</h3>", line_chart(series, unit=" B's")]
        else:
            series = {n: [(k, totals.get(n, 0)) for k, totals in g.race] for n in g.players}
            parts += ["<h3>The score race</h3>", line_chart(series)]
        parts += ["<h3>Zonks</h3>", bar_chart(g.zonks)]
        parts += ["<h3>Hot dice</h3>", bar_chart({n: g.hot_dice.get(n, 0) for n in g.players})]
        if g.drinking:
            parts += ["<h3>Drinks taken</h3>", bar_chart(g.drinks_taken)]
            parts += ["<h3>Drinks handed out</h3>", bar_chart(g.handouts)]
        banked = [t for t in g.turns if not (t.zonk or t.sloppy)]
        parts.append(
            _turns("The biggest turns", sorted(banked, key=lambda t: -t.points)[:5], g.timed)
        )
        if g.timed:
            timed_turns = [t for t in g.turns if t.seconds is not None]  # unknown: not slow
            slowest = sorted(timed_turns, key=lambda t: -t.seconds)[:5]
            parts.append(_turns("The slowest turns", slowest, timed=True))
        elif g.times_unreadable:
            parts.append(
                "<h3>The slowest turns</h3><p>No times kept: some of the game's times in "
                "the log are unreadable (a damaged log).</p>"
            )
        else:
            parts.append(
                "<h3>The slowest turns</h3><p>No times kept: the game was typed in all at "
                "once (piped into play --text, or imported).</p>"
            )
        parts.append(_photos(g, photos.get(g.game_id, [])))
        parts.append("</section>")
    parts.append("<section><h2>Is any die loaded?</h2>")
    if not pools:
        parts.append("<p>No throws.</p>")
    for pool in pools:
        parts += [
            f"<h3>{_e(pool.name)}</h3>",
            faces_chart(pool.verdict.counts),
            f'<p class="verdict">{_e(pool.text)}</p>',
        ]
    parts.append("</section></body></html>")
    return "\n".join(parts)


def _summary(games: Sequence[GameReview], s: Summary) -> str:
    """The night in a few lines: the first thing on the page."""
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
    lines = "".join(f"<li>{_e(_game_line(g))}</li>" for g in games)
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
        rows.append(
            (
                "Drinks handed out",
                _e(f"{given} ({who}); {s.drinks_taken} drink{'s' * (s.drinks_taken != 1)} taken"),
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
    minutes = max(0, round((s.ended - s.started) / 60))
    took = f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"
    shown = note if any(g.timed for g in games) else ""
    return f"from {a:%H:%M} to {b:%H:%M}: {took}{shown}"


def _photos(g: GameReview, shots: Sequence[tuple[int, str]]) -> str:
    """The game's roll photos as thumbnails, by turn (each linking to its photo)."""
    if not shots:
        return ""
    by_turn: dict[int, list[tuple[int, str]]] = {}
    for seq, path in sorted(shots):
        at = next((i for i, t in enumerate(g.turns) if seq <= t.last_seq), len(g.turns))
        by_turn.setdefault(at, []).append((seq, path))
    out = [f"<h3>Roll photos by turn ({len(shots)})</h3>"]
    for i, group in sorted(by_turn.items()):
        if i < len(g.turns):
            t = g.turns[i]
            what = f"{t.player}'s turn {t.number}: {t.result}"
        else:
            what = "the turn in play" if not g.finished else "after the last turn"
        thumbs = "".join(
            f'<a href="{_e(p)}"><img src="{_e(p)}" alt="roll {seq}" title="roll {seq}" '
            'width="96" loading="lazy"></a>'
            for seq, p in group
        )
        out.append(f'<div class="turn"><p>{_e(what)}</p><div>{thumbs}</div></div>')
    return "".join(out)


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
    return f"<h3>{_e(title)}</h3><table>{head}{rows}</table>"


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
