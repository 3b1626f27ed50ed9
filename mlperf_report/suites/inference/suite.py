"""MLPerf Inference as the shared stages see it (``suites.Suite``): its rounds, ingest, report plan,
narrative, mail headlines and section titles, each imported when called."""

from __future__ import annotations

from typing import Any, Mapping

from mlperf_report.i18n import catalogue as messages


class InferenceSuite:
    name = "inference"

    def default_title(self, lang: str) -> str:
        return messages.message("suite.inference.title", lang)

    def parse_round(self, round_id):
        from mlperf_report.suites.inference.rounds import parse_round

        return parse_round(str(round_id))

    def ingest(self, source, source_facts, round_, official=None, **options):
        from mlperf_report.core.errors import UserError
        from mlperf_report.suites.inference import ingest

        if official is not None:
            raise UserError("--official reads MLCommons' results table of a Training round; an Inference tree "
                            "carries its result IDs in summary_results.json at its root")
        return ingest.ingest(source, source_facts, round_, **options)

    def write_tables(self, result, out_dir):
        from mlperf_report.suites.inference import ingest

        return ingest.write_tables(result, out_dir)

    def entrants(self, data_dir, round_id):
        from mlperf_report.suites.inference.plan import scored_benchmarks

        return scored_benchmarks(data_dir / round_id / "results.csv", "closed", None, round_id).entrants

    def plan(self, config, request):
        from mlperf_report.suites.inference.plan import make_plan

        return make_plan(config, request)

    def render(self, figures, summary, config, lang, *, catalogue=None):
        from mlperf_report.suites.inference import narrative

        return narrative.render(figures, summary, config, lang, catalogue=catalogue)

    def headlines(self, figures, summary, config, lang, *, catalogue=None):
        from mlperf_report.suites.inference import narrative

        return (narrative.headline_summary(figures, config, lang, catalogue=catalogue, summary=summary),
                narrative.headline_notes(figures, config, lang, catalogue=catalogue, summary=summary))

    def history(self, round_id: str) -> list[tuple[str, tuple[str, ...]]]:
        """The earlier round the story compares with: the one just before (its same-hardware progress)."""
        from mlperf_report.suites.inference.rounds import OLDEST, parse_round

        previous = parse_round(str(round_id)).previous()
        if (previous.major, previous.minor) < OLDEST:
            return []
        return [(previous.id, ("round-over-round progress", "generation"))]

    def lead_claims(self, summary, config, lang: str) -> list[dict]:
        """The story's headline and highlights, worded, each with ``note_text`` (the press kit's claims)."""
        from mlperf_report.narrative import story_text
        from mlperf_report.suites.inference import narrative

        story = (summary or {}).get("story")
        round_id = str((summary or {}).get("round") or config.round)
        return story_text.lead_claims(story, lang, narrative.NAMES, round_id,
                                      retrieval=narrative.retrieval(config, round_id))

    def citation_notices(self, figures, summary, config) -> list[str]:
        """Lines `report` prints once: how to add the MLCommons result IDs the story's notes lack."""
        from mlperf_report.suites.inference import narrative

        return narrative.citation_notices(summary, str((summary or {}).get("round") or config.round))

    def workbook(self, data_dir, round_id: str, prices_file, focus) -> dict:
        """Sheet name -> every result folder of that benchmark, the focus's marked (``results.xlsx``)."""
        from mlperf_report.suites.inference import exhibits, tables

        return exhibits.workbook_sheets(tables.load_results(data_dir, round_id), focus)

    def config_of_report(self, config, figures: Mapping[str, dict], round_id: str):
        """Inference claims name the round being sent."""
        return config.with_overrides(round=round_id)

    def section_title(self, parameters: Mapping[str, Any], stem: str, lang: str) -> str | None:
        """A benchmark's full name (every folder spelling of it under MLCommons' name)."""
        from mlperf_report.suites.inference import models

        name = parameters.get("benchmark") or parameters.get("model")
        return models.title(str(name), lang) if name else None

    def section_note(self, parameters: Mapping[str, Any], lang: str) -> str:
        return ""


SUITE = InferenceSuite()
