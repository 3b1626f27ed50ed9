"""build.py's wiring: help lists every stage, `all` chains the stages it stands for and stops at a failure."""

import argparse
import subprocess
import sys
from pathlib import Path

from mlperf_report.cli import all as all_cli

ROOT = Path(__file__).resolve().parents[2]


def _all_args(argv):
    parser = argparse.ArgumentParser()
    all_cli.configure_parser(parser)
    return parser.parse_args(argv)


def test_help_lists_every_stage_without_importing_them():
    done = subprocess.run([sys.executable, "build.py", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0
    for stage in ("ingest", "report", "send", "all"):
        assert stage in done.stdout
    code = "import sys; from mlperf_report.cli.main import build_parser; build_parser(); print('pandas' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True).stdout.strip() == "False"


def test_all_chains_ingest_report_and_send():
    args = _all_args(["tree.zip", "--benchmarks", "resnet", "--send", "--list", "press", "--dry-run", "-j", "2"])
    assert all_cli.stage_argvs(args, "training-v1.0") == [
        ["ingest", "tree.zip", "--round", "training-v1.0", "--jobs", "2"],
        ["report", "--round", "training-v1.0", "--benchmarks", "resnet", "--jobs", "2"],
        ["send", "--round", "training-v1.0", "--list", "press", "--dry-run"],
    ]
    assert all_cli.stage_argvs(_all_args([]), None) == [["report"]]
    args = _all_args(["tree.zip", "--data-dir", "/t/data", "--output-dir", "/t/out", "--send", "--dry-run"])
    assert all_cli.stage_argvs(args, "training-v1.0") == [
        ["ingest", "tree.zip", "--round", "training-v1.0", "--out", "/t/data/training-v1.0"],
        ["report", "--round", "training-v1.0", "--data-dir", "/t/data", "--output-dir", "/t/out"],
        ["send", "--round", "training-v1.0", "--dry-run", "--data-dir", "/t/data", "--output-dir", "/t/out"],
    ]


def test_all_stops_at_the_first_failing_stage(tmp_path):
    (tmp_path / "training_results_v1.0").mkdir()
    done = subprocess.run([sys.executable, "build.py", "all", str(tmp_path / "training_results_v1.0"), "--send",
                           "--data-dir", str(tmp_path / "data"), "--output-dir", str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2
    assert "no result files found" in done.stderr and "stopped after `ingest`" in done.stdout
    assert "notebooks:" not in done.stderr
    assert not (tmp_path / "data").exists() and not (tmp_path / "out").exists()
