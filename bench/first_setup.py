#!/usr/bin/env python3
"""A newcomer's first minutes: a fresh clone of the last commit, with cold package caches, runs
``make venv`` and ``make report`` (and, with ``--test``, ``make test`` after them).

Cold means what a new machine has: uv, pip and matplotlib get empty cache folders of their own
(``UV_CACHE_DIR``, ``PIP_CACHE_DIR``, ``MPLCONFIGDIR``, ``XDG_CACHE_HOME``), so every package is
downloaded and unpacked again; the user's own caches are left alone. The clone has no ``.cache/``.
The Debian packages ``make test`` installs are not removed (apt is the machine's, not the clone's).

    python3 bench/first_setup.py [--test] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(argv: list[str], cwd: Path, env: dict) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{' '.join(argv)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return time.perf_counter() - started


def one_run(test: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="first-setup-") as tmp:
        tmp = Path(tmp)
        subprocess.run(["git", "clone", "-q", str(ROOT), str(tmp / "repo")], check=True)
        shared = ROOT.parent / "shared"
        if shared.is_dir():  # the real-round tests read ../shared, as in the work tree
            (tmp / "shared").symlink_to(shared)
        env = dict(os.environ)
        for name in ("UV_CACHE_DIR", "PIP_CACHE_DIR", "MPLCONFIGDIR", "XDG_CACHE_HOME"):
            env[name] = str(tmp / name.lower())
        env.pop("MLPERF_REPORT_CACHE", None)
        repo = tmp / "repo"
        times = {"make venv": timed(["make", "venv"], repo, env)}
        times["make report (after venv)"] = timed(["make", "report"], repo, env)
        times["make report, cold"] = times["make venv"] + times["make report (after venv)"]
        if test:
            times["make test (after report)"] = timed(["make", "test"], repo, env)
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--test", action="store_true", help="time make test after make report")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    print(f"machine: {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}; "
          f"commit {commit.strip()}")
    for run in range(args.repeat):
        times = one_run(args.test)
        print(f"run {run + 1}: " + "; ".join(f"{name} {seconds:.1f} s" for name, seconds in times.items()))


if __name__ == "__main__":
    main()
