"""A current round end to end (../shared/mlperf/training_results_v4.1.zip, skipped where absent):
ingest into a temporary folder, then `build.py report` with a submitter, an accelerator and no focus,
and a focus absent from the round stopping in the plan."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from pypdf import PdfReader

from mlperf_report.core import paths

ZIP = paths.SHARED_MLPERF / "training_results_v4.1.zip"
ROUND = "training-v4.1"
pytestmark = pytest.mark.skipif(not ZIP.exists(), reason=f"{ZIP} not found")


def build(*args: str, cwd=paths.ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "build.py", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    done = build("ingest", str(ZIP), "--out", str(data / ROUND), "--absent", str(paths.SHARED_MLPERF / "ABSENT.txt"))
    assert done.returncode == 0, done.stderr
    return data


def report(data_dir, out, *focus: str, languages: str = "en", config=None) -> subprocess.CompletedProcess:
    return build("report", "--round", ROUND, "--data-dir", str(data_dir), "--output-dir", str(out),
                 "--benchmarks", "bert", "--languages", languages, *focus, *(("--config", str(config)) if config else ()))


def pdf_text(path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_the_configured_focus_is_absent_so_the_plan_lists_the_submitters(data_dir, tmp_path):
    done = report(data_dir, tmp_path)            # report.yaml's focus is Graphcore, not in v4.1
    assert done.returncode != 0
    assert "--focus Graphcore: no scored result" in done.stderr and re.search(r"NVIDIA \(\d+\)", done.stderr)
    assert "notebooks:" not in done.stderr       # stopped before any kernel
    assert not list(tmp_path.rglob("*.ipynb"))


@pytest.mark.parametrize("focus, expected", [
    (("--focus", "Dell"), r"with 8 accelerators"),
    (("--focus-accelerator", "H200"), r"submitters \(.*\) entered MLPerf® Training v4\.1 results on systems built on H200"),
    (("--focus", "none"), r"The round at a glance"),
])
def test_reports_for_a_submitter_an_accelerator_and_no_focus(data_dir, tmp_path, focus, expected, report_only_config):
    done = report(data_dir, tmp_path, *focus, config=report_only_config)
    assert done.returncode == 0, done.stderr
    html = (tmp_path / ROUND / "report.en.html").read_text(encoding="utf-8")
    assert re.search(expected, html), expected
    assert "training_results_v4.1" in html and "training_results_v1.0" not in html
    assert not re.search(r"\bNone\b|\bnan\b|\{\{", html)
    text = pdf_text(tmp_path / ROUND / "report.en.pdf")
    assert "no price" not in text.lower().replace("no price is on file", "")
