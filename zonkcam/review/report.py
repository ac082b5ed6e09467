"""The night's report: one self-contained HTML page (no script, no network, the charts
as inline SVG drawn here: nothing to install or import on a Pi) with the score race of
each game, zonks and hot dice per player, drinks handed out and taken, each die's (or
pool's) faces with its fairness verdict, the biggest and slowest turns, and links to the
roll photos copied beside it."""

from __future__ import annotations

import html
from collections.abc import Sequence

from zonkcam.review.dice import Pool
from zonkcam.review.fairness import FACES
from zonkcam.review.night import GameReview

COLOURS = ("#e6a700", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")
"""One per player, in seating order."""
STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1, h2, h3 { font-weight: 600; } section { margin-bottom: 2.5em; }
table { border-collapse: collapse; } td, th { padding: 0.2em 0.8em; text-align: left; }
th { border-bottom: 1px solid #999; } .verdict { font-style: italic; }
svg text { font-size: 12px; fill: #333; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def line_chart(
    series: dict[str, list[tuple[int, int]]], width: int = 640, height: int = 260
) -> str:
    """Each player's total after each turn, as lines: an SVG element."""
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
    out.append(f'<text x="{left - 6}" y="{top + 10}" text-anchor="end">{y_max:,}</text>')
    out.append(f'<text x="{left - 6}" y="{height - bottom}" text-anchor="end">0</text>')
    out.append(f'<text x="{width - 8}" y="{height - 6}" text-anchor="end">turn {x_max}</text>')
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


def faces_chart(counts: Sequence[int], width: int = 320, height: int = 140) -> str:
    """A die's face counts against a fair die's (the dashed line): an SVG element."""
    n = sum(counts)
    top = max(max(counts), n / FACES, 1)
    step = (width - 20) / FACES
    scale = (height - 30) / top
    out = [f'<svg role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    for face, c in enumerate(counts, start=1):
        x = 10 + (face - 1) * step
        h = c * scale
        out.append(
            f'<rect x="{x + 4:.1f}" y="{height - 18 - h:.1f}" width="{step - 8:.1f}" '
            f'height="{h:.1f}" fill="#1f77b4"/>'
        )
        out.append(
            f'<text x="{x + step / 2:.1f}" y="{height - 4}" text-anchor="middle">{face}</text>'
        )
    fair = height - 18 - n / FACES * scale
    out.append(
        f'<line x1="10" y1="{fair:.1f}" x2="{width - 10}" y2="{fair:.1f}" stroke="#d62728" '
        'stroke-dasharray="5,4"/>'
    )
    out.append("</svg>")
    return "".join(out)


def page(
    title: str, games: Sequence[GameReview], pools: Sequence[Pool], photos: dict[int, list[str]]
) -> str:
    """The report's HTML. `photos`: per game, the roll photos' paths relative to the page."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
    ]
    for g in games:
        result = f"won by {' & '.join(g.winners)}" if g.finished and g.winners else "still in play"
        parts.append(f"<section><h2>Game {g.game_id}: {_e(g.rules_name)}, {_e(result)}</h2>")
        series = {name: [(n, totals.get(name, 0)) for n, totals in g.race] for name in g.players}
        parts += ["<h3>The score race</h3>", line_chart(series)]
        parts += ["<h3>Zonks</h3>", bar_chart(g.zonks)]
        parts += ["<h3>Hot dice</h3>", bar_chart({n: g.hot_dice.get(n, 0) for n in g.players})]
        if g.drinking:
            parts += ["<h3>Drinks taken</h3>", bar_chart(g.drinks_taken)]
            parts += ["<h3>Drinks handed out</h3>", bar_chart(g.handouts)]
        banked = [t for t in g.turns if not t.zonk]
        parts.append(_turns("The biggest turns", sorted(banked, key=lambda t: -t.points)[:5]))
        parts.append(_turns("The slowest turns", sorted(g.turns, key=lambda t: -t.seconds)[:5]))
        shots = photos.get(g.game_id, [])
        if shots:
            links = " ".join(f'<a href="{_e(p)}">{_e(p.rsplit("/", 1)[-1])}</a>' for p in shots)
            parts.append(f"<h3>Roll photos ({len(shots)})</h3><p>{links}</p>")
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


def _turns(title: str, turns: Sequence) -> str:
    if not turns:
        return ""
    rows = "".join(
        f"<tr><td>{t.number}</td><td>{_e(t.player)}</td>"
        f"<td>{'zonk' if t.zonk else f'{t.points:,}'}</td><td>{t.seconds:.0f} s</td></tr>"
        for t in turns
    )
    head = "<tr><th>turn</th><th>player</th><th>points</th><th>took</th></tr>"
    return f"<h3>{_e(title)}</h3><table>{head}{rows}</table>"
