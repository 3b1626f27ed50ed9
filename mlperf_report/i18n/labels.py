"""Chart and table label text in every report language, so a chart is drawn once per language.

Only words live here; numbers are drawn by matplotlib or formatted by ``formatting``. A key missing
in one language is a bug the tests catch (``test_charts``), never a silent English fallback.
"""

from __future__ import annotations

LANGUAGES = ("en", "zh-Hant")

_LABELS: dict[str, dict[str, str]] = {
    "time_to_train.title": {"en": "Time to train, {benchmark}", "zh-Hant": "訓練時間：{benchmark}"},
    "time_to_train.x": {"en": "Time to train (minutes, lower is better)", "zh-Hant": "訓練時間（分鐘，越低越好）"},
    "time_to_train.x_log": {"en": "Time to train (minutes, log scale, lower is better)",
                            "zh-Hant": "訓練時間（分鐘，對數刻度，越低越好）"},
    "scaling.title": {"en": "Scaling, {benchmark} ({division} division)", "zh-Hant": "擴展性：{benchmark}（{division}組）"},
    "scaling.x": {"en": "Accelerators (count, log scale)", "zh-Hant": "加速器數量（對數刻度）"},
    "scaling.y": {"en": "Time to train (minutes, log scale)", "zh-Hant": "訓練時間（分鐘，對數刻度）"},
    "scaling.ideal": {"en": "ideal scaling", "zh-Hant": "理想擴展"},
    "perf_per_dollar.title": {"en": "Performance per dollar, {benchmark}", "zh-Hant": "每美元效能：{benchmark}"},
    "perf_per_dollar.x": {"en": "Performance per dollar relative to {baseline} (×, higher is better)",
                          "zh-Hant": "相對於 {baseline} 的每美元效能（倍，越高越好）"},
    "run_spread.title": {"en": "Run-to-run spread, {benchmark}", "zh-Hant": "各次執行的差異：{benchmark}"},
    "run_spread.x": {"en": "Time to train of each run (minutes)", "zh-Hant": "每次執行的訓練時間（分鐘）"},
    "run_spread.not_converged": {"en": "did not converge", "zh-Hant": "未收斂"},
    "round_over_round.title": {"en": "Best result per submitter by round, {benchmark} ({division} division)",
                               "zh-Hant": "各提交者每輪最佳成績：{benchmark}（{division}組）"},
    "round_over_round.x": {"en": "MLPerf Training round", "zh-Hant": "MLPerf Training 輪次"},
    "round_over_round.y": {"en": "Best time to train (minutes, log scale)", "zh-Hant": "最佳訓練時間（分鐘，對數刻度）"},
    "division.closed": {"en": "closed", "zh-Hant": "封閉"},
    "division.open": {"en": "open", "zh-Hant": "開放"},
    "division.closed.title": {"en": "Closed division", "zh-Hant": "封閉組"},
    "division.open.title": {"en": "Open division", "zh-Hant": "開放組"},
    "legend.focus": {"en": "{focus}", "zh-Hant": "{focus}"},
    "legend.baseline": {"en": "baseline", "zh-Hant": "基準"},
    "legend.other": {"en": "other submitters", "zh-Hant": "其他提交者"},
    "empty": {"en": "no scored results", "zh-Hant": "沒有計分結果"},
    # table columns
    "col.submitter": {"en": "Submitter", "zh-Hant": "提交者"},
    "col.system": {"en": "System", "zh-Hant": "系統"},
    "col.division": {"en": "Division", "zh-Hant": "組別"},
    "col.accelerators": {"en": "Accelerators", "zh-Hant": "加速器"},
    "col.framework": {"en": "Framework", "zh-Hant": "框架"},
    "col.minutes": {"en": "Time to train (min)", "zh-Hant": "訓練時間（分鐘）"},
    "col.runs": {"en": "Runs (converged / found / required)", "zh-Hant": "執行次數（收斂／找到／要求）"},
    "col.status": {"en": "Status", "zh-Hant": "狀態"},
    "col.benchmark": {"en": "Benchmark", "zh-Hant": "基準測試"},
    "col.position": {"en": "Position (closed)", "zh-Hant": "名次（封閉組）"},
    "col.price": {"en": "Price", "zh-Hant": "價格"},
    "col.ratio": {"en": "Perf/$ vs baseline (×)", "zh-Hant": "每美元效能相對基準（倍）"},
    "col.systems": {"en": "Scored systems", "zh-Hant": "計分系統數"},
    "col.reason": {"en": "Why there is no price", "zh-Hant": "沒有價格的原因"},
    "no_price": {"en": "no price", "zh-Hant": "沒有價格"},
    "status.ok": {"en": "scored", "zh-Hant": "已計分"},
    "col.focus_minutes": {"en": "Best of {focus} (min)", "zh-Hant": "{focus} 最佳（分鐘）"},
    "col.fastest": {"en": "Fastest (min)", "zh-Hant": "最快（分鐘）"},
    "col.fastest_submitter": {"en": "Fastest submitter", "zh-Hant": "最快的提交者"},
    "col.baseline": {"en": "Baseline", "zh-Hant": "基準系統"},
    "col.baseline_price": {"en": "Baseline price", "zh-Hant": "基準系統價格"},
    "position": {"en": "{position} of {total}", "zh-Hant": "第 {position} 名（共 {total}）"},
    "perf_per_dollar_summary.title": {"en": "Performance per dollar of {focus} vs baseline, by benchmark",
                                      "zh-Hant": "{focus} 相對於基準的每美元效能（各基準測試）"},
}


def label(key: str, lang: str, **fields: object) -> str:
    """The text of ``key`` in ``lang``, with ``{fields}`` filled in."""
    try:
        text = _LABELS[key][lang]
    except KeyError:
        if key not in _LABELS:
            raise KeyError(f"no label {key!r}; add it to mlperf_report/i18n/labels.py") from None
        raise KeyError(f"label {key!r} has no {lang!r} text; languages are {list(LANGUAGES)}") from None
    return text.format(**fields) if fields else text


def keys() -> list[str]:
    """Every label key, for tests that check all languages are complete."""
    return sorted(_LABELS)

