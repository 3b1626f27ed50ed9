"""MLPerf Training as the shared stages see it (``suites.Suite``): its rounds, ingest, report plan,
narrative, mail headlines and section titles. Every method imports what it needs when called, so
finding the suite of a round costs nothing on the planning path."""

from __future__ import annotations

from typing import Any, Mapping

from mlperf_report.i18n import catalogue as messages


class TrainingSuite:
    name = "training"

    def default_title(self, lang: str) -> str:
        return messages.message("suite.training.title", lang)

    def parse_round(self, round_id):
        from mlperf_report.suites.training.rounds import parse_round

        return parse_round(str(round_id))

    def ingest(self, source, source_facts, round_, **options):
        from mlperf_report.suites.training import ingest

        return ingest.ingest(source, source_facts, round_, **options)

    def write_tables(self, result, out_dir):
        from mlperf_report.suites.training import ingest

        return ingest.write_tables(result, out_dir)

    def entrants(self, data_dir, round_id):
        from mlperf_report.suites.training.plan import scored_rows

        return scored_rows(data_dir / round_id / "results.csv")

    def plan(self, config, request):
        from mlperf_report.suites.training.plan import make_plan

        return make_plan(config, request)

    def render(self, figures, summary, config, lang, *, catalogue=None):
        from mlperf_report.suites.training import narrative

        return narrative.render(figures, summary, config, lang, catalogue=catalogue)

    def headlines(self, figures, summary, config, lang, *, catalogue=None):
        from mlperf_report.suites.training import narrative

        return (narrative.headline_summary(figures, config, lang, catalogue=catalogue, summary=summary),
                narrative.headline_notes(figures, config, lang, catalogue=catalogue, summary=summary))

    def history(self, round_id: str) -> list[tuple[str, tuple[str, ...]]]:
        """The earlier round the story compares with (the one just before, by mlperf-logging's list)."""
        from mlperf_report.suites.training.rounds import previous_round_id

        previous = previous_round_id(str(round_id))
        return [(previous, ("round-over-round progress", "generation"))] if previous else []

    def lead_claims(self, summary, config, lang: str) -> list[dict]:
        """The story's headline and highlights, worded, each with ``note_text`` (the press kit's claims)."""
        from mlperf_report.narrative import story_text
        from mlperf_report.suites.training import rounds

        from mlperf_report.narrative import citations
        from mlperf_report.suites.training.narrative import story_ids

        round_id = str((summary or {}).get("round") or config.round)
        story = story_ids((summary or {}).get("story"), config, round_id)
        names = story_text.Names(lambda b, r, l: rounds.benchmark_model(b, r, l), lambda s, l: s)
        return story_text.lead_claims(story, lang, names, round_id,
                                      retrieval=citations.source_of(getattr(config, "source", None), round_id))

    def citation_notices(self, figures, summary, config) -> list[str]:
        """Lines `report` prints once: IDs given twice and differing, how to add the missing ones."""
        from mlperf_report.suites.training import citing

        return citing.notices(figures, summary, config)

    def workbook(self, data_dir, round_id: str, prices_file, focus) -> dict:
        """Sheet name -> every result of that benchmark, the focus's marked (``results.xlsx``)."""
        from mlperf_report.suites.training import exhibits

        results = exhibits.load_results(round_id=round_id, data_dir=data_dir, prices_file=prices_file)
        return exhibits.workbook_sheets(results, round_id, focus)

    def config_of_report(self, config, figures: Mapping[str, dict], round_id: str):
        """The focus of the report that was built (its figures record it), not the configured one."""
        from mlperf_report.suites.training.narrative import figures_focus

        submitter, accelerator = figures_focus(figures)
        return config.with_overrides(focus_submitter=submitter or None,
                                     focus_accelerator=accelerator if submitter else None)

    def section_title(self, parameters: Mapping[str, Any], stem: str, lang: str) -> str | None:
        """A benchmark's full name in the round, as MLCommons words it."""
        from mlperf_report.suites.training import rounds

        benchmark = parameters.get("benchmark") or stem
        if parameters.get("benchmark") or rounds.benchmark_title(benchmark) != benchmark:
            return rounds.benchmark_title(benchmark, parameters.get("round_id"), lang)
        return None

    def section_note(self, parameters: Mapping[str, Any], lang: str) -> str:
        """A visible note when the benchmark catalogue has no entry for the benchmark in its round (a
        round newer than data/benchmarks.yaml): the section is then titled by the id."""
        from html import escape

        from mlperf_report.suites.training import catalogue as benchmarks

        if not parameters.get("benchmark") or not parameters.get("round_id"):
            return ""
        text = benchmarks.note(parameters["round_id"], parameters["benchmark"], lang)
        return f'<p class="catalogue-note">{escape(text)}</p>\n' if text else ""


SUITE = TrainingSuite()
