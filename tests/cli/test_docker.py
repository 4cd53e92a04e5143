"""The Docker image (issue 19, item 24). Docker cannot run on the machines these tests were
written on (no daemon), so what is checked is what decides the build without running it:
`.dockerignore` keeps the token, the live database, the virtualenv, git and the caches out of
the build context, and keeps in all that the Dockerfile copies; the Dockerfile installs the
dependencies in a layer of their own, before any code is copied, and brings pg_dump for
`python -m bot backup` on PostgreSQL. hadolint (`make lint`) checks the rest."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def docker_patterns() -> list[tuple[bool, re.Pattern[str]]]:
    """(exclude, regex) per line of .dockerignore, as Docker reads it: patterns are relative
    to the context's root, ``**`` spans any number of folders, ``*`` and ``?`` stay within
    one, a leading ``!`` takes an exclusion back, the last matching line decides."""
    patterns = []
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        exclude = not line.startswith("!")
        pattern = line.removeprefix("!").strip("/")
        regex, i = "", 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                regex, i = regex + "(?:.*/)?", i + 3
            elif pattern.startswith("**", i):
                regex, i = regex + ".*", i + 2
            elif pattern[i] == "*":
                regex, i = regex + "[^/]*", i + 1
            elif pattern[i] == "?":
                regex, i = regex + "[^/]", i + 1
            elif pattern[i] == "[":
                end = pattern.index("]", i)
                regex, i = regex + pattern[i : end + 1], end + 1
            else:
                regex, i = regex + re.escape(pattern[i]), i + 1
        patterns.append((exclude, re.compile(regex)))
    return patterns


def ignored(path: str, patterns: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Whether Docker leaves ``path`` out of the context: a pattern that matches the path or
    one of its folders (a folder left out takes all it holds)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    verdict = False
    for exclude, regex in patterns:
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            verdict = exclude
    return verdict


def test_the_secrets_the_database_and_the_caches_stay_out_of_the_build() -> None:
    patterns = docker_patterns()
    kept_out = [
        ".env", ".env.local", "prod.env",
        "data/bot.sqlite3", "data/bot.sqlite3-wal", "data/backups/2026-01-01.dump",
        "old/bot.sqlite3", "bot.sqlite3-shm",
        ".venv/bin/python", ".venv/lib/python3.11/site-packages/discord/client.py",
        "venv/bin/python", ".git/HEAD", ".git/objects/ab/cdef",
        "bot/__pycache__/app.cpython-311.pyc", "cogs/__pycache__/admin.cpython-311.pyc",
        "bot/app.pyc", ".mypy_cache/3.11/bot/app.meta.json", ".pytest_cache/v/cache",
        ".ruff_cache/0.17/x", ".hypothesis/examples/x", "build/lib/bot/app.py",
        "sequences_bot.egg-info/PKG-INFO", "tests/cli/test_docker.py",
    ]  # fmt: skip
    assert [path for path in kept_out if not ignored(path, patterns)] == []


def test_all_that_the_dockerfile_copies_is_in_the_build() -> None:
    patterns = docker_patterns()
    copied = ["pyproject.toml", "README.md"] + [
        path.relative_to(ROOT).as_posix()
        for package in ("bot", "cogs")
        for path in (ROOT / package).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]
    assert "bot/store/migrations/postgresql/001_init.sql" in copied
    assert [path for path in copied if ignored(path, patterns)] == []


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest))
    return found


def code_in(copy: str) -> bool:
    """Whether a COPY's sources (all its words but flags and the destination) hold code."""
    sources = [word for word in copy.split()[:-1] if not word.startswith("--")]
    return any(
        source in (".", "./") or source.removeprefix("./").split("/")[0] in ("bot", "cogs")
        for source in sources
    )


def test_dependencies_are_a_layer_of_their_own_before_the_code() -> None:
    steps = instructions()
    last_from = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    image = steps[last_from:]  # the stage that is the image
    copies_code = [i for i, (word, rest) in enumerate(image) if word == "COPY" and code_in(rest)]
    installs = [
        i for i, (word, rest) in enumerate(image) if word == "RUN" and "pip install" in rest
    ]
    assert copies_code and len(installs) == 2, image
    deps, code = installs
    assert deps < min(copies_code) < code
    assert "-r " in image[deps][1]  # from a requirements file, not the project
    assert "--no-deps" in image[code][1] and "--no-build-isolation" in image[code][1]
    # What the dependency layer is built from is only the requirements, never the code.
    before = [rest for word, rest in image[:deps] if word in ("COPY", "ADD")]
    assert before and all("requirements" in rest for rest in before), before


def test_the_image_has_pg_dump_for_backups_on_postgresql() -> None:
    runs = [rest for word, rest in instructions() if word == "RUN"]
    assert any(
        "apt-get install" in rest and "postgresql-client" in rest and "rm -rf /var/lib/apt/lists"
        in rest for rest in runs
    )  # fmt: skip
