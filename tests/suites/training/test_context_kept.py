"""A kernel reads and prepares a round's tables once for all its notebooks: the same frames as a fresh
load, a copy each time (what one notebook changes the next never sees), and read again as soon as the
table or the price catalogue on disk changes."""

from __future__ import annotations

import os

import pandas as pd

from mlperf_report.core import paths
from mlperf_report.suites.training import context
from synthetic_round import write_tree


def _load(data, prices=paths.PRICES):
    return context.load_benchmark(round_id="training-v1.0", benchmark="resnet", focus_submitter="Graphcore",
                                  data_dir=data, prices_file=prices, config_file=paths.REPORT_CONFIG)


def test_a_second_notebook_gets_the_same_tables_as_a_fresh_load_and_its_own_copy(tmp_path, monkeypatch):
    data = write_tree(tmp_path / "data")
    first = _load(data)
    first.results.loc[:, "score_min"] = -1.0  # a notebook changing its frame in place
    first.runs.iloc[:, 0] = "changed"
    second = _load(data)
    monkeypatch.setattr(context, "_KEPT", {})  # a fresh kernel
    fresh = _load(data)
    pd.testing.assert_frame_equal(second.results, fresh.results)
    pd.testing.assert_frame_equal(second.runs, fresh.runs)
    for round_id, frame in fresh.rounds.items():
        pd.testing.assert_frame_equal(second.rounds[round_id], frame)
    assert (second.results["score_min"] != -1.0).any() and (second.runs.iloc[:, 0] != "changed").all()


def test_a_table_or_catalogue_changed_on_disk_is_read_again(tmp_path):
    data = write_tree(tmp_path / "data")
    before = _load(data)
    results = data / "training-v1.0" / "results.csv"
    frame = pd.read_csv(results, dtype=str, keep_default_na=False)
    frame = frame[frame["benchmark"] != "bert"]
    frame.to_csv(results, index=False)
    os.utime(results, ns=(1, 1))  # whatever its time, a different file
    after = _load(data)
    assert "bert" in set(before.results["benchmark"]) and "bert" not in set(after.results["benchmark"])
    prices = tmp_path / "prices.yaml"
    prices.write_text(paths.PRICES.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    _load(data, prices)  # another catalogue: the frames prepared with it, not the last ones
    identity = context._KEPT[("results", "training-v1.0")][0]
    assert any(str(prices.resolve()) == part[0] for part in identity)
