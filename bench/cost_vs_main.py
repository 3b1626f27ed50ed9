#!/usr/bin/env python3
"""This checkout's cost against another checkout's (issue 45: "today's main"), side by side in one run:
the cold default build of each, alternating (base, this, base, this, ...) so that the load of a shared
machine falls on both alike, best of N; then, with ``--batch``, every submitter's Training v4.1
(``build.py report --round training-v4.1 --focus-each submitters``), once each, alternating too. Each
build's wall and CPU seconds and its largest process's peak RSS (the tree polled every 0.1 s, as
``inference_build.measured_build`` does).

    .venv/bin/python bench/cost_vs_main.py --base /tmp/base [--repeat 3] [--batch [--batch-repeat 2]]

The base checkout needs a venv of its own (``make venv`` there): each build runs with its checkout's
``.venv/bin/python``. Cold = a fresh output folder, no executed notebooks, no assembly cache, no chart
memo (the same folders ``build_speed.py`` clears, in each checkout).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import inference_build  # noqa: E402

HERE = Path(__file__).resolve().parent.parent


def cold_build(root: Path, extra: list[str]) -> dict:
    """One cold build of ``root`` with its own venv: ``measured_build``'s figures."""
    with tempfile.TemporaryDirectory() as out:
        for cache in ("assemble", "charts"):
            shutil.rmtree(root / ".cache" / cache, ignore_errors=True)
        inference_build.ROOT = root  # measured_build runs from ROOT
        argv = [str(root / ".venv" / "bin" / "python"), "build.py", "report", "--output-dir", out, *extra]
        return inference_build.measured_build(argv)


def side_by_side(roots: dict[str, Path], extra: list[str], repeat: int) -> dict[str, list[dict]]:
    runs: dict[str, list[dict]] = {name: [] for name in roots}
    for _ in range(repeat):
        for name, root in roots.items():
            runs[name].append(cold_build(root, extra))
    return runs


def report(title: str, runs: dict[str, list[dict]]) -> None:
    print(f"{title}:")
    best = {name: min(r["wall"] for r in rs) for name, rs in runs.items()}
    for name, rs in runs.items():
        walls = ", ".join(f"{r['wall']:.1f}" for r in rs)
        cpu = min(r["cpu"] for r in rs)
        peak = max(r["peak_one"] for r in rs) / 2**20
        kind = max(rs, key=lambda r: r["peak_one"])["peak_one_kind"]
        print(f"  {name:<5} best {best[name]:.1f} s wall (runs: {walls}); least CPU {cpu:.1f} s; "
              f"largest process {peak:.0f} MB ({kind})")
    cpu = {name: min(r["cpu"] for r in rs) for name, rs in runs.items()}
    median = {name: statistics.median(r["wall"] for r in rs) for name, rs in runs.items()}
    print(f"  this / base: best wall {best['this'] / best['base']:.2f}x, median wall "
          f"{median['this'] / median['base']:.2f}x, least CPU {cpu['this'] / cpu['base']:.2f}x "
          "(CPU is the steadier yardstick on a shared machine)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout (with its .venv)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch", action="store_true", help="also every submitter of Training v4.1, once each")
    parser.add_argument("--batch-only", action="store_true", help="only the batch")
    parser.add_argument("--batch-repeat", type=int, default=1,
                        help="batch builds of each checkout, alternating (default 1: one run of each spread by "
                             "13%% on a shared machine; best of 2 or 3 tells 0.8x from 0.85x)")
    args = parser.parse_args()
    roots = {"base": args.base.resolve(), "this": HERE}
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}; load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if not args.batch_only:
        report(f"cold default build, best of {args.repeat}, alternating", side_by_side(roots, [], args.repeat))
    if args.batch or args.batch_only:
        batch = ["--round", "training-v4.1", "--focus-each", "submitters"]
        each = "once each" if args.batch_repeat <= 1 else f"best of {args.batch_repeat}, alternating"
        report(f"every submitter of Training v4.1, cold, {each}", side_by_side(roots, batch, max(args.batch_repeat, 1)))
    print(f"load average after {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
