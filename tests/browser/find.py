"""Which browser the browser tests drive, found before `make test` runs them: Debian's
``chromium`` if it is installed; else, as root (CI here), ``apt-get install -y chromium``;
else Playwright's own Chromium (``playwright install chromium``, which downloads it: it
works wherever the internet is reachable). One line says which; no browser at all fails
the run with that line (the browser tests never skip).

``python -m tests.browser.find`` prints the line and exits 0 or 1; ``executable()`` is the
path the tests launch (None: Playwright's own)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def debian_chromium() -> str | None:
    return shutil.which("chromium")


def playwright_chromium() -> str | None:
    """Playwright's downloaded Chromium, if there is one."""
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Exception:
        return None
    return path if path and Path(path).exists() else None


def executable() -> str | None:
    return debian_chromium() or playwright_chromium()


def find() -> tuple[str | None, str]:
    """(the browser's path, the line saying which it is)."""
    found = debian_chromium()
    if found:
        return found, f"browser tests: Debian's chromium at {found}"
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if is_root and shutil.which("apt-get"):
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        subprocess.run(["apt-get", "update"], check=False, **quiet)  # type: ignore[call-overload]
        subprocess.run(["apt-get", "install", "-y", "chromium"], check=False, **quiet)  # type: ignore[call-overload]
        found = debian_chromium()
        if found:
            return found, f"browser tests: Debian's chromium at {found} (installed with apt-get)"
    subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=False)
    found = playwright_chromium()
    if found:
        return found, f"browser tests: Playwright's Chromium at {found} (playwright install)"
    return None, (
        "browser tests: no browser: install Debian's chromium (apt-get install chromium) "
        "or run `playwright install chromium` where the internet is reachable"
    )


def main() -> int:
    path, line = find()
    print(line)
    return 0 if path else 1


if __name__ == "__main__":
    sys.exit(main())
