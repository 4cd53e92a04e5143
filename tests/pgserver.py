"""A throw-away PostgreSQL server for the tests: a data directory in /dev/shm (or /tmp), a
Unix socket beside it and no TCP port, removed again when the server stops.

``python -m tests.pgserver run -- COMMAND...`` runs COMMAND with ``BOT_TEST_POSTGRES`` set
to the server's URL and exits with COMMAND's exit code; ``make unit`` runs pytest that way.
``run --durable`` starts it with PostgreSQL's default durability (fsync, synchronous commit,
full page writes) and its data on the disk under /tmp, for honest benchmark figures
(``make bench-postgresql``).
The binaries come from the PATH or ``/usr/lib/postgresql/*/bin``; as root on a machine
without them, Debian's ``postgresql`` package is installed first. PostgreSQL refuses to run
as root, so as root the server runs as the ``postgres`` user the package creates.

Stdlib only: the test command must be able to start the server before anything else works.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from urllib.parse import quote

ENV_VAR = "BOT_TEST_POSTGRES"
USER = "bot"  # the superuser initdb creates; trust authentication, so no password
SERVER_USER = "postgres"  # who runs the server when we are root
DEBIAN_BINARIES = "/usr/lib/postgresql/*/bin"
SHM_NEEDED = 2 * 1024**3  # the data directory stays small, but WAL may grow to max_wal_size

# Durability is worth nothing in a server that is deleted after the run.
SERVER_SETTINGS = {
    "listen_addresses": "",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
}
# For benchmarks: every COMMIT waits for its WAL flush to the disk, as in production.
DURABLE_SETTINGS = {"listen_addresses": "", "max_connections": "300"}


class PostgresServerError(RuntimeError):
    """The server could not be installed, started or stopped; the message says why."""


@dataclass(frozen=True)
class Server:
    """A running server, reached through the Unix socket in ``socket_dir``; a server this
    module started can be stopped and started again (``stop``/``start``: a restart)."""

    socket_dir: Path
    port: int
    user: str = USER
    bin_dir: Path | None = None
    options: str = ""  # the postgres command line it was started with

    def _pg_ctl(self, *args: str) -> list[str]:
        assert self.bin_dir is not None, "a server started elsewhere cannot be restarted"
        data = self.socket_dir / "data"
        return [str(self.bin_dir / "pg_ctl"), "-D", str(data), "-w", "-t", "60", *args]

    def stop(self) -> None:
        """Stop it as a restart or a failover does (``-m fast``): every session ends with
        "terminating connection due to administrator command", new ones are refused."""
        _run(self._pg_ctl("stop", "-m", "fast"), what="pg_ctl stop", cwd=self.socket_dir)

    def start(self) -> None:
        """Start it again after ``stop``, with the same data, socket, port and settings."""
        log = self.socket_dir / "server.log"
        command = self._pg_ctl("-l", str(log), "-o", self.options, "start")
        _run(command, what="pg_ctl start", cwd=self.socket_dir, log=log)

    def url(self, dbname: str = "postgres") -> str:
        """``postgresql://bot@/DBNAME?host=SOCKET_DIR&port=PORT``: libpq (psql, psycopg)
        takes a socket directory as the ``host`` query parameter."""
        host = quote(str(self.socket_dir), safe="/")
        return f"postgresql://{self.user}@/{dbname}?host={host}&port={self.port}"


def _version_key(bin_dir: Path) -> tuple[int, str]:
    version = bin_dir.parent.name  # /usr/lib/postgresql/15/bin
    return (int(version), version) if version.isdigit() else (-1, version)


def find_binaries() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None."""
    initdb = shutil.which("initdb")
    if initdb is not None:
        # On Debian /usr/local/bin/initdb may be a link into /usr/lib/postgresql/N/bin.
        bin_dir = Path(initdb).resolve().parent
        if (bin_dir / "pg_ctl").is_file():
            return bin_dir
    candidates = [p for p in Path("/").glob(DEBIAN_BINARIES.lstrip("/")) if p.is_dir()]
    for bin_dir in sorted(candidates, key=_version_key, reverse=True):
        if (bin_dir / "initdb").is_file() and (bin_dir / "pg_ctl").is_file():
            return bin_dir
    return None


def _is_root() -> bool:
    return os.geteuid() == 0


def _install_postgresql() -> None:
    """``apt-get install postgresql``, quiet unless it fails."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", "postgresql"],
    ):
        try:
            done = subprocess.run(
                command, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL
            )
        except FileNotFoundError as e:
            raise PostgresServerError(
                "PostgreSQL is not installed and there is no apt-get to install it"
            ) from e
        if done.returncode != 0:
            raise PostgresServerError(
                f"installing PostgreSQL failed: `{' '.join(command)}` exited with"
                f" {done.returncode}:\n{done.stdout}{done.stderr}"
            )


def ensure_binaries() -> Path:
    """The server binaries' directory, installing PostgreSQL first if it is missing and we
    are root; otherwise a :class:`PostgresServerError` saying what to do."""
    bin_dir = find_binaries()
    if bin_dir is None and _is_root():
        _install_postgresql()
        bin_dir = find_binaries()
    if bin_dir is None:
        raise PostgresServerError(
            "PostgreSQL server binaries (initdb, pg_ctl) are neither on the PATH nor in"
            f" {DEBIAN_BINARIES}; install them (Debian: apt-get install postgresql)"
            + ("" if _is_root() else ", or run the tests as root to have them installed")
        )
    return bin_dir


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", SERVER_USER, "--", *command] if _is_root() else command


def _run(command: list[str], *, what: str, cwd: Path, log: Path | None = None) -> None:
    process = subprocess.Popen(
        _as_server_user(command),
        cwd=cwd,  # the server user may not be allowed into ours (/root)
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = process.communicate()
    except BaseException:
        # Interrupted: SIGTERM, unlike subprocess.run's SIGKILL, reaches the command through
        # runuser and lets initdb remove what it wrote; then nothing writes into the
        # directory that the cleanup deletes.
        process.terminate()
        process.wait()
        raise
    if process.returncode != 0:
        details = output
        if log is not None and log.exists():
            details += f"\n--- {log} (last lines) ---\n" + "\n".join(
                log.read_text(errors="replace").splitlines()[-30:]
            )
        raise PostgresServerError(f"{what} failed (exit {process.returncode}):\n{details}")


def _parent_dir(durable: bool = False) -> str:
    """/dev/shm when it is a roomy tmpfs, else /tmp; never $TMPDIR, which the server user
    may not be able to reach, and a Unix socket's path must stay under about 100 bytes.

    Memory rather than disk, although fsync is off: CREATE DATABASE writes a copy of the
    template's ~8 MB, and measured here under a parallel test run it took 250-500 ms on
    the disk against 15-20 ms in /dev/shm (the server starts in half the time too).
    A durable server's data goes to the disk: an fsync in memory would prove nothing."""
    if durable:
        return "/tmp" if Path("/tmp").is_dir() else tempfile.gettempdir()
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        stats = os.statvfs(shm)
        if stats.f_bavail * stats.f_frsize >= SHM_NEEDED:  # Docker's default is 64 MiB
            return str(shm)
    return "/tmp" if Path("/tmp").is_dir() else tempfile.gettempdir()


def _make_base_dir(durable: bool = False) -> Path:
    base = Path(tempfile.mkdtemp(prefix="bot-pg-", dir=_parent_dir(durable)))
    base.chmod(0o755)  # clients that are not root can reach the socket too
    if _is_root():
        try:
            shutil.chown(base, user=SERVER_USER)
        except LookupError as e:
            shutil.rmtree(base, ignore_errors=True)
            raise PostgresServerError(
                f"running as root, but there is no {SERVER_USER!r} user to run PostgreSQL"
                " as (Debian's postgresql package creates it)"
            ) from e
    return base


def _default_port() -> int:
    # The socket lives in a directory of its own, so any port number is free; one per
    # process keeps the servers' shared memory keys apart.
    return 40000 + os.getpid() % 20000


@contextmanager
def running_server(port: int | None = None, *, durable: bool = False) -> Iterator[Server]:
    """Start a fresh server, yield it, and stop it and delete its files on the way out
    (also at interpreter exit, should the ``with`` block never be left). ``durable``: with
    PostgreSQL's default durability, its data on the disk (see ``DURABLE_SETTINGS``)."""
    bin_dir = ensure_binaries()
    port = _default_port() if port is None else port
    base = _make_base_dir(durable)
    data, log = base / "data", base / "server.log"
    started = False

    def cleanup() -> None:
        if started:
            # immediate: the data is thrown away, so there is nothing to shut down cleanly
            subprocess.run(
                _as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "stop", "-m", "i"]),
                cwd=base,
                capture_output=True,
                stdin=subprocess.DEVNULL,
            )
        shutil.rmtree(base, ignore_errors=True)

    atexit.register(cleanup)
    try:
        initdb = [str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", USER]
        # UTF8 and the C locale whatever the environment says: the same server everywhere
        initdb += ["-E", "UTF8", "--locale=C", "--no-sync"]
        _run(initdb, what="initdb", cwd=base)
        chosen = DURABLE_SETTINGS if durable else SERVER_SETTINGS
        settings = [f"-c {name}='{value}'" for name, value in chosen.items()]
        options = " ".join([f"-k {base}", f"-p {port}", *settings])
        started = True  # from here on a half-started server is stopped too
        pg_ctl = [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60"]
        _run([*pg_ctl, "-o", options, "start"], what="pg_ctl start", cwd=base, log=log)
        yield Server(socket_dir=base, port=port, bin_dir=bin_dir, options=options)
    finally:
        atexit.unregister(cleanup)
        cleanup()


def run(command: Sequence[str], *, durable: bool = False) -> int:
    """Run COMMAND with a server and ``BOT_TEST_POSTGRES`` set; its exit code (128 + N for a
    command killed by signal N)."""
    child: subprocess.Popen[bytes] | None = None

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if child is None:  # still starting the server: leave through its cleanup
            raise SystemExit(128 + signum)
        # A terminal's Ctrl-C reaches the whole process group, the command included, which
        # then tears down by itself; other signals are passed on. Either way the server is
        # stopped once the command has exited.
        if signum != signal.SIGINT:
            child.send_signal(signum)  # a no-op once the child has exited

    handled = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    previous = {signum: signal.signal(signum, on_signal) for signum in handled}
    try:
        started = time.monotonic()
        with running_server(durable=durable) as server:
            print(
                f"pgserver: {'durable ' if durable else ''}PostgreSQL up in"
                f" {(time.monotonic() - started) * 1000:.0f} ms at {server.url()}",
                file=sys.stderr,
                flush=True,
            )
            child = subprocess.Popen(list(command), env={**os.environ, ENV_VAR: server.url()})
            returncode = child.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return returncode if returncode >= 0 else 128 - returncode


USAGE = "usage: python -m tests.pgserver run [--durable] -- COMMAND [ARGS...]"


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    if len(args) < 2 or args[0] != "run":
        print(USAGE, file=sys.stderr)
        return 2
    args = args[1:]
    durable = args[0] == "--durable"
    if durable:
        args = args[1:]
    command = args[1:] if args[:1] == ["--"] else args
    if not command:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        return run(command, durable=durable)
    except PostgresServerError as e:
        print(f"pgserver: {e}", file=sys.stderr)
        return 1
    except FileNotFoundError as e:
        print(f"pgserver: cannot run {command[0]!r}: {e.strerror}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
