"""How long assembling a round's reports takes: both languages, HTML + PDF.

Usage: python bench/report_speed.py [NOTEBOOK_DIR] [--charts N]
Without NOTEBOOK_DIR it makes a stand-in round (8 benchmarks + summary, N charts per benchmark and
language, default 5) in a temporary folder; with it, it assembles those executed notebooks (for
example output/training-v1.0/notebooks). Prints import, per-step and per-language times: cold (empty font and PDF
cache) one language after the other and both at once (two processes), warm (nothing changed), and
the sizes of the files.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

BENCHMARKS = ("bert", "dlrm", "maskrcnn", "minigo", "resnet", "rnnt", "ssd", "unet3d")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="?", type=Path, help="folder of executed notebooks")
    parser.add_argument("--charts", type=int, default=5, help="charts per benchmark and language (stand-in round)")
    args = parser.parse_args()

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    started = time.perf_counter()
    from mlperf_report.assemble import document, report_pools
    import nbconvert  # noqa: F401
    import weasyprint  # noqa: F401
    imports = time.perf_counter() - started
    print(f"imports (assemble, nbconvert, weasyprint): {imports:.2f} s")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if args.notebooks:
            notebooks = sorted(p for p in args.notebooks.glob("*.ipynb") if p.stem != "summary")
            notebooks += [p for p in args.notebooks.glob("summary.ipynb")]
            from report_fixtures import NARRATIVE, NOTES
        else:
            import report_fixtures as rf

            mark = time.perf_counter()
            notebooks = rf.write_notebooks(tmp / "notebooks", benchmarks=BENCHMARKS, charts=args.charts)
            print(f"stand-in notebooks ({len(notebooks)}, {args.charts} charts per benchmark and language): "
                  f"{time.perf_counter() - mark:.2f} s (not part of the build)")
            NARRATIVE, NOTES = rf.NARRATIVE, rf.NOTES
        requests = [document.ReportRequest("training-v1.0", lang, tuple(notebooks), NARRATIVE[lang], NOTES[lang],
                                           tmp / "out", "MLPerf Training v1.0", "2026-12-02",
                                           default_copy=index == 0, cache_dir=tmp / "cache")
                    for index, lang in enumerate(("en", "zh-Hant"))]
        for run, workers in (("cold, one after the other", 1), ("warm (cached), one after the other", 1),
                             ("cold, both languages at once", 2)):
            if run.startswith("cold"):
                shutil.rmtree(tmp / "cache", ignore_errors=True)
            total, cpu = time.perf_counter(), time.process_time()
            reports = report_pools.assemble_reports(requests, workers=workers)
            wall, cpu = time.perf_counter() - total, time.process_time() - cpu
            # CPU time of this process is what an idle machine would take for the in-process runs;
            # the wall time also counts other programs sharing the two cores.
            print(f"{run}: {wall:.2f} s wall" + (f", {cpu:.2f} s CPU" if workers == 1 else ""))
            for report in reports:
                steps = ", ".join(f"{name} {seconds:.2f}" for name, seconds in report.timings.items())
                print(f"  {report.lang:8s} {steps} s | html {report.html_path.stat().st_size / 1e6:.2f} MB,"
                      f" pdf {report.pdf_path.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
