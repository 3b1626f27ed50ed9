"""After the notebooks: narrative per language, then one HTML + PDF per language.

Runs only when every notebook succeeded: a report assembled from a partial round would quietly drop
a benchmark, so a failed notebook leaves the previous report in place and the build exits non-zero.
A stamp of everything the reports are made from (executed notebooks, figures, templates, prices,
configuration, package code) lets an unchanged rebuild skip this stage entirely.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Callable

from mlperf_report.core import paths
from mlperf_report.core.atomic import write_text
from mlperf_report.analysis.jobs import NotebookResult, Plan

STAMP = ".reports.stamp"

def _assembly(suite) -> tuple[Path, ...]:
    """Where the assembly starts: this module and the round's suite (whose methods import its narrative;
    ``stamps.modules_of`` follows every import from there)."""
    return (Path(__file__), Path(sys.modules[type(suite).__module__].__file__))


def _digest(files: list[Path], extra: dict) -> str:
    hasher = hashlib.sha256(json.dumps(extra, sort_keys=True).encode())
    for path in files:
        hasher.update(str(path.name).encode())
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def report_inputs(plan: Plan, results: list[NotebookResult], prices_file: Path, config_file: Path) -> list[Path]:
    """Every file the assembled reports are made from, in a fixed order."""
    from mlperf_report.analysis import stamps
    from mlperf_report.suites import suite_for

    templates = sorted(p for p in paths.TEMPLATES.rglob("*") if p.is_file())
    code = stamps.modules_of(_assembly(suite_for(plan.round_id)))
    made = [p for r in results for p in (r.notebook, r.figures) if p and Path(p).exists()]
    return [*made, *templates, *code, *stamps.data_inputs(code), Path(prices_file), Path(config_file)]


def report_date(config) -> str:
    """The date on the cover: ``report_date`` from the configuration, else today."""
    return str(getattr(config, "report_date", "") or dt.date.today().isoformat())


def build_reports(plan: Plan, results: list[NotebookResult], *, prices_file: Path, config_file: Path,
                  languages: list[str] | None = None, focus_submitter: str | None = None,
                  force: bool = False, focus_accelerator: str | None = None) -> list[Path]:
    """Render the narrative and assemble the reports of every language; return the files written."""
    return start_reports(plan, results, prices_file=prices_file, config_file=config_file, languages=languages,
                         focus_submitter=focus_submitter, force=force, focus_accelerator=focus_accelerator)()


def start_reports(plan: Plan, results: list[NotebookResult], *, prices_file: Path, config_file: Path,
                  languages: list[str] | None = None, focus_submitter: str | None = None,
                  force: bool = False, focus_accelerator: str | None = None,
                  pool=None, share_appendix: bool = False) -> Callable[[], list[Path]]:
    """Render the narrative of every language and hand the reports to ``pool`` (a batch's
    :class:`report_pools.RenewingPool`) without waiting; the returned call waits for them, writes the stamp
    and returns the files written. A batch starts every focus before it waits for the first, so its
    assembling processes never idle while one language of a focus takes longer than the other or
    the next focus's narrative is being rendered. Without ``pool`` the reports are assembled when
    the returned call is made, in a pool of their own. ``share_appendix``: a batch's reports print
    their appendix so that every focus shares it (``pdf_print.print_report``)."""
    from mlperf_report.core.config import load_config
    from mlperf_report.suites import suite_for

    suite = suite_for(plan.round_id)
    config = load_config(config_file).with_overrides(round=plan.round_id, focus_submitter=focus_submitter,
                                                     focus_accelerator=focus_accelerator,
                                                     languages=languages)
    round_out = Path(plan.output_dir) / plan.round_id
    langs = list(config.languages)
    titles = {lang: config.title_for(lang, suite.name, lambda lang=lang: suite.default_title(lang)) for lang in langs}
    date = report_date(config)
    inputs = report_inputs(plan, results, prices_file, config_file)
    digest = _digest(inputs, {"languages": langs, "date": date, "focus": config.focus.key,
                              "titles": [titles[lang] for lang in langs]})
    stamp = round_out / STAMP
    from mlperf_report.assemble import workbook

    makes_workbook = hasattr(suite, "workbook")
    expected = _expected(round_out, langs, workbook.FILE_NAME if makes_workbook else None)
    if not force and stamp.exists() and stamp.read_text().strip() == digest and all(p.exists() for p in expected):
        print(f"reports: up to date ({', '.join(langs)})", file=sys.stderr)
        return lambda: expected

    from mlperf_report.assemble import document
    from mlperf_report.core.prices import load_prices

    started = time.perf_counter()
    print(f"reports: assembling {', '.join(langs)} (HTML + PDF)", file=sys.stderr)
    requests = (document.ReportRequest(plan.round_id, lang, tuple(r.notebook for r in results), narrative, notes,
                                       round_out, titles[lang], date, default_copy=i == 0,
                                       share_appendix=share_appendix,
                                       workbook=workbook.FILE_NAME if makes_workbook else None)
                for i, (lang, narrative, notes) in enumerate(_narratives(suite, config, langs, round_out, results,
                                                                         load_prices(prices_file))))
    waiting = _hand_over(requests, pool, plan.workers)
    made = workbook.write_workbook(suite, data_dir=plan.data_dir, round_id=plan.round_id, prices_file=prices_file,
                                   focus=config.focus, path=round_out / workbook.FILE_NAME)  # while they print

    def finish() -> list[Path]:
        reports = waiting()
        write_text(stamp, digest + "\n")
        written = [p for report in reports
                   for p in (report.html_path, report.pdf_path, report.exhibits_path, *report.copies) if p]
        written += [made] if made else []
        print(f"reports: {len(written)} files in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        return written

    return finish


def _expected(round_out: Path, langs: list[str], workbook: str | None) -> list[Path]:
    """The files a built report leaves (the exhibits' PDF only where there are exhibits: not checked)."""
    expected = [round_out / f"report.{lang}.{ext}" for lang in langs for ext in ("html", "pdf")]
    return expected + [round_out / "report.html", round_out / "report.pdf"] + ([round_out / workbook] if workbook else [])


def _narratives(suite, config, langs: list[str], round_out: Path, results, catalogue):
    """(language, narrative HTML, notes HTML), rendered one language at a time as they are asked for."""
    from mlperf_report.narrative.rendering import load_figures

    figures, summary = load_figures(round_out / "figures", {Path(r.figures).stem for r in results})
    for lang in langs:
        rendered = suite.render(figures, summary, config, lang, catalogue=catalogue)
        yield lang, rendered.narrative, rendered.notes


def _hand_over(requests, pool, workers: int) -> Callable[[], list]:
    """Give ``requests`` (rendered as they are taken) to ``pool``, each as soon as it is rendered, so
    its printing starts while the next language's narrative is rendered; without a pool, assemble
    them when the returned call is made. The returned call waits and gives the reports in order."""
    from mlperf_report.assemble import document, report_pools

    if pool is None:
        made = list(requests)
        return lambda: document.assemble_reports(made, workers=min(workers, len(made)))
    submitted = [report_pools.submit_reports([request], pool) for request in requests]
    return lambda: [report for wait in submitted for report in wait()]


def report_headlines(folder: Path, config, round_id: str, *, catalogue=None, names: set[str] | None = None):
    """lang -> (headline lines, their notes) of the report built in ``folder`` (``output/<round>/`` or a
    focus's), worded as the report words them and for the focus its figures were made for: what an
    email leads with and the index page shows. No figures (a report built without notebooks): ([], [])."""
    from mlperf_report.narrative.rendering import load_figures
    from mlperf_report.suites import suite_for

    if not any((Path(folder) / "figures").glob("*.json")):
        return lambda lang: ([], [])
    suite = suite_for(round_id)
    figures, summary = load_figures(Path(folder) / "figures", names)
    built = suite.config_of_report(config, figures, round_id)
    return lambda lang: suite.headlines(figures, summary, built, lang, catalogue=catalogue)
