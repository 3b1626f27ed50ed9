"""suites: the rules of each MLPerf benchmark suite, one subpackage per suite, and the registry that
picks a round's suite.

Concern: everything that differs between MLPerf Training and (later) Inference: round facts, names,
log format, result-tree layout, official scoring, ingest into tidy tables. The stages find a round's
suite here (``suite_for("training-v1.0")``) and import its modules only when they run.
May import: core, i18n, ingest.
Public: ``Suite``, ``SUITES``, ``suite_for``; ``training`` (see its docstring).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from mlperf_report.core.errors import UserError
from mlperf_report.core.rounds import RoundId, parse_round_id


@dataclass(frozen=True)
class Suite:
    """What a suite provides to the stages. Its subpackage ``mlperf_report.suites.<name>`` has:

    - ``rounds.parse_round(text)``: the suite's round object (``.id``, ``.title``, its facts);
    - ``ingest.ingest(source, source_facts, round_, jobs=, progress=, absent=)`` and
      ``ingest.write_tables(result, out_dir)``: a results tree to ``data/<round>/``;
    and the notebooks the report runs: ``item_notebook`` once per scored item (a Training benchmark),
    with the item passed as ``item_parameter``, and ``summary_notebook`` once per round.
    """

    name: str
    item_notebook: str
    summary_notebook: str
    item_parameter: str

    def module(self, name: str):
        """``rounds`` or ``ingest`` of this suite, imported on first use."""
        return importlib.import_module(f"{__name__}.{self.name}.{name}")

    def parse_round(self, round_id: str | RoundId):
        return self.module("rounds").parse_round(str(round_id))


SUITES: dict[str, Suite] = {
    "training": Suite("training", item_notebook="benchmark.ipynb", summary_notebook="summary.ipynb",
                      item_parameter="benchmark"),
    "inference": Suite("inference", item_notebook="inference_model.ipynb",
                       summary_notebook="inference_summary.ipynb", item_parameter="model"),
}


def suite_for(round_id: str | RoundId) -> Suite:
    """The suite of a round id (``training-v1.0``); a one-line error naming the suites the tool knows."""
    try:
        parsed = round_id if isinstance(round_id, RoundId) else parse_round_id(str(round_id))
    except ValueError as error:
        raise UserError(str(error)) from None
    if parsed.suite not in SUITES:
        raise UserError(f"{parsed.id}: MLPerf {parsed.suite.capitalize()} is not supported yet; "
                        f"this tool reports {', '.join(f'MLPerf {s.capitalize()}' for s in SUITES)} rounds")
    return SUITES[parsed.suite]
