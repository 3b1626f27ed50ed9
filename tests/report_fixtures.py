"""Small executed-notebook look-alikes for the assembler tests, made here so the tests depend on
nobody else's notebooks: per language one SVG chart per benchmark (real matplotlib SVG, Chinese
labels included), an HTML table, a markdown cell, a hidden code cell and papermill's parameter cells."""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("svg")

import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output  # noqa: E402

from mlperf_report.i18n import fonts  # noqa: E402

LANGS = ("en", "zh-Hant")
BENCHMARKS = ("resnet", "bert", "ssd")
CHART_TITLE = {"en": "Time to train, {b}", "zh-Hant": "訓練時間：{b}"}
TABLE_HEAD = {"en": "System", "zh-Hant": "系統"}
NARRATIVE = {
    "en": "<h1>Press release</h1><p>Our first MLPerf Training submission trains ResNet-50 in 28.3 minutes.</p>"
          "<h2>Price performance</h2><p>1.6 times the performance per dollar of the baseline.</p>",
    "zh-Hant": "<h1>新聞稿</h1><p>我們首次提交的 MLPerf 訓練結果：ResNet-50 僅需 28.3 分鐘即完成訓練。</p>"
               "<h2>性價比</h2><p>每美元效能為基準系統的 1.6 倍。</p>",
}
NOTES = {
    "en": "<ol><li>MLPerf name and logo are trademarks of MLCommons Association.</li></ol>",
    "zh-Hant": "<ol><li>MLPerf 名稱與標誌為 MLCommons 協會的商標。</li></ol>",
}
BAR_COLOR = "#e07b00"  # not a colour of the report's own CSS, so tests can find the charts by it
SECRET_CODE = "SECRET_CODE_MARKER = 42"
PARAMETER_MARKER = "PARAMETER_MARKER"
MARKDOWN_MARKER = "Markdown cell shown"


def chart_svg(title: str, width_in: float = 6.4, height_in: float = 3.6) -> str:
    fonts.register_matplotlib_cjk()
    fig, ax = plt.subplots(figsize=(width_in, height_in))
    ax.barh(["A", "B", "C"], [28.3, 31.0, 40.2], color=BAR_COLOR)
    ax.set_title(title)
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    plt.close(fig)
    return buffer.getvalue()


def _svg_output(svg: str, chart: str, lang: str):
    return new_output("display_data", data={"image/svg+xml": svg, "text/plain": "<IPython.core.display.SVG object>"},
                      metadata={"mlperf_report": {"chart": chart, "lang": lang}})


def benchmark_notebook(benchmark: str, *, size: tuple[float, float] = (6.4, 3.6), charts: int = 1) -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.metadata["papermill"] = {"parameters": {"benchmark": benchmark, "round_id": "training-v1.0"}}
    nb.cells.append(new_code_cell(f"benchmark = 'x'  # {PARAMETER_MARKER}", metadata={"tags": ["parameters"]}))
    nb.cells.append(new_code_cell(f"benchmark = '{benchmark}'  # {PARAMETER_MARKER}",
                                  metadata={"tags": ["injected-parameters"]}))
    nb.cells.append(new_markdown_cell(f"# {benchmark.upper()} results\n\nRuns scored with the official rules."))
    nb.cells.append(new_markdown_cell(f"## Time to train\n\n{MARKDOWN_MARKER}: shorter is better."))
    code = new_code_cell(SECRET_CODE, metadata={"tags": ["remove-input"]})
    for lang in LANGS:
        code.outputs.append(_svg_output(chart_svg(CHART_TITLE[lang].format(b=benchmark), *size), "time_to_train", lang))
        for number in range(1, charts):
            code.outputs.append(_svg_output(chart_svg(CHART_TITLE[lang].format(b=f"{benchmark} #{number}"), *size),
                                            f"extra_{number}", lang))
    code.outputs.append(new_output("stream", name="stderr", text="a warning nobody should read in a report\n"))
    nb.cells.append(code)
    table = new_code_cell("show_table()", metadata={"tags": ["remove-input"]})
    for lang in LANGS:
        table.outputs.append(new_output(
            "display_data",
            data={"text/html": f"<table><thead><tr><th>{TABLE_HEAD[lang]}</th><th>min</th></tr></thead>"
                               f"<tbody><tr><td>{benchmark}-{lang}-row</td><td>28.3</td></tr></tbody></table>"},
            metadata={"mlperf_report": {"table": "results", "lang": lang}}))
    nb.cells.append(table)
    return nb


def summary_notebook() -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.cells.append(new_code_cell("round_id = 'training-v1.0'", metadata={"tags": ["parameters"]}))
    code = new_code_cell("draw_summary()", metadata={"tags": ["remove-input"]})
    for lang in LANGS:
        code.outputs.append(_svg_output(chart_svg(CHART_TITLE[lang].format(b="all")), "summary", lang))
    nb.cells.append(code)
    return nb


def write_notebooks(folder: Path, benchmarks=BENCHMARKS, sizes: dict | None = None, charts: int = 1) -> list[Path]:
    """Benchmark notebooks then summary.ipynb, as build.py report leaves them; ``sizes`` gives some
    benchmarks' charts another size in inches (a chart wider or taller than an A4 page)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for benchmark in benchmarks:
        path = folder / f"{benchmark}.ipynb"
        nbformat.write(benchmark_notebook(benchmark, size=(sizes or {}).get(benchmark, (6.4, 3.6)), charts=charts),
                       str(path))
        written.append(path)
    path = folder / "summary.ipynb"
    nbformat.write(summary_notebook(), str(path))
    written.append(path)
    return written


def build_reports(root: Path, *, sizes: dict | None = None, title: str = "MLPerf Training v1.0 results"):
    """Assemble both languages from fresh fixture notebooks under ``root``; {lang: AssembledReport}."""
    from mlperf_report.assemble import document

    notebooks = write_notebooks(root / "notebooks", sizes=sizes)
    return {
        lang: document.assemble_report("training-v1.0", lang, notebooks, NARRATIVE[lang], NOTES[lang], root / "out",
                                       title, "2026-12-02", default_copy=(lang == "en"), cache_dir=root / "fonts")
        for lang in LANGS
    }
