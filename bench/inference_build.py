#!/usr/bin/env python3
"""The cost of an Inference report: one cold `build.py report` of a round (every model notebook and the
summary, en + zh-Hant, HTML + PDF), with its wall time, CPU time, the peak memory of the build and its
kernels together (the process tree's RSS summed, sampled every 0.1 s) and of its largest process, and
the HTML and PDF size per language. The machine's load average is printed beside the figures: on a
shared machine wall time says little without it.

    .venv/bin/python bench/inference_build.py [--round inference-v4.1] [--focus NVIDIA] [--jobs N]

Cold = a fresh output folder and no assembly cache (the font subsets are made again). Targets (issue
26): within 25 s cold for a 20-benchmark round on 2 cores, within 300 MB, HTML at most 6 MB per language.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent


def _tree_rss(process: psutil.Process, unreaped: dict[int, float]) -> tuple[int, tuple[int, str]]:
    """(sum, (largest, its kind)) RSS in bytes of ``process`` and its descendants now; the kind says
    which process is the largest: the build, a kernel or a pool worker (notebook runner or assembler).
    Also notes in ``unreaped`` the CPU seconds so far of the processes the build never waits for: the
    report fork server and the processes forked from it (their own parent reaps them, and the server
    outlives the build), whose time ``os.times`` of the bench never sees."""
    sizes = []
    for member in [process, *process.children(recursive=True)]:
        try:
            sizes.append((member.memory_info().rss, _kind(member, process)))
            if _assembling(member):
                times = member.cpu_times()
                unreaped[member.pid] = times.user + times.system
        except psutil.Error:  # it ended between the listing and the reading
            pass
    return sum(size for size, _ in sizes), max(sizes, default=(0, ""))


#: The name a fork server forked from the build gives itself and its processes (``forked_server``):
#: they have the build's command, not ``multiprocessing.forkserver``'s.
FORKED_SERVER_NAME = "mlperf-assemble"


def _assembling(member: psutil.Process) -> bool:
    """The report fork server or a process it forked: spawned (its command names it) or forked
    from the build (its name does)."""
    return member.name() == FORKED_SERVER_NAME or "multiprocessing.forkserver" in " ".join(member.cmdline())


def _kind(member: psutil.Process, build: psutil.Process) -> str:
    if member.pid == build.pid:
        return "the build"
    command = " ".join(member.cmdline())
    if "ipykernel_launcher" in command or _session_leader(member):  # a seeded kernel keeps its worker's command
        return "a kernel"
    return "an assembling process" if "multiprocessing" in command or _assembling(member) else "a notebook runner"


def _session_leader(member: psutil.Process) -> bool:
    import os

    try:
        return os.getsid(member.pid) == member.pid
    except OSError:
        return False


def measured_build(argv: list[str]) -> dict:
    """Run ``argv`` from the project root; its wall and CPU seconds and peak RSS (tree sum, largest)."""
    import re
    import tempfile

    started = time.perf_counter()
    before = os.times()
    with tempfile.TemporaryFile() as log:  # a file, never an unread pipe: a long build's progress would fill it
        child = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
        process, peak_sum, peak_one, unreaped = psutil.Process(child.pid), 0, (0, ""), {}
        while child.poll() is None:
            try:
                total, largest = _tree_rss(process, unreaped)
            except psutil.Error:
                break
            peak_sum, peak_one = max(peak_sum, total), max(peak_one, largest)
            time.sleep(0.1)
        child.wait()
        log.seek(0)
        stderr = log.read().decode(errors="replace")
    if child.returncode:
        sys.exit(f"build failed ({child.returncode}):\n{stderr[-2000:]}")
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    cpu += sum(unreaped.values())  # as last seen, at most 0.1 s before each ended
    notebooks = re.search(r"^notebooks: .*\(([0-9.]+) s\)$", stderr, re.M)  # the runner's own total
    return {"wall": time.perf_counter() - started, "cpu": cpu, "peak_sum": peak_sum, "peak_one": peak_one[0],
            "peak_one_kind": peak_one[1],
            "notebooks": float(notebooks.group(1)) if notebooks else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", default="inference-v4.1")
    parser.add_argument("--focus", default="NVIDIA")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--keep", type=Path, help="build into this new folder and keep it (to look at the reports)")
    args = parser.parse_args()
    if args.keep and args.keep.exists():
        parser.error(f"{args.keep} exists: --keep needs a new folder (a cold build)")
    with tempfile.TemporaryDirectory() as temporary:
        out = str(args.keep or temporary)
        shutil.rmtree(ROOT / ".cache" / "assemble", ignore_errors=True)
        shutil.rmtree(ROOT / ".cache" / "charts", ignore_errors=True)  # cold: no chart drawn before
        argv = [sys.executable, "build.py", "report", "--round", args.round, "--focus", args.focus,
                "--output-dir", out, *(["--jobs", str(args.jobs)] if args.jobs else [])]
        load = os.getloadavg()
        figures = measured_build(argv)
        reports = Path(out) / args.round
        sizes = {path.name: path.stat().st_size for path in sorted(reports.glob("report.*.*"))}
        notebooks = len(list((reports / "notebooks").glob("*.ipynb")))
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}; load average before the build {load[0]:.2f} {load[1]:.2f} {load[2]:.2f},"
          f" after {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{args.round} --focus {args.focus}: {notebooks} notebooks, cold build {figures['wall']:.1f} s wall, "
          f"{figures['cpu']:.1f} s CPU (user + sys, kernels included)")
    print(f"peak memory: {figures['peak_sum'] / 2**20:.0f} MB build + kernels together, "
          f"{figures['peak_one'] / 2**20:.0f} MB largest process ({figures['peak_one_kind']})")
    for name, size in sizes.items():
        print(f"  {name}: {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
