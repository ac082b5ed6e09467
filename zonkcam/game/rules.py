"""Rule sets as data: the five preset tables of docs/rules.md and custom tables from TOML.

A :class:`RuleSet` is a frozen value; every rule docs/rules.md names is a field.
Custom tables are TOML files; ``base = "classic-10000"`` starts from a preset and
the other keys override it (see ``zonkcam rules show --toml NAME`` for a full example).
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from zonkcam.fileio import open_to_read
from zonkcam.game import sizes
from zonkcam.game.errors import RulesError
from zonkcam.game.names import MAX_TABLE_NAME, escaped, name_problem, quoted

MAX_NUMBER = 1_000_000_000
"""The largest number a rule takes (points, targets, turns)."""
MAX_RULES_FILE = 1_000_000
"""Bytes in a rules file (a whole table is about 1,000)."""


class End(StrEnum):
    """How a game ends (RuleSet.end)."""

    FINAL_ROUND = "final-round"
    """Reaching the target gives every other player one more turn."""
    INSTANT = "instant"
    """The game ends when a player reaches the target."""
    TURNS = "turns"
    """After RuleSet.turns turns each."""


class HotDice(StrEnum):
    """After setting every die aside (RuleSet.hot_dice)."""

    MAY = "may"
    """Bank, or roll all the dice again."""
    MUST = "must"
    """Roll all the dice again."""


class WinnerBy(StrEnum):
    """Who wins (RuleSet.winner_by)."""

    POINTS = "points"
    BEES = "bees"
    """Most B's, ties broken by points."""


CHOICES: dict[str, type[StrEnum]] = {"End": End, "HotDice": HotDice, "WinnerBy": WinnerBy}
"""The rule options that are a choice of words, by their field types."""


@dataclass(frozen=True)
class Straight:
    """A run of faces that scores only when all of the table's dice are rolled."""

    faces: tuple[int, ...]
    points: int

    @property
    def label(self) -> str:
        return "-".join(map(str, self.faces))


@dataclass(frozen=True)
class Points:
    """What each combination is worth; 0 switches a combination off."""

    single_one: int = 100
    single_five: int = 50
    three_ones: int = 1000
    three_of_a_kind: int = 100
    """Three of a kind of face F (2-6) scores F times this."""
    extra_die: int = 0
    """Each die beyond three of a kind (four or more of a kind); 0 = a fourth die scores
    only as a single 1 or 5, and six of a kind is two triples."""
    extra_die_doubles: bool = False
    """Each die beyond three of a kind doubles it instead (four 2s = 400, five 2s = 800)."""
    six_of_a_kind: int = 0
    """Six of a kind of face F (2-6) with all dice rolled scores F times this ("megas")."""
    six_ones: int = 0
    full_house: int = 0
    """Three of a kind and a pair of another face, all dice rolled."""
    straights: tuple[Straight, ...] = ()
    colour_pairs: int = 0
    """Detroit: every colour pair shows one number on both its dice, all dice rolled."""
    three_pairs: int = 0
    """Six dice rolled showing three pairs (four of a kind and a pair, or six of a kind,
    count as three pairs)."""
    nothing: int = 0
    """All of the table's dice rolled and nothing scores: worth this instead of a zonk, and
    every die counts as set aside (hot dice)."""


@dataclass(frozen=True)
class DrinkRules:
    """The drinking table's extras; all off by default."""

    penalties: bool = False
    """Spaced (lose the next turn, drink) and sloppy (turn ends, no points, drink)."""
    board_images: bool = False
    """A scoring die touching a printed die image passes a drink: left/right/choose/social."""
    barrier_handouts: bool = False
    """Each 1,000 barrier crossed: hand out as many drinks as there are players."""
    rule_turn_over: int = 0
    """Make a drinking rule for a turn scoring more than this (0 = off)."""
    rule_first_to: tuple[int, ...] = ()
    """Make a rule for being the first to reach each of these totals."""
    rule_exact: tuple[int, ...] = ()
    """Make a rule when a game total equals one of these exactly."""
    zonk_names: bool = False
    """Players get zonk names chosen by someone else; only zonk names are shown."""


@dataclass(frozen=True)
class RuleSet:
    """Everything a table decides about Zonk."""

    name: str
    dice: int = 5
    target: int = 10_000
    end: End = End.FINAL_ROUND
    turns: int = 0
    winner_by: WinnerBy = WinnerBy.POINTS
    entry_minimum: int = 0
    """Turn total needed for a player's first bank (getting on the board)."""
    bank_minimum: int = 0
    """No bank with fewer turn points than this."""
    hot_dice: HotDice = HotDice.MAY
    bank_after_keep: bool = True
    """False (drinking): once dice are set aside the player must roll before banking."""
    two_dice_pair_reroll: bool = False
    piggyback: bool = False
    go_for_1000: int = 0
    """Points for completing 1-2-3-4-5-6 with one die after the first roll (0 = off)."""
    straight_completion: int = 0
    """Points for completing 1-2-3-4-5-6 across rolls within a cycle (0 = off)."""
    carry_over_extras: bool = False
    """A set-aside three of a kind makes later dice of its face worth `extra_die` each."""
    bees: bool = False
    """+1 B for each 1,000 barrier the game total crosses on a bank."""
    newbie: bool = False
    """No scoring dice on the first roll of a turn: +1 B, counts as a zonk."""
    frames: bool = False
    """Every three zonks close a frame; +1 B on the third if a barrier was crossed in it."""
    three_zonk_penalty: int = 0
    """A player's third zonk in a row costs this many points off the game total (0 = off)."""
    points: Points = field(default_factory=Points)
    drinking: DrinkRules = field(default_factory=DrinkRules)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # words given for a choice become its member
            choice = CHOICES.get(str(f.type))
            value = getattr(self, f.name)
            if choice is not None and not isinstance(value, choice):
                if value not in set(choice):
                    words = ", ".join(repr(str(c)) for c in choice)
                    raise RulesError(f"{f.name} must be one of {words}, not {value!r}")
                object.__setattr__(self, f.name, choice(value))
        _validate(self)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data.update({k: str(v) for k, v in data.items() if isinstance(v, StrEnum)})
        data["points"]["straights"] = [
            {"faces": "".join(map(str, s.faces)), "points": s.points} for s in self.points.straights
        ]
        data["drinking"] = {
            k: list(v) if isinstance(v, tuple) else v for k, v in data["drinking"].items()
        }
        return data


def _validate(r: RuleSet) -> None:
    def need(ok: bool, message: str) -> None:
        if not ok:
            raise RulesError(message)

    problem = name_problem(r.name, "the table's name", MAX_TABLE_NAME)
    need(problem is None, problem or "")
    need(2 <= r.dice <= 6, f"dice must be 2 to 6, not {r.dice}")
    need(r.end is End.TURNS or r.target > 0, "target must be above 0")
    need(r.end is not End.TURNS or r.turns > 0, "end = 'turns' needs turns above 0")
    need(r.bees or r.winner_by is not WinnerBy.BEES, "winner_by = 'bees' needs bees = true")
    need(r.bees or not (r.newbie or r.frames), "newbie and frames give B's: they need bees = true")
    need(
        not r.carry_over_extras or r.points.extra_die > 0,
        "carry_over_extras needs points.extra_die above 0",
    )
    need(
        not (r.points.extra_die_doubles and r.points.extra_die),
        "points.extra_die_doubles replaces points.extra_die: set extra_die = 0",
    )
    need(r.dice == 6 or not r.points.three_pairs, "three_pairs needs dice = 6")
    need(
        not (r.points.nothing and r.newbie),
        "points.nothing and newbie both claim a roll where nothing scores: use one",
    )
    need(
        r.dice == 6 or not (r.go_for_1000 or r.straight_completion),
        "go_for_1000 and straight_completion need dice = 6",
    )
    need(r.dice == 6 or not r.points.colour_pairs, "colour_pairs needs dice = 6")
    seen: set[tuple[int, ...]] = set()
    for s in r.points.straights:
        label = s.label if len(s.faces) <= 6 else s.label[:11] + "..."
        need(len(s.faces) <= r.dice, f"straight {label} needs more dice than the table has")
        need(
            len(set(s.faces)) == len(s.faces) and all(1 <= f <= 6 for f in s.faces),
            f"straight faces must be different faces 1-6, not {label}",
        )
        need(
            0 < s.points <= MAX_NUMBER,
            f"straight {label} must score 1 to {MAX_NUMBER:,} "
            f"points, not {quoted(s.points)} (leave it out to switch it off)",
        )
        need(tuple(sorted(s.faces)) not in seen, f"straight {label} is listed twice")
        seen.add(tuple(sorted(s.faces)))
    need(
        sizes.scores_at_all(r),
        f"nothing ever scores at this table: no combination its {r.dice} dice can roll has "
        "points (give one some, e.g. points.single_one = 100)",
    )
    problem = sizes.too_large(r)
    need(problem is None, problem or "")


# ---------------------------------------------------------------------------------------------
# The presets (docs/rules.md)


def _straight(faces: str, points: int) -> Straight:
    return Straight(tuple(int(c) for c in faces), points)


PRESET_NAMES = ("classic-10000", "all-johnnys", "chicago", "detroit", "drinking")
TABLES = Path(__file__).resolve().parent / "tables"
"""The presets as data: one TOML file per table, NAME.toml, in the format of `rules show --toml`."""


def _preset(name: str) -> RuleSet:
    path = TABLES / f"{name}.toml"
    return rules_from_dict(tomllib.loads(path.read_text(encoding="utf-8")), where=str(path))


# ---------------------------------------------------------------------------------------------
# TOML


def rules_from_dict(data: dict[str, Any], *, where: str = "rules") -> RuleSet:
    """A RuleSet from parsed TOML; one clear error naming the key for anything wrong."""
    data = dict(data)
    base_name = data.pop("base", None)
    if base_name is None:
        base = RuleSet(name="custom")
    else:
        if not isinstance(base_name, str) or base_name not in PRESETS:
            raise RulesError(
                f"{where}: base must be one of {', '.join(PRESETS)}, not {quoted(base_name)}"
            )
        base = PRESETS[base_name]
    top = _fields(RuleSet)
    top.pop("points")
    top.pop("drinking")
    changes = _read_table(data, top, where, extra=("points", "drinking", "base"))
    points_changes = _read_table(data.get("points", {}), _fields(Points), f"{where} [points]")
    drink_changes = _read_table(
        data.get("drinking", {}), _fields(DrinkRules), f"{where} [drinking]"
    )
    if "name" not in changes:
        changes["name"] = base.name if base_name is None else f"{base_name} (custom)"
    try:
        rules = dataclasses.replace(
            base,
            points=dataclasses.replace(base.points, **points_changes),
            drinking=dataclasses.replace(base.drinking, **drink_changes),
            **changes,
        )
    except RulesError as exc:
        raise RulesError(f"{where}: {exc}") from None
    return rules


def _fields(cls: type) -> dict[str, Any]:
    return {f.name: f.type for f in dataclasses.fields(cls)}


def _read_table(
    table: Any, fields: dict[str, Any], where: str, extra: tuple[str, ...] = ()
) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise RulesError(f"{where} must be a table")
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key in extra:
            continue
        if key not in fields:
            allowed = ", ".join(sorted(list(fields) + list(extra)))
            raise RulesError(f"{where}: unknown key {key!r}; allowed keys: {allowed}")
        out[key] = _convert(key, value, str(fields[key]), where)
    return out


def _convert(key: str, value: Any, kind: str, where: str) -> Any:
    def wrong(expected: str) -> RulesError:
        return RulesError(f"{where}: {key} must be {expected}, not {quoted(value)}")

    if kind == "bool":
        if not isinstance(value, bool):
            raise wrong("true or false")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NUMBER:
            raise wrong(f"a whole number from 0 to {MAX_NUMBER:,}")
        return value
    if kind == "str":
        if not isinstance(value, str):
            raise wrong("a string")
        return value
    if kind in CHOICES:
        words = [str(c) for c in CHOICES[kind]]
        if not isinstance(value, str) or value not in words:
            raise wrong("one of " + ", ".join(map(repr, words)))
        return CHOICES[kind](value)
    if kind == "tuple[int, ...]":
        if (
            not isinstance(value, list)
            or len(value) > 100
            or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_NUMBER
                for v in value
            )
        ):
            raise wrong("a list of whole numbers, e.g. [2500, 5000]")
        return tuple(value)
    if kind == "tuple[Straight, ...]":
        if not isinstance(value, list):
            raise wrong('a list such as [{faces = "12345", points = 1000}]')
        out = []
        for item in value[:100]:
            if (
                not isinstance(item, dict)
                or set(item) != {"faces", "points"}
                or not isinstance(item["faces"], str)
                or not item["faces"].isascii()
                or not item["faces"].isdigit()
                or len(item["faces"]) > 6
                or isinstance(item["points"], bool)
                or not isinstance(item["points"], int)
            ):
                raise wrong('a list such as [{faces = "12345", points = 1000}]')
            out.append(_straight(item["faces"], item["points"]))
        if len(value) > 100:
            raise wrong("at most 100 straights")
        return tuple(out)
    raise AssertionError(f"no converter for {kind}")  # pragma: no cover


def load_rules(name_or_path: str) -> RuleSet:
    """A preset by name, or a custom table from a TOML file path."""
    if name_or_path in PRESETS:
        return PRESETS[name_or_path]
    path = Path(name_or_path)
    shown = escaped(name_or_path)
    if path.suffix.lower() != ".toml" and not path.exists() and not path.is_symlink():
        raise RulesError(
            f"unknown rules {quoted(name_or_path)}: use one of {', '.join(PRESETS)} or a .toml file"
        )
    try:
        with open_to_read(path) as f:
            raw = f.read(MAX_RULES_FILE + 1)
    except FileNotFoundError:
        raise RulesError(f"rules file {shown} does not exist") from None
    except OSError as exc:
        raise RulesError(f"cannot read rules file {shown}: {exc.strerror or exc}") from None
    if len(raw) > MAX_RULES_FILE:
        raise RulesError(
            f"rules file {shown} is over {MAX_RULES_FILE:,} bytes; a table's rules are a few lines"
        )
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise RulesError(f"rules file {shown} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{shown} is not valid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:  # a number too long, nesting too deep
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise RulesError(f"{shown} is not TOML zonkcam can read ({why})") from None
    rules = rules_from_dict(data, where=shown)
    if rules.name in PRESETS and rules != PRESETS[rules.name]:
        # an edited copy of `rules show PRESET` is not that preset
        rules = dataclasses.replace(rules, name=f"{rules.name} (custom)")
    return rules


def rules_to_toml(rules: RuleSet) -> str:
    """The rule set as a complete TOML table (the format :func:`load_rules` reads)."""
    data = rules.to_dict()
    points, drinking = data.pop("points"), data.pop("drinking")
    lines = [f"{k} = {_toml_value(v)}" for k, v in data.items()]
    lines += ["", "[points]"] + [f"{k} = {_toml_value(v)}" for k, v in points.items()]
    lines += ["", "[drinking]"] + [f"{k} = {_toml_value(v)}" for k, v in drinking.items()]
    return "\n".join(lines) + "\n"


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: backslash, quote and every control character
    escaped, so whatever a name holds, the file stays valid TOML."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif 0xD800 <= ord(c) <= 0xDFFF:
            out.append("\\ufffd")  # a lone surrogate: bytes that were not UTF-8
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return toml_string(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(v)  # pragma: no cover


PRESETS: dict[str, RuleSet] = {name: _preset(name) for name in PRESET_NAMES}
"""The five preset tables (docs/rules.md), read from TABLES."""
