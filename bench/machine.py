"""How busy the machine was while a section ran: the load average, and the CPU time the
other processes used (and the hypervisor stole), from ``/proc/stat``, ``/proc/loadavg`` and
the bench's own CPU time (``getrusage`` of this process and its reaped children, plus the
live processes under it: the bot's worker pool, the processes section's bots, and a
PostgreSQL server named with ``also``). Linux only; elsewhere every figure is None and no
row is marked disturbed.

A run is *disturbed* when the other processes and the hypervisor took at least
``DISTURBED_SHARE`` of the machine's cores on average while it ran: its ratios are then the
machine's as much as the bot's. The load average is recorded beside it but does not decide
(it lags a minute, and counts the bench's own threads and workers).
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DISTURBED_SHARE = 0.10  # of the machine's cores, used by others (or stolen) on average
PROC = Path("/proc")


@dataclass(frozen=True)
class Snapshot:
    at: float  # time.perf_counter()
    load: tuple[float, float, float] | None  # 1, 5 and 15 minutes
    busy: float | None  # CPU seconds every core spent not idle, stolen time left out
    steal: float | None  # CPU seconds the hypervisor gave to other machines
    own: float  # CPU seconds of the bench and the processes under it


def _ticks() -> float:
    return float(os.sysconf("SC_CLK_TCK"))


def _cpu_line() -> tuple[float, float] | None:
    """(busy, steal) CPU seconds since boot, all cores."""
    try:
        first = (PROC / "stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    if first[0] != "cpu":
        return None
    values = [int(v) for v in first[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = values[:7]
    steal = values[7] if len(values) > 7 else 0
    tick = _ticks()
    return (user + nice + system + irq + softirq) / tick, steal / tick


def _load() -> tuple[float, float, float] | None:
    try:
        one, five, fifteen = (PROC / "loadavg").read_text().split()[:3]
    except (OSError, ValueError):
        return None
    return float(one), float(five), float(fifteen)


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and its reaped children) from /proc/pid/stat."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
    # fields[0] is the state: ppid is field 4 of the file, utime..cstime fields 14-17.
    ppid = int(fields[1])
    cpu = sum(int(v) for v in fields[11:15]) / _ticks()
    return ppid, cpu


def _descendants_cpu(roots: set[int]) -> float:
    """CPU seconds of the live processes under ``roots`` (and of ``roots`` other than this
    process, which ``getrusage`` counts already)."""
    parents: dict[int, tuple[int, float]] = {}
    try:
        pids = [int(p.name) for p in PROC.iterdir() if p.name.isdigit()]
    except OSError:
        return 0.0
    for pid in pids:
        found = _stat(pid)
        if found is not None:
            parents[pid] = found
    ours = set(roots)
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _) in parents.items():
            if ppid in ours and pid not in ours:
                ours.add(pid)
                grew = True
    ours.discard(os.getpid())
    return sum(parents[pid][1] for pid in ours if pid in parents)


def snapshot(also: tuple[int, ...] = ()) -> Snapshot:
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
    own += _descendants_cpu({os.getpid(), *also})
    cpu = _cpu_line()
    return Snapshot(
        at=time.perf_counter(),
        load=_load(),
        busy=None if cpu is None else cpu[0],
        steal=None if cpu is None else cpu[1],
        own=own,
    )


def between(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """What the machine did from ``before`` to ``after``: seconds, cores used on average by
    the bench, by the others and stolen, the load averages, and whether it was disturbed."""
    wall = max(1e-9, after.at - before.at)
    cores = os.cpu_count() or 1
    own = max(0.0, after.own - before.own)
    others = steal = None
    if before.busy is not None and after.busy is not None:
        others = max(0.0, (after.busy - before.busy) - own)
    if before.steal is not None and after.steal is not None:
        steal = max(0.0, after.steal - before.steal)
    taken = None if others is None else (others + (steal or 0.0)) / wall
    return {
        "seconds": round(wall, 2),
        "cores": cores,
        "own_cores": round(own / wall, 2),
        "other_cores": None if others is None else round(others / wall, 2),
        "stolen_cores": None if steal is None else round(steal / wall, 2),
        "load_before": None if before.load is None else before.load[0],
        "load_after": None if after.load is None else after.load[0],
        "disturbed": taken is not None and taken >= DISTURBED_SHARE * cores,
    }


def describe(machine: dict[str, Any]) -> str:
    """One line for the notes: how busy the machine was."""
    others, stolen = machine["other_cores"], machine["stolen_cores"]
    if others is None:
        return "the machine's load is not known here (no /proc)"
    state = "DISTURBED" if machine["disturbed"] else "quiet"
    return (
        f"{state}: others used {others:.2f} of {machine['cores']} cores, {stolen or 0:.2f} "
        f"stolen, the bench {machine['own_cores']:.2f}; "
        f"load {machine['load_before']:.2f} → {machine['load_after']:.2f}"
    )
