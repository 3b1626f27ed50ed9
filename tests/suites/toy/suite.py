"""A toy third suite that lives only in the tests: it proves the seam. Its results are one CSV
(``scores.csv``: submitter, system, item, score; higher is better), its report one notebook per item
and a summary, its narrative one sentence. Nothing outside this folder knows it exists."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from mlperf_report.analysis.jobs import NotebookJob, Plan
from mlperf_report.analysis.planning import check_focus, check_writable
from mlperf_report.core.atomic import write_text
from mlperf_report.core.errors import InputError
from mlperf_report.core.rounds import parse_round_id
from mlperf_report.narrative.rendering import Rendered

HERE = Path(__file__).resolve().parent
ITEM_NOTEBOOK, SUMMARY_NOTEBOOK = HERE / "item.ipynb", HERE / "summary.ipynb"
_SENTENCE = {"en": "{best} leads {item} with a score of {score}.", "zh-Hant": "{best} 在 {item} 領先，得分 {score}。"}


@dataclass
class Ingested:
    rows: list[dict]
    problems: list[dict] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)


class ToySuite:
    name = "toy"

    def default_title(self, lang: str) -> str:
        return {"en": "Toy results", "zh-Hant": "玩具測試結果"}[lang]

    def parse_round(self, round_id):
        parsed = parse_round_id(str(round_id))
        if parsed.suite != self.name:
            raise ValueError(f"{round_id}: not a toy round")
        return parsed

    def ingest(self, source, source_facts, round_, **options):
        names = [e.name for e in source.list().entries if e.name.endswith("scores.csv")]
        rows = list(csv.DictReader(io.TextIOWrapper(source.open(names[0]), encoding="utf-8"))) if names else []
        problems = [] if names else [{"file": source.label, "problem": "no scores.csv"}]
        counts = {"result_files": len(names), "result_sets": len(rows), "by_status": {"ok": len(rows)},
                  "problems": len(problems), "ignored": 0}
        return Ingested(rows, problems, {"round": round_.id, "counts": counts})

    def write_tables(self, result, out_dir):
        out = io.StringIO()
        writer = csv.DictWriter(out, ["submitter", "system", "item", "score"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(result.rows)
        return [write_text(Path(out_dir) / "results.csv", out.getvalue()),
                write_text(Path(out_dir) / "manifest.json", json.dumps(result.manifest, sort_keys=True) + "\n")]

    def entrants(self, data_dir, round_id):
        rows = csv.DictReader((Path(data_dir) / round_id / "results.csv").open(encoding="utf-8"))
        return [{"submitter": r["submitter"], "accelerator_model": ""} for r in rows]

    def plan(self, config, request):
        tables = request.data_dir / config.round
        if not (tables / "results.csv").is_file():
            raise InputError(f"{tables / 'results.csv'}: not found; ingest the toy round first")
        rows = list(csv.DictReader((tables / "results.csv").open(encoding="utf-8")))
        check_focus(config.focus, [{"submitter": r["submitter"], "accelerator_model": ""} for r in rows], config.round)
        round_out = request.output_dir / config.round
        check_writable(round_out)
        common = {"round_id": config.round, "data_dir": str(request.data_dir), "output_dir": str(request.output_dir)}
        inputs = (tables / "results.csv",)
        jobs = [NotebookJob(item, ITEM_NOTEBOOK, round_out / "notebooks" / f"{item}.ipynb",
                            round_out / "figures" / f"{item}.json", {**common, "item": item}, inputs)
                for item in sorted({r["item"] for r in rows})]
        jobs.append(NotebookJob("summary", SUMMARY_NOTEBOOK, round_out / "notebooks" / "summary.ipynb",
                                round_out / "figures" / "summary.json", common, inputs))
        return Plan(round_id=config.round, jobs=tuple(jobs), workers=request.workers, force=request.force,
                    output_dir=request.output_dir, fresh_kernels=request.fresh_kernels)

    def _sentences(self, figures, lang):
        return [_SENTENCE[lang].format(**fig) for _, fig in sorted(figures.items())]

    def render(self, figures, summary, config, lang, *, catalogue=None):
        return Rendered("".join(f"<p>{escape(s)}</p>" for s in self._sentences(figures, lang)),
                        f"<p>{escape(parse_round_id(config.round).title)}</p>")

    def headlines(self, figures, summary, config, lang, *, catalogue=None):
        return self._sentences(figures, lang), [parse_round_id(config.round).title]

    def config_of_report(self, config, figures, round_id):
        return config.with_overrides(round=round_id)

    def section_title(self, parameters, stem, lang):
        return f"Item {parameters['item']}" if parameters.get("item") else None

    def section_note(self, parameters, lang):
        return ""


SUITE = ToySuite()
