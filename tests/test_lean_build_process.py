"""The build's own process never imports pandas (nor matplotlib): it plans, runs the notebooks through
papermill, renders the narrative and names the claims from the figures the notebooks wrote, and hands
the reports to the assembling processes. pandas alone was 0.3 s of CPU there, spent after the last
notebook and before the first report could start."""

from __future__ import annotations

import json
import subprocess
import sys

from mlperf_report.core import paths

#: What the build's process imports for a report (the command, the assembly's entry, every format,
#: each suite's narrative, citations and lead claims).
_IMPORTED = ("mlperf_report.cli.main", "mlperf_report.cli.report", "mlperf_report.assemble.build",
             "mlperf_report.assemble.document", "mlperf_report.assemble.kit", "mlperf_report.assemble.formats",
             "mlperf_report.suites.training.suite", "mlperf_report.suites.training.narrative",
             "mlperf_report.suites.training.citing", "mlperf_report.suites.inference.suite",
             "mlperf_report.analysis.story", "mlperf_report.analysis.bar_labels", "mlperf_report.analysis.names")


def test_the_build_s_own_modules_import_no_pandas():
    code = ("import importlib, json, sys\n"
            f"for name in {_IMPORTED!r}:\n    importlib.import_module(name)\n"
            "from mlperf_report.assemble import formats\n"
            "formats.chosen(tuple(formats.names()))\n"
            "print(json.dumps(sorted(m for m in ('pandas', 'matplotlib', 'weasyprint', 'numpy') if m in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], cwd=paths.ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
