"""The plan carries the typed configuration, resolved once: ``make_plan`` applies the command line's
options to report.yaml and hands the result to every later stage (``Plan.config``); the assembly reads
it and never report.yaml again (a configuration file gone after planning does not matter), and an
override it already holds changes nothing."""

from __future__ import annotations

import dataclasses

import yaml

from mlperf_report.assemble.build import plan_config
from mlperf_report.core import paths
from mlperf_report.suites.planner import make_plan


def test_the_plan_carries_the_configuration_with_the_options_applied(tmp_path):
    config_file = tmp_path / "report.yaml"
    raw = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    config_file.write_text(yaml.safe_dump({**raw, "deliverables": ["html", "slides"]}, allow_unicode=True),
                           encoding="utf-8")
    plan = make_plan(round_id="training-v1.0", benchmarks=["resnet"], config_file=config_file, languages=["en"],
                     focus_submitter="NVIDIA", output_dir=tmp_path / "out", jobs=1)
    config = plan.config
    assert (config.round, config.languages, config.focus_submitter) == ("training-v1.0", ("en",), "NVIDIA")
    assert config.focus_accelerator == "" and config.deliverables == ("html", "slides")
    config_file.unlink()  # read once, by the planner
    assert plan_config(plan, config_file) is config
    assert plan_config(plan, config_file, languages=["en"], focus_submitter="NVIDIA") is config
    assert plan_config(plan, config_file, focus_submitter="Dell").focus_submitter == "Dell"


def test_a_plan_made_without_a_configuration_reads_the_file():
    plan = make_plan(round_id="training-v1.0", benchmarks=["resnet"], jobs=1)
    bare = dataclasses.replace(plan, config=None)
    assert plan_config(bare, paths.REPORT_CONFIG, languages=["zh-Hant"]).languages == ("zh-Hant",)
