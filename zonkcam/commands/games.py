"""`zonkcam games list|show|export`: the saved games in the event log."""

from __future__ import annotations

import argparse
import json
import shlex

from zonkcam.app.games import resume_command, shown_players
from zonkcam.app.text_views import board_text
from zonkcam.commands import options
from zonkcam.commands.replay import read_replay
from zonkcam.errors import UserError
from zonkcam.fileio import write_whole
from zonkcam.game import actions as A
from zonkcam.game.names import counted, escaped
from zonkcam.record.clock import timeline
from zonkcam.record.logged_game import saved_game
from zonkcam.record.outfolder import OutFolder
from zonkcam.record.photos import RollPhotos, photo_folder
from zonkcam.record.store import (
    MAX_GAME_ID,
    EventLog,
    NoLogError,
    StoreError,
    local_time,
)


def game_number(text: str) -> int:
    """A game id as typed: a whole number from 1 up."""
    number = int(text) if text.isascii() and text.isdigit() and len(text) < 20 else 0
    if not 1 <= number <= MAX_GAME_ID:
        raise ValueError(text)
    return number


DEMO_HELP = (
    "the demo game's games too (kept apart from the games people play; a game named by "
    "its number is found either way)"
)
GAME_HELP = "the game's number (see: zonkcam games list)"


def register(subparsers: argparse._SubParsersAction) -> None:
    # --db (and --demo) before or after the action: `games --db F list`, `games list --db F`
    db = argparse.ArgumentParser(add_help=False)
    options.add_db(db, default=argparse.SUPPRESS)
    demo = argparse.ArgumentParser(add_help=False)  # where the demo's games count
    demo.add_argument("--demo", action="store_true", default=argparse.SUPPRESS, help=DEMO_HELP)
    p = subparsers.add_parser(
        "games",
        help="the saved games: list, show, export, import; the night's dice and report",
        parents=[db, demo],
        description="The saved games in the game log.",
    )
    sub = p.add_subparsers(dest="games_command", metavar="ACTION", required=True)
    sub.add_parser(
        "list", help="every saved game people played (--demo: the demo's too)", parents=[db, demo]
    ).set_defaults(func=_list)
    show = sub.add_parser("show", help="a game's scoreboard and log", parents=[db, demo])
    show.add_argument(
        "game",
        type=game_number,
        nargs="?",
        default=None,
        help=GAME_HELP + "; default: the game played last",
    )
    show.add_argument(
        "--photos", metavar="DIR", help="also copy the photo the camera took of each roll into DIR"
    )
    show.set_defaults(func=_show)
    export = sub.add_parser(
        "export",
        parents=[db, demo],
        help="a game's rules and actions as JSON Lines (zonkcam replay plays them back)",
    )
    export.add_argument("game", type=game_number, help=GAME_HELP)
    export.add_argument("--out", help="write to this file instead of standard output")
    export.set_defaults(func=_export)
    imported = sub.add_parser(
        "import",
        parents=[db, demo],
        help="a replay file (games export, or a game rescued when its log went away) as a "
        "new saved game, to resume",
    )
    imported.add_argument("file", metavar="FILE", help="JSON Lines file, as games export writes")
    imported.set_defaults(func=_import)
    chosen = argparse.ArgumentParser(add_help=False)  # the games `dice` and `report` look at
    chosen.add_argument(
        "game", nargs="*", type=game_number, help="the games (default: every game people played)"
    )
    chosen.add_argument(
        "--night",
        metavar="YYYY-MM-DD",
        help="the games that began on this day (local time; through jumps of the clock: "
        "see games show)",
    )
    dice = sub.add_parser(
        "dice",
        parents=[db, demo, chosen],
        help="is any die loaded? each die's (or pool of dice's) faces over the games, with a "
        "fairness verdict",
    )
    dice.set_defaults(func=_dice)
    report = sub.add_parser(
        "report",
        parents=[db, demo, chosen],
        help="the night in review: an HTML page of the night's awards and charts (score "
        "races, zonks, hot dice, drinks, the biggest and slowest turns, roll photos, each "
        "die's faces and fairness)",
    )
    report.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="the folder to write index.html (and photos/) to",
    )
    report.set_defaults(func=_report)


def _opened(args: argparse.Namespace) -> EventLog:
    """The game log, opened only to read (it may lie on read-only media)."""
    return EventLog(getattr(args, "db", None), read_only=True)


def _demo(args: argparse.Namespace) -> bool:
    return getattr(args, "demo", False)


def _demo_note(args: argparse.Namespace, log: EventLog, *, throws: bool = False) -> str:
    """Where a command found nothing among the games people played: a note that the
    demo's games (on --night's day, with throws if `throws`) are kept apart, and how to
    see them; "" where there are none or they were counted."""
    if _demo(args) or getattr(args, "game", None):
        return ""
    night = getattr(args, "night", None)
    people = set(log.games_of(night))
    demo = [n for n in log.games_of(night, demo=True) if n not in people]
    if throws:
        demo = [n for n in demo if any(isinstance(a, A.Roll) for a in log.actions(n))]
    if not demo:
        return ""
    numbers = ", ".join(map(str, demo[:6])) + (", ..." if len(demo) > 6 else "")
    if len(demo) == 1:
        return f"; the demo's game {demo[0]} is kept apart: add --demo to see it"
    return f"; the demo's {len(demo)} games ({numbers}) are kept apart: add --demo to see them"


def _list(args: argparse.Namespace) -> int:
    try:
        log = _opened(args)
    except NoLogError as exc:
        print(f"no saved games: {exc}")
        return 0
    with log, log.snapshot():
        every = log.games()
        games = [g for g in every if _demo(args) or not g.demo]
        apart = len(every) - len(games)
        if not games:
            print(f"no saved games in {log.path}" + _demo_note(args, log))
            return 0
        players = {g.id: shown_players(log, g) for g in games}
    rows = [("game", "last action", "table", "status", "actions", "players")]
    for g in games:
        status = ("finished" if g.finished else "in play") + (" (demo)" if g.demo else "")
        rows.append(
            (
                str(g.id),
                local_time(g.updated, "%Y-%m-%d %H:%M"),
                escaped(g.rules_name),
                status,
                str(g.events),
                escaped(players[g.id]),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        cells = [
            row[0].rjust(widths[0]),
            row[1].ljust(widths[1]),
            row[2].ljust(widths[2]),
            row[3].ljust(widths[3]),
            row[4].rjust(widths[4]),
            row[5],
        ]
        print("  ".join(cells).rstrip())
    if apart:
        print(
            f"and {apart} demo game{'s' * (apart != 1)}, kept apart from the games people "
            "played: add --demo to list them"
        )
    return 0


def _show(args: argparse.Namespace) -> int:
    with _opened(args) as log, log.snapshot():
        if args.game is None:  # the game played last
            games = [g for g in log.games() if _demo(args) or not g.demo]
            if not games:
                raise UserError(f"no saved games in {log.path} to show" + _demo_note(args, log))
            args.game = max(games, key=lambda g: (g.updated or 0.0, g.id)).id
        game, _ = saved_game(log, args.game)
        record = next((g for g in log.games() if g.id == args.game), None)
        clock = _clock_line(log.action_times(args.game), log.began().get(args.game))
        folder = photo_folder(log.path)
    title = f"game {args.game}: {game.state.rules.name}, " + (
        "finished" if game.state.finished else "in play"
    )
    if record is not None:
        title += (
            f", {counted(record.events, 'action')}, last action "
            f"{local_time(record.updated, '%Y-%m-%d %H:%M')}"
        )
    for line in [title, *board_text(game.state, header=True).split("\n"), "log:"]:
        print(escaped(line))
    for line in game.state.log:
        print(escaped(line))
    if clock:
        print(clock)
    if args.photos:
        try:
            n = RollPhotos(folder).export(args.game, args.photos)
        except OSError as exc:
            raise UserError(f"cannot copy the photos to {args.photos}: {exc}") from None
        print(
            f"{n} roll photo{'s' * (n != 1)} of game {args.game} copied to {args.photos}"
            + ("" if n else f" (none kept in {folder})")
        )
    return 0


def _clock_line(times: list[float | None], began: float | None) -> str | None:
    """A line on where the clock jumped during a game, and the time it is taken to have
    begun ("the clock jumped back 1 day at action 31 (2026-12-06 21:40 to 2026-12-05
    21:41): ..."); None where it never did (or a time is unreadable: a damaged log)."""
    if not times or any(t is None for t in times):
        return None
    clock = timeline(times)
    at = "%Y-%m-%d %H:%M"
    said = [
        f"{j.words()} at action {j.index + 1} ({local_time(j.before, at)} to "
        f"{local_time(j.after, at)})"
        for j in clock.jumps
    ]
    ahead = began is not None and clock.began is not None and began < clock.began
    if not said and not ahead:
        return None
    parts = []
    if said:
        parts.append(
            f"the clock jumped {_listed(said)}: the game's times are read by the clock "
            f"after the{' last' * (len(said) > 1)} jump"
        )
    if ahead:
        parts.append(
            "the clock was ahead while it was played (it seemed to begin after games "
            "saved after it): it is taken to begin with them"
        )
    day = local_time(began, "%Y-%m-%d")
    return f"{'; '.join(parts)}; it began {local_time(began, at)}, its night {day} (--night)"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _export(args: argparse.Namespace) -> int:
    with _opened(args) as log, log.snapshot():
        objects = list(log.action_objects(args.game))
        lines = [json.dumps(obj) for obj in objects]
        try:
            rules = log.rules(args.game)
        except StoreError:
            rules = None  # the actions are still worth having
    table = escaped(rules.name) if rules else "its stored rules are damaged"
    header = [json.dumps({"rules": rules.to_dict()})] if rules else []
    text = "".join(line + "\n" for line in header + lines)
    if args.out:
        write_whole(args.out, text)  # whole or not at all: a failure keeps the old file
        undos, kept = _undos(objects)
        print(
            f"wrote {counted(len(lines), 'action')} of game {args.game} ({table}) "
            f"to {escaped(args.out)}" + _undone(len(lines), undos, kept)
        )
    else:
        print(text, end="")
    return 0


def _import(args: argparse.Namespace) -> int:
    played: list[A.Action] = []
    game = read_replay(args.file, played=played)
    if not game.events:
        raise UserError(f"{escaped(args.file)} holds no actions: nothing to import")
    with EventLog(getattr(args, "db", None)) as log:
        game_id = log.new_game(game.rules, game.events, game.state.finished)
        path = log.path
    undos = sum(isinstance(a, A.Undo) for a in played)
    print(
        f"{escaped(args.file)}: {counted(len(played), 'action')} "
        f"({escaped(game.rules.name)}) saved as game {game_id} in {escaped(str(path))}"
        + _undone(len(played), undos, len(game.events))
    )
    again = argparse.Namespace(db=getattr(args, "db", None))
    if game.state.finished:
        db = ["--db", again.db] if again.db else []
        show = shlex.join(["zonkcam", "games", "show", str(game_id), *db])
        print(f"game {game_id} is over: {show} shows it")
    else:
        print(
            f"resume it at the table with: {resume_command(again, game_id, text=False)}; or "
            f"without a camera, typing the dice: {resume_command(again, game_id, text=True)}"
        )
    return 0


def _undone(actions: int, undos: int, kept: int) -> str:
    """What a game's undos leave of its actions: "; 6 undos took back 6 other actions:
    47 kept" ("" with no undo)."""
    if not undos:
        return ""
    taken = actions - undos - kept
    return (
        f"; {undos} undo{'s' * (undos != 1)} took back {taken} other "
        f"action{'s' * (taken != 1)}: {kept} kept"
    )


def _undos(objects: list[dict]) -> tuple[int, int]:
    """The undos among a game's stored actions, and the actions the game keeps (each undo
    takes back the action before it)."""
    undos = kept = 0
    for obj in objects:
        if isinstance(obj, dict) and obj.get("undo") is True:
            undos += 1
            kept = max(0, kept - 1)
        else:
            kept += 1
    return undos, kept


def _chosen(args: argparse.Namespace, log: EventLog) -> list[int]:
    """The games a `dice` or `report` command names, or picks by --night and --demo."""
    if args.night is not None and not _is_day(args.night):
        raise UserError(f"--night takes a day as YYYY-MM-DD, not {escaped(args.night)}")
    if not args.game:
        return log.games_of(args.night, _demo(args))
    records = {g.id for g in log.games()}
    missing = [n for n in args.game if n not in records]
    if missing:
        raise UserError(f"no game {missing[0]} in {log.path} (see: zonkcam games list)")
    return args.game


def _dice(args: argparse.Namespace) -> int:
    from zonkcam.review.dice import by_table_dice

    with _opened(args) as log, log.snapshot():
        wanted = _chosen(args, log)
        played = []
        for n in wanted:
            game = saved_game(log, n)[0]
            played.append((n, game.rules.name, game.rules.dice, game.events))
        found = by_table_dice(played)
        note = "" if found else _demo_note(args, log, throws=True)
    if not found:
        where = f"games {', '.join(map(str, wanted))}" if wanted else "the log"
        print(f"no throws in {where}" + (f" on {args.night}" if args.night else "") + note)
        return 0
    print(f"games {', '.join(map(str, wanted))}: dice as the games kept them (corrections counted)")
    for table in found:  # five dice are never pooled with six
        games = ", ".join(map(str, table.games))
        print(
            f"{table.name[0].upper()}{table.name[1:]}, game{'s' * (len(table.games) > 1)} {games}:"
        )
        for pool in table.pools:
            v = pool.verdict
            print(f"  {pool.text}")
            print(
                "    faces 1-6: "
                + " ".join(f"{c:>4}" for c in v.counts)
                + f"  ({counted(v.throws, 'throw')})"
            )
    return 0


def _report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from zonkcam.review.dice import by_table_dice
    from zonkcam.review.night import review_game
    from zonkcam.review.report import night_title, page

    out = Path(args.out)
    with _opened(args) as log, log.snapshot():  # one moment of the log, while a game goes on
        wanted = _chosen(args, log)
        if not wanted:
            raise UserError(
                "no games to report on"
                + (f" on {args.night}" if args.night else "")
                + _demo_note(args, log)
            )
        games = [review_game(n, log.rules(n), log.actions(n), log.action_times(n)) for n in wanted]
        folder_of_photos = photo_folder(log.path)
    photos: dict[int, list[tuple[int, str]]] = {}
    try:  # into DIR, never through a link found in it (index.html, photos/, a photo)
        with OutFolder(out) as folder:
            for n in wanted:
                shots = RollPhotos(folder_of_photos).of_game(n)
                if shots:
                    with folder.sub("photos") as into:
                        RollPhotos(folder_of_photos).export(n, into)
                    photos[n] = [(seq, f"photos/game-{n:04d}-{p.name}") for seq, p in shots]
            title = night_title(games, args.night)
            tables = by_table_dice((g.game_id, g.rules_name, g.dice, g.actions) for g in games)
            text = page(title, games, tables, photos)
            index = folder.write("index.html", text.encode("utf-8"))
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(out) else ""
        raise UserError(f"cannot write the report to {out}: {exc.strerror or exc}{where}") from None
    shots = sum(map(len, photos.values()))
    print(f"{index}: {len(games)} game{'s' * (len(games) != 1)}, {shots} roll photos")
    return 0


def _is_day(text: str) -> bool:
    import datetime

    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10
