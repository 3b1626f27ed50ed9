#!/usr/bin/env python3
"""End to end: the default round (every benchmark, both languages, HTML + PDF) from a cold start, then
a rebuild with nothing changed. Cold = no executed notebooks, no reports, no chart memo, no assembly
cache. What `make venv` installs stays, as after any install: the packages, their bytecode, matplotlib's
font list, the font base copies of ``.cache/fonts/`` (``python -m mlperf_report.i18n.fonts``) and the
compiled templates of ``.cache/jinja/`` (``python -m mlperf_report.assemble.compile_templates``).

    .venv/bin/python bench/build_speed.py [--repeat 2]
    .venv/bin/python bench/build_speed.py --source ../shared/mlperf/training_results_v4.1.zip --focus NVIDIA

``--source`` ingests that round into a temporary data folder first (not timed) and builds it.
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


def _ingested(source: str, data: Path) -> list[str]:
    """Ingest ``source`` into ``data/<round>/``; the report options that build it."""
    import re

    version = re.search(r"v(\d+\.\d+)", Path(source).name).group(1)
    round_id = f"training-v{version}"
    absent = Path(source).parent / "ABSENT.txt"
    subprocess.run([sys.executable, "build.py", "ingest", source, "--out", str(data / round_id), "--quiet",
                    *(["--absent", str(absent)] if absent.exists() else [])], cwd=ROOT, check=True)
    return ["--round", round_id, "--data-dir", str(data)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--source", help="results archive of another round, ingested first (not timed)")
    parser.add_argument("--focus", help="--focus for the build (default: report.yaml's)")
    args = parser.parse_args()
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as data:
        extra = _ingested(args.source, Path(data)) if args.source else []
        extra += ["--focus", args.focus] if args.focus else []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as out:
                shutil.rmtree(ROOT / ".cache" / "assemble", ignore_errors=True)
                shutil.rmtree(ROOT / ".cache" / "charts", ignore_errors=True)  # cold: no chart drawn before
                command = [sys.executable, "build.py", "report", "--output-dir", out, *extra]
                cold.append(timed(command))
                warm.append(timed(command))
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}")
    what = " ".join(extra) or "default round"
    print(f"{what}, cold build (notebooks + narrative + 2 x HTML/PDF): best {min(cold):.1f} s of {args.repeat}")
    print(f"rebuild with nothing changed: best {min(warm):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
