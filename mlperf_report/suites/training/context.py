"""What a benchmark notebook works on: the round's tables, prices and configuration, loaded once.

The notebook reads its parameters, calls :func:`load_benchmark`, and then only draws: every frame a
chart or table shows is a property here, computed by ``metrics`` (so the notebook stays a few lines a
cell and the same frames feed figures.json).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mlperf_report.analysis import chart_rows, comparisons
from mlperf_report.suites.training import figures
from mlperf_report.suites.training import metrics
from mlperf_report.suites.training import round_tables
from mlperf_report.core.config import Focus, ReportConfig, load_config
from mlperf_report.core.prices import Catalogue, load_prices
from mlperf_report.core.rounds import latest_before, parse_round_id, rounds_up_to
from mlperf_report.suites.training.rounds import benchmark_model


#: At most this many focus systems in the run-to-run spread chart (an accelerator's partners can
#: bring dozens; the chart stays readable on one page).
SPREAD_SYSTEMS = 8
#: Inches per bar in the time-to-train and energy charts (single-line names at 8 pt).
BAR_ROW = 0.2


@dataclass
class BenchmarkAnalysis:
    round_id: str
    benchmark: str
    division: str
    focus: Focus
    config: ReportConfig
    catalogue: Catalogue
    results: pd.DataFrame             # this round, every benchmark, prepared
    runs: pd.DataFrame                # this round's runs
    rounds: dict[str, pd.DataFrame]   # prepared results of this and every earlier round present
    baseline_system: str | None = None

    @property
    def title(self) -> str:
        return benchmark_model(self.benchmark, self.round_id)

    @property
    def entries(self) -> pd.DataFrame:
        """Every entry of this benchmark, scored or not."""
        return self.results[self.results["benchmark"] == self.benchmark].reset_index(drop=True)

    @functools.cached_property
    def scored(self) -> pd.DataFrame:
        return metrics.scored(self.results, benchmark=self.benchmark)

    @functools.cached_property
    def shown(self) -> pd.DataFrame:
        """The scored results the time-to-train chart shows: all of them, or in a crowded benchmark
        the focus's, the leaders and the nearest rivals (``chart_rows``; the exhibits list the rest)."""
        return self.shown_of(self.scored)

    @property
    def hidden(self) -> int:
        """Scored results the time-to-train chart leaves out."""
        return len(self.scored) - len(self.shown)

    def shown_of(self, data: pd.DataFrame, budget: int = chart_rows.MAX_BARS, value: str = "score_min") -> pd.DataFrame:
        """``chart_rows``' choice among ``data``'s results (ranked by ``value``, lower first), the
        baseline kept."""
        keys = list(zip(data["submitter"].astype(str), data["system_id"].astype(str)))
        mask = chart_rows.shown(data, mine=[key in self.focus_keys for key in keys], value=value,
                                keep=[key == self.baseline_key for key in keys], budget=budget)
        return data[mask]

    @functools.cached_property
    def equal_scale_shown(self) -> pd.DataFrame:
        """The like-for-like table's rows, each with its rank in the class: the whole class, or the
        focus's, the leaders and the nearest rivals of a crowded one."""
        ranked = self.equal_scale.assign(rank=range(1, len(self.equal_scale) + 1))
        return self.shown_of(ranked, budget=chart_rows.MAX_TABLE_ROWS)

    @staticmethod
    def bar_chart_height(data: pd.DataFrame, hidden: int) -> float:
        """Inches a bar chart of ``data`` takes: a row of ``BAR_ROW`` each bar and each division's
        heading, a line for the results it leaves out, the title and the axis. With ``chart_rows``'
        budget it stays under 6 in, so a benchmark's bars and its scaling chart share a page."""
        rows = len(data) + data["division"].nunique()
        return max(2.0, 0.9 + BAR_ROW * rows + (0.15 if hidden else 0.0))

    @property
    def focus_submitter(self) -> str | None:
        """The submitter charts colour as the focus (None for an accelerator or no focus)."""
        return self.focus.submitter

    def chart_focus(self, data: pd.DataFrame) -> str | None:
        """The focus submitter when ``data`` has a row of it, else None: a chart with no focus to
        colour is the same chart whoever the focus is, so a batch of focuses draws it once."""
        focus = self.focus_submitter
        if not focus or data.empty:
            return None
        return focus if data["submitter"].astype(str).str.lower().eq(focus.lower()).any() else None

    @functools.cached_property
    def focus_keys(self) -> frozenset[tuple[str, str]]:
        """(submitter, system_id) of every focus result of this benchmark: the bars charts highlight."""
        df = self.entries
        mine = df[comparisons.focus_mask(df, self.focus)] if len(df) else df
        return frozenset(zip(mine["submitter"].astype(str), mine["system_id"].astype(str)))

    @functools.cached_property
    def _baseline(self) -> tuple[pd.Series | None, dict]:
        return metrics.choose_baseline(self.results, benchmark=self.benchmark, baseline=self.config.baseline,
                                       focus=self.focus, round_id=self.round_id, system_id=self.baseline_system)

    @property
    def baseline_row(self) -> pd.Series | None:
        return self._baseline[0]

    @functools.cached_property
    def priced(self) -> pd.DataFrame:
        """Systems with a perf/$ ratio against the baseline; empty unless the baseline and at least one
        other system have a sourced price (never a one-bar chart)."""
        df = self.perf[self.perf["ratio"].notna()]
        return df if len(df) >= 2 and df["is_baseline"].any() else df.iloc[0:0]

    @functools.cached_property
    def equal_scale(self) -> pd.DataFrame:
        """Closed results with the baseline's accelerator count, fastest first: what the report compares
        when no price is on file. Without a baseline: the scale most closed results share when the
        focus has a result there, else the focus's smallest scale."""
        closed = metrics.scored(self.results, benchmark=self.benchmark, division="closed")
        count = self.baseline_row["accelerators"] if self.baseline_row is not None else None
        if count is None or pd.isna(count):
            mine = closed[comparisons.focus_mask(closed, self.focus)] if len(closed) else closed
            common = comparisons.common_scale(closed)
            counts = set(mine["accelerators"].dropna().astype(int))
            count = common if common in counts or self.focus.kind == "none" else (min(counts) if counts else None)
        if count is None or pd.isna(count):
            return closed.iloc[0:0]
        return comparisons.scale_class(closed, int(count))

    @property
    def baseline_key(self) -> tuple[str, str] | None:
        row = self.baseline_row
        return (str(row["submitter"]), str(row["system_id"])) if row is not None else None

    @property
    def baseline_name(self) -> str:
        return str(self.baseline_row["display_name"]) if self.baseline_row is not None else ""

    @functools.cached_property
    def perf(self) -> pd.DataFrame:
        return metrics.perf_per_dollar(self.results, benchmark=self.benchmark, baseline_row=self.baseline_row,
                                       catalogue=self.catalogue, round_id=self.round_id)

    @functools.cached_property
    def scaling(self) -> pd.DataFrame:
        return metrics.scaling_points(self.results, benchmark=self.benchmark, division=self.division)

    @property
    def ideal(self) -> pd.DataFrame:
        return metrics.ideal_scaling(self.scaling)

    @functools.cached_property
    def spread(self) -> pd.DataFrame:
        """Every run of the focus's scored systems (its fastest ``SPREAD_SYSTEMS``) and the baseline's."""
        df = self.scored
        keep = pd.Series([k in self.focus_keys for k in zip(df["submitter"], df["system_id"])], index=df.index, dtype=bool)
        keep &= keep.cumsum() <= SPREAD_SYSTEMS
        if self.baseline_key:
            keep |= (df["submitter"] == self.baseline_key[0]) & (df["system_id"] == self.baseline_key[1])
        return metrics.run_times(self.runs, benchmark=self.benchmark, systems=df[keep])

    @functools.cached_property
    def bests(self) -> pd.DataFrame:
        return metrics.round_bests(self.rounds, benchmark=self.benchmark, division=self.division)

    @property
    def round_ids(self) -> list[str]:
        return sorted(self.rounds, key=parse_round_id)

    def figures(self) -> dict:
        previous = latest_before(self.round_id, list(self.rounds))
        return figures.benchmark_figures(
            self.results, round_id=self.round_id, benchmark=self.benchmark, focus_submitter=self.focus,
            baseline=self.config.baseline, catalogue=self.catalogue, baseline_system=self.baseline_system,
            previous_results=self.rounds.get(previous), previous_round_id=previous, division=self.division)


def load_round(*, round_id: str, data_dir: Path | str, prices_file: Path | str, config_file: Path | str,
               focus_submitter: str | None = None, focus_accelerator: str | None = None,
               ) -> tuple[ReportConfig, Catalogue, dict[str, pd.DataFrame]]:
    """Configuration, catalogue and prepared results of ``round_id`` and every earlier round present."""
    config = load_config(config_file).with_overrides(focus_submitter=focus_submitter or None,
                                                     focus_accelerator=focus_accelerator)
    catalogue = load_prices(prices_file)
    present = rounds_up_to(round_id, data_dir)
    if round_id not in present:
        present.append(round_id)  # read_table below names the missing file
    rounds = {r: _kept((Path(data_dir) / r / "results.csv", Path(prices_file)), ("results", r), lambda r=r: (
        metrics.prepare_results(round_tables.read_table(data_dir, r, "results.csv"), catalogue, r))) for r in present}
    return config, catalogue, rounds


#: Tables read (and prepared) once in a kernel's life: what -> (the files' identities, the frame).
_KEPT: dict = {}
_KEPT_MOST = 32


def _kept(files: tuple[Path, ...], what: tuple, make) -> pd.DataFrame:
    """``make()``'s frame, kept by ``what`` and the identity (path, size, time) of the ``files`` it
    is made from; a copy each time, since a notebook may change its frames. A kernel runs notebook
    after notebook (reset between them, its modules kept), and each read and prepared every round
    again: 45 of the 56 ms a Training v4.1 notebook took to load, 150 notebooks in a batch of 17
    focuses. A file that cannot be read is left to ``make``, whose error names it."""
    try:
        identity = tuple((str(p.resolve()), (stat := p.stat()).st_size, stat.st_mtime_ns) for p in files)
    except OSError:
        return make()
    kept = _KEPT.get(what)
    if kept is None or kept[0] != identity:
        if len(_KEPT) >= _KEPT_MOST:
            _KEPT.clear()
        kept = _KEPT[what] = (identity, make())
    return kept[1].copy()


def load_benchmark(*, round_id: str, benchmark: str, division: str = "closed", focus_submitter: str,
                   data_dir: Path | str, prices_file: Path | str, config_file: Path | str,
                   baseline_system: str | None = None, focus_accelerator: str | None = None) -> BenchmarkAnalysis:
    config, catalogue, rounds = load_round(round_id=round_id, data_dir=data_dir, prices_file=prices_file,
                                           config_file=config_file, focus_submitter=focus_submitter,
                                           focus_accelerator=focus_accelerator)
    return BenchmarkAnalysis(
        round_id=round_id, benchmark=benchmark, division=division, focus=config.focus, config=config,
        catalogue=catalogue, results=rounds[round_id],
        runs=_kept((Path(data_dir) / round_id / "runs.csv",), ("runs", round_id),
                   lambda: round_tables.read_table(data_dir, round_id, "runs.csv")),
        rounds=rounds, baseline_system=baseline_system or None)
