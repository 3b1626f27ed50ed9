"""Property-based tests (hypothesis) over the parts that read third-party input: the MLLOG line
scanner, the systems JSON reader, the archive lister and the name-to-chart path.

``make test`` runs a few hundred inputs per property; ``make fuzz`` (bench/fuzz.py) runs the same
properties with the ``fuzz`` profile, over 100,000 inputs in all, and prints the figures recorded in
docs/FUZZING.md. Each property counts the inputs it was given in ``TRIED``.
"""

from __future__ import annotations

import io
import json
import math
import os
import tarfile
import tempfile
import unicodedata
import zipfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mlperf_report.core import limits
from mlperf_report.core.sources import Entry, listing_of, unsafe_reason
from mlperf_report.ingest.systems import SystemJsonError, parse_system
from mlperf_report.suites.training.mllog import scan_buffer, scan_stream
from mlperf_report.suites.training.tree import classify

#: inputs tried per property (read by bench/fuzz.py)
TRIED: Counter[str] = Counter()
#: the share of the fuzz budget each property gets (drawing a chart is ~1000x slower than the rest)
FUZZ_WEIGHT = {"mllog": 0.3, "systems": 0.3, "endpoints": 0.1, "lister": 0.25, "zip": 0.075, "tar": 0.075, "label": 0.3,
               "chart": 0.0015}

_SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("default", max_examples=150, deadline=None, suppress_health_check=_SLOW)
settings.register_profile("fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", 40_000)), deadline=None,
                          suppress_health_check=_SLOW, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _examples(name: str) -> settings:
    """The current profile, with this property's share of the fuzz budget under ``fuzz``."""
    if os.environ.get("HYPOTHESIS_PROFILE") != "fuzz":
        return settings(max_examples=20 if name == "chart" else 150)
    return settings(max_examples=max(50, int(settings.default.max_examples * FUZZ_WEIGHT[name] / 0.3)))


# --- MLLOG lines ------------------------------------------------------------------------------------

_KEYS = st.sampled_from(["run_start", "run_stop", "seed", "global_batch_size", "train_samples",
                         "submission_division", "submission_benchmark", "submission_org", "eval_accuracy"])
_NUMBERS = st.one_of(st.integers(-(10**20), 10**20), st.floats(allow_nan=True, allow_infinity=True),
                     st.sampled_from(["Infinity", "-Infinity", "NaN", "1e308", "1e999", "-0", "true", "null"]))
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                     max_leaves=5)


@st.composite
def mllog_lines(draw) -> bytes:
    key = draw(_KEYS)
    time_ms = draw(_NUMBERS)
    time_text = time_ms if isinstance(time_ms, str) else json.dumps(time_ms)
    status = draw(st.sampled_from(["success", "aborted", "", None]))
    value = json.dumps(draw(_JSON))
    line = (f':::MLLOG {{"namespace": "", "time_ms": {time_text}, "event_type": "POINT_IN_TIME", '
            f'"key": "{key}", "value": {value}, "metadata": {{"status": {json.dumps(status)}}}}}')
    mangle = draw(st.sampled_from(["none", "cut", "deep", "bytes", "prefix"]))
    data = line.encode("utf-8", "surrogatepass")
    if mangle == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    elif mangle == "deep":
        depth = draw(st.integers(60, 3000))
        data = data.replace(b'"value": ', b'"value": ' + b"[" * depth, 1) + b"]" * draw(st.integers(0, depth))
    elif mangle == "bytes":
        data += draw(st.binary(max_size=40))
    elif mangle == "prefix":
        data = draw(st.binary(max_size=40)) + data
    return data


_LOGS = st.lists(st.one_of(mllog_lines(), st.binary(max_size=60), st.text(max_size=60).map(
    lambda t: t.encode("utf-8", "surrogatepass"))), max_size=6).map(
    lambda lines: b"\n".join(lines)) | st.binary(max_size=400)


def _facts_key(facts):
    return (facts.run_start_ms, facts.run_stop_ms, facts.stop_status, repr(sorted(facts.values.items())))


@_examples("mllog")
@given(_LOGS, st.integers(1, 64), st.booleans())
def test_mllog_scanner_never_fails_and_agrees_streamed(log, chunk, newline):
    TRIED["mllog"] += 1
    log = log + (b"\n" if newline else b"")
    whole = scan_buffer(log)
    streamed = scan_stream(io.BytesIO(log), chunk_bytes=chunk)
    assert _facts_key(whole) == _facts_key(streamed)
    for facts in (whole, streamed):
        assert all(isinstance(p, str) for p in facts.problems)
        for time_ms in (facts.run_start_ms, facts.run_stop_ms):
            assert time_ms is None or math.isfinite(time_ms)
        if facts.minutes is not None and facts.run_stop_ms >= facts.run_start_ms:
            assert facts.minutes <= limits.MAX_RUN_MINUTES
        assert facts.bytes_read <= len(log)


# --- systems JSON -------------------------------------------------------------------------------------

_SCALAR = st.none() | st.booleans() | st.text(max_size=12) | _NUMBERS
_SYSTEM_FIELDS = st.fixed_dictionaries({}, optional={
    "submitter": _SCALAR, "division": st.sampled_from(["closed", "open", "close", "Closed ", "x"]) | _SCALAR,
    "system_name": _SCALAR, "status": _SCALAR, "number_of_nodes": _SCALAR,
    "accelerators_per_node": _SCALAR, "host_processors_per_node": _SCALAR, "framework": _SCALAR, "notes": _JSON})


@st.composite
def system_documents(draw) -> bytes:
    kind = draw(st.sampled_from(["object", "json", "bytes", "deep"]))
    if kind == "object":
        return json.dumps(draw(_SYSTEM_FIELDS)).encode("utf-8", "surrogatepass")
    if kind == "json":
        return json.dumps(draw(_JSON)).encode("utf-8", "surrogatepass")
    if kind == "deep":
        depth = draw(st.integers(1, 5000))
        return b'{"submitter": ' + b"[" * depth + b"]" * draw(st.integers(0, depth)) + b"}"
    return draw(st.binary(max_size=300))


@_examples("systems")
@given(system_documents())
def test_systems_reader_returns_a_row_or_a_clear_error(data):
    TRIED["systems"] += 1
    try:
        row, problems = parse_system(data, "sys")
    except SystemJsonError as error:
        assert str(error)
        return
    for count in ("accelerators", "host_processors", "nodes"):
        assert row[count] is None or isinstance(row[count], int)
    assert all(isinstance(p, str) for p in problems)
    json.dumps(row, default=str)


# --- endpoints-harness result files (Inference v6.1+) -------------------------------------------------

_ENDPOINT_FIELDS = st.fixed_dictionaries({}, optional={
    "qps": _JSON, "tps": _JSON, "duration_ns": _JSON, "n_samples_completed": _JSON, "n_samples_failed": _JSON,
    "state": _JSON, "complete": _JSON, "latency": _JSON, "ttft": _JSON, "tpot": _JSON,
    "output_sequence_lengths": _JSON, "accuracy_scores": _JSON, "average_accuracy": _JSON})


@_examples("endpoints")
@example('{"duration_ns": 1.3446449748862746e-40, "n_samples_completed": 2.417259040180167e+259}', None)  # CI: inf
@given(st.one_of(_ENDPOINT_FIELDS.map(json.dumps), _JSON.map(json.dumps), st.text(max_size=60)),
       st.one_of(st.none(), st.text(max_size=60),
                 st.sampled_from(["settings:\n  runtime:\n    min_duration_ms: x\n", "settings: 5\n",
                                  "settings:\n  runtime: [1]\n"])))
def test_endpoints_reader_returns_a_summary_or_a_clear_error(text, config):
    from mlperf_report.suites.inference import endpoints

    TRIED["endpoints"] += 1
    try:
        summary = endpoints.parse_result_summary(text, "Offline", config)
    except endpoints.EndpointsError as error:
        assert str(error)
    else:
        assert all(isinstance(v, float) and math.isfinite(v) for v in summary.logged.values())
        assert summary.valid == (not summary.unmet)
    try:
        found = endpoints.accuracy_values(text, ["exact_match", "TOKENS_PER_SAMPLE"])
    except endpoints.EndpointsError as error:
        assert str(error)
    else:
        assert all(math.isfinite(v) for values in found.values() for v in values)


# --- archive lister -----------------------------------------------------------------------------------

_PARTS = st.sampled_from(["..", ".", "", "results", "systems", "Acme", "x1", "resnet", "result_1.txt", "x.json",
                          "C:", "\\"]) | st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)
_NAMES = st.lists(_PARTS, min_size=1, max_size=7).map("/".join) | st.binary(min_size=1, max_size=40).map(
    lambda b: b.decode("utf-8", "surrogateescape"))
_MEMBERS = st.lists(st.tuples(_NAMES, st.integers(0, 2**40), st.sampled_from(["file", "dir", "link"])), max_size=8)


def _check_listing(listing) -> None:
    for entry in listing.entries:
        assert unsafe_reason(entry.name) is None
        parts = entry.name.replace("\\", "/").split("/")
        assert ".." not in parts and not entry.name.startswith("/")
        entry.name.encode("utf-8")
    for name, reason in listing.refused:
        name.encode("utf-8")
        assert reason
    for folder in listing.folders:
        folder.encode("utf-8")
    classify(listing.entries, listing.folders)


@_examples("lister")
@given(_MEMBERS)
def test_lister_keeps_only_safe_recordable_names(members):
    TRIED["lister"] += 1
    _check_listing(listing_of(members))


@_examples("zip")
@given(st.lists(st.tuples(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                                  min_size=1, max_size=40), st.binary(max_size=30)),
                max_size=6, unique_by=lambda member: member[0]))
def test_zip_listing_of_any_names(members):
    TRIED["zip"] += 1
    from mlperf_report.core.sources import ZipSource

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in members:
            zf.writestr(name, data)
    path = _scratch("fuzz.zip", buffer.getvalue())
    source = ZipSource(path)
    try:
        listing = source.list()
        _check_listing(listing)
        for entry in listing.entries:
            with source.open(entry.name) as handle:
                handle.read()
    finally:
        source.close()


@_examples("tar")
@given(st.lists(st.tuples(st.binary(min_size=1, max_size=40), st.binary(max_size=30)), max_size=6))
def test_tar_listing_of_any_names(members):
    TRIED["tar"] += 1
    from mlperf_report.core.sources import TarSource

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT, encoding="utf-8",
                      errors="surrogateescape") as tar:
        for raw, data in members:
            info = tarfile.TarInfo(raw.decode("utf-8", "surrogateescape").replace("\x00", "_"))
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    path = _scratch("fuzz.tar", buffer.getvalue())
    listing = TarSource(path).list()
    _check_listing(listing)


_SCRATCH = tempfile.TemporaryDirectory(prefix="mlperf-report-fuzz-")  # removed when the run ends


def _scratch(name: str, data: bytes):
    path = Path(_SCRATCH.name) / name
    path.write_bytes(data)
    return path


# --- names to charts ----------------------------------------------------------------------------------

_ANY_TEXT = st.text(max_size=200) | st.text(st.sampled_from("$\\^_{}%#&~<>\"'()url:/超級電腦🚀\u200b\u202e\n\t\x00"),
                                              max_size=200)


@_examples("label")
@given(_ANY_TEXT)
def test_any_name_becomes_drawable_bounded_text(name):
    TRIED["label"] += 1
    from mlperf_report.analysis.chart_text import chart_text, drawable

    text = chart_text(name)
    assert len(text) <= limits.MAX_LABEL_CHARS
    assert all(ord(c) in drawable() or c == " " for c in text)
    assert not any(unicodedata.category(c) == "Cc" for c in text)
    assert text == name or len(name) > limits.MAX_LABEL_CHARS or any(
        ord(c) not in drawable() or unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in name)


@_examples("chart")
@given(_ANY_TEXT, st.sampled_from(["en", "zh-Hant"]))
def test_any_name_is_drawn_without_error(name, lang):
    """The whole path: a name in a chart's data, drawn in the house style (where a missing glyph is an
    error) to SVG."""
    TRIED["chart"] += 1
    import pandas as pd

    from mlperf_report.analysis import outputs
    from mlperf_report.suites.training import charts

    data = pd.DataFrame([{"division": "closed", "submitter": name, "system_id": "s", "system_name": name,
                          "display_name": name, "score_min": 12.5, "benchmark": "resnet", "accelerators": 8}])
    svg = outputs.chart_svg(charts.time_to_train, lang=lang, rows=1, data=data,
                            colours=charts.result_colours(data, focus=name), benchmark=name)
    assert svg.startswith("<?xml")
