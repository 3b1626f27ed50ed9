"""The shared Training v4.1 (../shared/mlperf/training_results_v4.1.zip, skipped where absent) given the
summaries MLCommons' own result summarizer writes for it: mlperf-logging's ``summarize_results`` run on
each submitter folder of one unpacked copy (its detailed output, written as its ``main`` writes
summary.json: the schema's types, rows sorted, pandas' ``to_json``), each put as ``<org>/summary.json``
into a second, untouched copy (the summarizer's RCP check writes and removes scaling.json files in the
folder it reads), which is ingested. Every result must read equal. The summarizer takes about 100 s of
CPU (it runs the compliance checker on every file), so it runs once per module, two submitters at a time.
"""

from __future__ import annotations

import contextlib
import io
import json
import zipfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from mlperf_report.core import paths
from mlperf_report.core.sources import open_source
from mlperf_report.ingest.official import official_line
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest

ZIP = paths.SHARED_MLPERF / "training_results_v4.1.zip"
RULESET = "4.1.0"
pytestmark = pytest.mark.skipif(not ZIP.exists(), reason=f"{ZIP} not found")


def summarize(folder: str) -> str:
    """One submitter's summary.json text, as ``python -m mlperf_logging.result_summarizer`` writes it."""
    from mlperf_logging.compliance_checker import mlp_compliance
    from mlperf_logging.result_summarizer import result_summarizer as summarizer

    from mlperf_report.suites.training import checker_speed

    checker_speed.install(mlp_compliance)  # the checker as written, its rule files parsed once (a third of the time)
    with contextlib.redirect_stdout(io.StringIO()):
        _, _, detailed, _ = summarizer.summarize_results(folder, "training", RULESET)
    if len(detailed) == 0:
        return ""
    detailed = detailed.astype(summarizer._get_column_schema("training", RULESET, detailed=True))
    detailed = detailed.sort_values(by=list(detailed.columns))
    return json.dumps(json.loads(detailed.to_json(orient="records")), indent=2)


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    work = tmp_path_factory.mktemp("v41")
    for copy in ("summarized", "ingested"):
        with zipfile.ZipFile(ZIP) as archive:
            archive.extractall(work / copy)
    summarized, ingested = work / "summarized" / "training_results_v4.1", work / "ingested" / "training_results_v4.1"
    orgs = sorted(p.name for p in summarized.iterdir() if (p / "results").is_dir())
    with ProcessPoolExecutor(2) as pool:
        for org, text in zip(orgs, pool.map(summarize, [str(summarized / org) for org in orgs])):
            if text:
                (ingested / org / "summary.json").write_text(text)
    absent = (paths.SHARED_MLPERF / "ABSENT.txt").read_text().splitlines()
    source, facts = open_source(str(ingested))
    try:
        return ingest(source, facts, rounds.parse_round("training-v4.1"), jobs=2, absent=absent), orgs
    finally:
        source.close()


def test_every_result_reads_equal_to_the_summarizers(checked):
    result, orgs = checked
    found = result.manifest["official_summary"]
    assert found["files"] == [f"{org}/summary.json" for org in orgs]
    scored = int((result.results.status == "ok").sum())
    assert official_line(result.manifest) == f"official summary: {scored} compared, {scored} equal, 0 differ, 0 only here, 0 only there"
    assert scored > 150 and len(result.tables["official_check.csv"]) == 0
    assert found["official_times_used"] == []
    assert not [p for p in result.problems if p["file"].endswith("summary.json")]

