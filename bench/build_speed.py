#!/usr/bin/env python3
"""End to end: the default round (every benchmark, both languages, HTML + PDF) from a cold start, then
a rebuild with nothing changed. Cold = no executed notebooks, no reports, no assembly cache.

    .venv/bin/python bench/build_speed.py [--repeat 2]
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

ROOT = Path(__file__).resolve().parent.parent


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    cold, warm = [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as out:
            shutil.rmtree(ROOT / ".cache" / "assemble", ignore_errors=True)
            command = [sys.executable, "build.py", "report", "--output-dir", out]
            cold.append(timed(command))
            warm.append(timed(command))
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"default round, cold build (notebooks + narrative + 2 x HTML/PDF): best {min(cold):.1f} s of {args.repeat}")
    print(f"rebuild with nothing changed: best {min(warm):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
