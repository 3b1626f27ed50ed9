"""Nothing stale after a code change: the reports' stamp covers every module that shapes a
deliverable, formats included, although formats are imported by name (``import_module``), which no
static import shows. Before this, an edit of ``formats/slides.py`` or ``kit_charts.py`` printed
"reports: up to date" and kept the old deck byte for byte."""

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from mlperf_report.assemble import build, formats
from mlperf_report.core import paths

ALL = tuple(formats.BUILT_IN)
PLAN = type("P", (), {"round_id": "training-v1.0"})()


def inputs(deliverables) -> set[str]:
    return {str(p.relative_to(paths.ROOT)) if p.is_relative_to(paths.ROOT) else str(p)
            for p in build.report_inputs(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, deliverables)}


@pytest.mark.parametrize("name", ALL)
def test_each_format_s_module_is_an_input_of_the_reports_that_choose_it(name):
    assert f"mlperf_report/assemble/formats/{name}.py" in inputs((name,))
    assert f"mlperf_report/assemble/formats/{name}.py" not in inputs(()), "only the formats chosen are inputs"


@pytest.mark.parametrize("name", ["slides", "cards", "brief"])
def test_the_press_kit_s_chart_and_text_fitting_code_shapes_its_formats(name):
    chosen = inputs((name,))
    assert {"mlperf_report/assemble/kit_charts.py", "mlperf_report/assemble/kit.py"} <= chosen


def test_every_assemble_module_but_the_batch_and_process_plumbing_is_covered():
    everything = inputs(ALL)
    modules = {str(p.relative_to(paths.ROOT)) for p in (paths.ROOT / "mlperf_report" / "assemble").rglob("*.py")}
    plumbing = {"mlperf_report/assemble/batch.py", "mlperf_report/assemble/fork_server.py",
                "mlperf_report/assemble/compile_templates.py"}
    assert modules - everything == plumbing


def test_a_plug_in_format_edited_in_a_copy_changes_the_digest(tmp_path, monkeypatch):
    source = Path(__file__).with_name("toy_format.py")
    copy = tmp_path / "toy_format_copy.py"
    shutil.copy(source, copy)
    spec = importlib.util.spec_from_file_location("toy_format_copy", copy)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "toy_format_copy", module)
    formats.register(module)
    try:
        def digest() -> str:
            files = build.report_inputs(PLAN, [], paths.PRICES, paths.REPORT_CONFIG, (module.name,))
            assert copy in files
            return build._digest(files, {})
        before = digest()
        copy.write_text(copy.read_text() + "\n# a changed margin\n")
        assert digest() != before
    finally:
        formats.unregister(module.name)


def test_an_upgraded_drawing_or_print_package_makes_the_reports_stale():
    versions = build.shaping_versions()
    assert set(versions) == set(build.SHAPING_PACKAGES)
    import matplotlib
    import pptx
    import weasyprint
    assert versions["matplotlib"] == matplotlib.__version__
    assert versions["python-pptx"] == pptx.__version__
    assert versions["weasyprint"] == weasyprint.__version__
