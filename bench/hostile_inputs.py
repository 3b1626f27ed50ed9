#!/usr/bin/env python3
"""Ingest time and peak memory on the hostile archives of issue 12 (each built here, in a temp folder):

* a zip whose result log inflates to 512 MB with no newline (was 22 s and 1.1 GB);
* a zip whose systems JSON inflates to 200 MB (was 1.5 GB);
* a zip with a 300 MB log line holding ``run_stop`` (was 1.3 GB).

Each runs in a fresh process; peak memory is that process's max RSS. The figures go in
docs/PERFORMANCE.md.

    .venv/bin/python bench/hostile_inputs.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

PROBE = r"""
import json, sys, time
def peak_mb():  # VmHWM: this program's own peak (ru_maxrss would include the parent it was forked from)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest
started = time.perf_counter()
source, facts = open_source(sys.argv[1])
res = ingest(source, facts, rounds.parse_round("training-v1.0"), jobs=1)
print(json.dumps({"seconds": time.perf_counter() - started,
                  "peak_mb": peak_mb(),
                  "scored": res.manifest["counts"]["scored"], "problems": len(res.problems)}))
"""
MB = 1 << 20


def _write(zf: zipfile.ZipFile, name: str, parts) -> None:
    with zf.open(name, "w") as member:
        for part in parts:
            member.write(part)


def build(folder: Path) -> dict[str, Path]:
    from trees import good_tree, run_log

    tree = good_tree(folder / "tree")
    cases = {"endless line (512 MB, no newline)": ("Acme/results/x1/resnet/result_9.txt", [b"A" * MB] * 512),
             "systems JSON inflating to 200 MB": ("Acme/systems/x1.json",
                                                 [b'{"submitter": "', *[b"x" * MB] * 200, b'"}']),
             "300 MB line holding run_stop": ("Acme/results/x1/resnet/result_8.txt",
                                              [run_log(None).encode(), b':::MLLOG {"key": "run_stop", "value": "',
                                               *[b"B" * MB] * 300, b'"}\n'])}
    zips = {}
    for i, (label, (name, parts)) in enumerate(cases.items()):
        path = folder / f"case{i}.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for file in sorted(p for p in tree.rglob("*") if p.is_file() and str(p.relative_to(tree)) != name):
                zf.write(file, str(file.relative_to(tree)))
            _write(zf, name, parts)
        zips[label] = path
    return zips


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        for label, path in build(Path(tmp)).items():
            done = subprocess.run([sys.executable, "-c", PROBE, str(path)], cwd=ROOT, capture_output=True, text=True)
            if done.returncode:
                print(f"{label}: FAILED\n{done.stderr[-2000:]}")
                return 1
            figures = json.loads(done.stdout)
            print(f"{label:<36} zip {path.stat().st_size / 1024:>6.0f} KB  {figures['seconds']:5.1f} s  "
                  f"peak {figures['peak_mb']:4.0f} MB  scored {figures['scored']}  problems {figures['problems']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
