"""Count the Python lines of bot/ and cogs/ on commits, with and without files new since a base.

    .venv/bin/python scripts/count_lines.py                # 1e1ebca and HEAD
    .venv/bin/python scripts/count_lines.py 1e1ebca main

Issue 32's line goal is measured against 1e1ebca; features added since then (the web
companion, quick play, the board's compiled kernel) bring files of their own, so the
"without new features" figure is the redesign's net effect on the code that existed.
Dev tooling only: reads git, writes nothing.
"""

from __future__ import annotations

import argparse
import fnmatch
import subprocess

BASE = "1e1ebca"
ROOTS = ("bot", "cogs")
# Files of features added since 1e1ebca (issue 32's own list); files split out of older
# modules by the redesign are not among them, so their lines still count as old code.
NEW_FEATURES = (
    "bot/web/*",
    "bot/store/web.py",
    "bot/tables/web.py",
    "bot/ui/weblinks.py",
    "bot/metrics.py",
    "bot/*/quickplay*.py",
    "bot/store/queue.py",
    "cogs/play.py",
    "bot/rules/board/kernel*.py",
    "bot/rules/board/inference.py",
    "bot/rules/board/deep.py",
    "bot/sim/board_parity.py",
)


def git(*args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["git", *args], input=stdin, check=True, capture_output=True).stdout


def line_counts(commit: str) -> dict[str, int]:
    """Each .py file under bot/ and cogs/ on ``commit`` with its number of lines (as wc -l)."""
    listing = git("ls-tree", "-r", "--name-only", commit, "--", *ROOTS).decode()
    names = [n for n in listing.split("\n") if n.endswith(".py")]
    out = git("cat-file", "--batch", stdin="".join(f"{commit}:{n}\n" for n in names).encode())
    counts: dict[str, int] = {}
    at = 0
    for name in names:  # --batch answers "<sha> blob <size>\n<body>\n" per name, in order
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        counts[name] = out.count(b"\n", header_end + 1, header_end + 1 + size)
        at = header_end + size + 2
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("commits", nargs="*", default=[BASE, "HEAD"])
    parser.add_argument("--base", default=BASE, help="the commit the goal is measured against")
    args = parser.parse_args()
    base = set(line_counts(args.base))
    print(f"{'commit':<10} {'all':>7} {'added':>7} {'no added':>9} {'no new features':>16}")
    for commit in args.commits:
        counts = line_counts(commit)
        added = sum(n for name, n in counts.items() if name not in base)
        features = sum(
            n
            for name, n in counts.items()
            if name not in base and any(fnmatch.fnmatch(name, p) for p in NEW_FEATURES)
        )
        total = sum(counts.values())
        short = git("rev-parse", "--short", commit).decode().strip()
        print(f"{short:<10} {total:>7,} {added:>7,} {total - added:>9,} {total - features:>16,}")


if __name__ == "__main__":
    main()
