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


# --- shared tables: each kind is written once per session (read-only), or fresh for a test that edits it ---

@pytest.fixture(scope="session")
def training_tables(tmp_path_factory) -> Path:
    """The synthetic Training v0.7 + v1.0 round tables (``synthetic_round.write_tree``)."""
    from synthetic_round import write_tree

    return write_tree(tmp_path_factory.mktemp("training-tables"))


@pytest.fixture
def fresh_training_tables(tmp_path) -> Path:
    """The same tables in this test's own folder, for a test that edits them."""
    from synthetic_round import write_tree

    return write_tree(tmp_path / "data")


@pytest.fixture(scope="session")
def v5_tables(tmp_path_factory) -> Path:
    """A synthetic Training v5.0 round with two accelerator vendors (``synthetic_round.write_v5_round``)."""
    from synthetic_round import write_v5_round

    return write_v5_round(tmp_path_factory.mktemp("v5-tables"))


@pytest.fixture(scope="session")
def inference_tables(tmp_path_factory) -> Path:
    """A small Inference v4.1 tree (``inference_trees.inference_tree``) ingested by the real ingest."""
    from tests.inference_trees import inference_tree
    from mlperf_report.core.sources import open_source
    from mlperf_report.suites.inference.ingest import ingest, write_tables
    from mlperf_report.suites.inference.rounds import parse_round

    root = tmp_path_factory.mktemp("inference-tables")
    source, facts = open_source(str(inference_tree(root / "tree")))
    try:
        write_tables(ingest(source, facts, parse_round("inference-v4.1")), root / "data" / "inference-v4.1")
    finally:
        source.close()
    return root / "data"


@pytest.fixture(scope="session")
def report_only_config(tmp_path_factory) -> Path:
    """data/report.yaml with ``deliverables: [html, pdf]``: for the build tests about notebooks, focus
    and caching, which need the report and not the press kit (the kit's own tests build it whole)."""
    import yaml

    from mlperf_report.core import paths

    config = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    config["deliverables"] = ["html", "pdf"]
    path = tmp_path_factory.mktemp("report-only") / "report.yaml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path
