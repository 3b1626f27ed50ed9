"""`build.py report` end to end on a small synthetic round: notebooks, narrative, HTML + PDF per language;
an unchanged rebuild skips assembly; a failing notebook keeps the previous reports."""

import subprocess
import sys

from pypdf import PdfReader

from mlperf_report.core import paths
from synthetic_round import write_tree
from test_pipeline import break_runs_table


def _report(data_dir, out, config, *extra):
    return subprocess.run([sys.executable, "build.py", "report", "--round", "training-v1.0", "--benchmarks", "resnet",
                           "--languages", "en,zh-Hant", "--data-dir", str(data_dir), "--output-dir", str(out),
                           "--config", str(config), *extra],
                          cwd=paths.ROOT, capture_output=True, text=True)


def test_report_builds_every_language_then_is_up_to_date_and_survives_a_failure(tmp_path, report_only_config):
    data_dir, out = write_tree(tmp_path / "data"), tmp_path / "out"
    first = _report(data_dir, out, report_only_config)
    assert first.returncode == 0, first.stderr
    round_out = out / "training-v1.0"
    names = ["report.en.html", "report.en.pdf", "report.zh-Hant.html", "report.zh-Hant.pdf", "report.html", "report.pdf"]
    for name in names:
        assert (round_out / name).stat().st_size > 0, name
        assert str(round_out / name) in first.stdout
    assert (round_out / "report.pdf").read_bytes() == (round_out / "report.en.pdf").read_bytes()
    english = (round_out / "report.en.html").read_text()
    assert "14.5" in english and "IPU-POD64" in english  # the synthetic round's ResNet-50 headline
    chinese = "".join(page.extract_text() for page in PdfReader(round_out / "report.zh-Hant.pdf").pages)
    assert "分鐘" in chinese

    again = _report(data_dir, out, report_only_config)
    assert again.returncode == 0 and "reports: up to date" in again.stderr, again.stderr

    before = {name: (round_out / name).read_bytes() for name in names}
    break_runs_table(data_dir)
    failed = _report(data_dir, out, report_only_config)
    assert failed.returncode == 1
    assert "not assembled (a notebook failed)" in failed.stderr and "failed in cell" in failed.stderr
    assert {name: (round_out / name).read_bytes() for name in names} == before
