"""Lab harness: the durability test, long: a scripted game through many random SIGKILLs.

Run: python scripts/durability.py --kills 200 --seed 7  (classic-10000 to 10,000)
(`make test` runs it with a few kills: tests/record/test_durability.py)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from zonkcam.testing.durability import run


def main() -> None:
    ap = argparse.ArgumentParser(description="SIGKILL text-mode games and check the log")
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=1, help="games, each with --kills kills")
    ap.add_argument(
        "--target",
        type=int,
        default=10_000,
        help="classic-10000 played to this total (a longer game for more kills)",
    )
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    start = time.monotonic()
    for game in range(args.games):
        with tempfile.TemporaryDirectory(prefix="zonkcam-durability-") as tmp:
            report = run(
                Path(tmp) / "games.sqlite3",
                args.kills,
                seed=args.seed + game,
                target=args.target,
                say=print if args.verbose else lambda line: None,
            )
        print(f"game {game + 1}: {report.line()}")
    print(f"{time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
