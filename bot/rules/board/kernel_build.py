"""Building the playout kernel (``kernel.c``) with the system compiler, once, into a cache under a
file lock (docs/board-rules.md); standard library only, so the Docker build stage can run it as a
script."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(__file__).with_name("kernel.c")
FLAGS = ("-O2", "-shared", "-fPIC", "-std=gnu11")


def cache_dir() -> Path:
    """Where the built library lives."""
    explicit = os.environ.get("BOARD_KERNEL_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sequences-bot"


def library_name() -> str:
    """The library's file name: the hash of the source and flags."""
    digest = hashlib.sha256(SOURCE.read_bytes() + " ".join(FLAGS).encode()).hexdigest()
    return f"board-kernel-{digest[:16]}.so"


def build(folder: Path | None = None) -> Path | None:
    """The path of the built library, building it first if needed; ``None`` if it can't be
    built here (no compiler, a compile error, a cache folder that can't be written)."""
    folder = cache_dir() if folder is None else folder
    target = folder / library_name()
    if target.exists():
        return target
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "board-kernel.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if target.exists():  # another process built it while we waited
                return target
            with tempfile.TemporaryDirectory(dir=folder) as tmp:
                built = Path(tmp) / target.name
                subprocess.run(
                    [compiler, *FLAGS, "-o", str(built), str(SOURCE)],
                    check=True,
                    capture_output=True,
                    timeout=120,
                )
                os.replace(built, target)
    except (OSError, subprocess.SubprocessError):
        return None
    return target


if __name__ == "__main__":
    where = build(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
    if where is None:
        sys.exit("the board kernel could not be built (no C compiler, or a compile error)")
    print(where)
