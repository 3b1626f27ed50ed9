"""Suite-wide hygiene. The caches (compliance verdicts, assembled PDFs, git clones) go to a folder of
this test session, never the checkout's .cache/, so no run reads what an earlier one left there; it is
set before any test module imports ``mlperf_report.core.paths``, and build.py subprocesses inherit it.
And a session that changed anything under the checkout's output/, data/ or .cache/ fails: tests write
only under tmp_path."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

_CACHE = "MLPERF_REPORT_CACHE"
_ROOT = Path(__file__).resolve().parents[1]
_GUARDED = ("output", "data", ".cache")


def _snapshot() -> dict[str, tuple[int, int]]:
    files = {}
    for name in _GUARDED:
        for folder, _dirs, names in os.walk(_ROOT / name):
            for file in names:
                path = Path(folder) / file
                try:
                    stat = path.stat()
                except OSError:
                    continue
                files[str(path.relative_to(_ROOT))] = (stat.st_size, stat.st_mtime_ns)
    return files


def pytest_configure(config):
    config._mlperf_cache = tempfile.mkdtemp(prefix="mlperf-report-test-cache-")
    os.environ[_CACHE] = config._mlperf_cache
    config._mlperf_checkout = _snapshot()


def pytest_sessionfinish(session, exitstatus):
    before = getattr(session.config, "_mlperf_checkout", None)
    if before is None or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    after = _snapshot()
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        text = (f"the tests changed {len(changed)} file(s) in the checkout (tests write only under tmp_path): "
                + ", ".join(changed[:10]))
        if reporter:
            reporter.write_line(text, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config):
    folder = getattr(config, "_mlperf_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get(_CACHE) == folder:
            del os.environ[_CACHE]
